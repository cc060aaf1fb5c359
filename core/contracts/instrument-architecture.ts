/**
 * The default instrument architecture version (spec 02 section 9 names the constant, not its
 * value). A study's config.instrument_architecture_version above it is the newer architecture:
 * the participant home lists instruments with their instances, and the inbox does not fetch the
 * announcements list (spec 02 section 2, "Inbox"). At or below it (or unset): the forms list, and
 * the inbox fetches. The demo has study 102 at version 2 and the others at 1.
 */
export const DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION = 1;

export function isNewerArchitecture(version: number | undefined) {
  return (version ?? DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION) > DEFAULT_INSTRUMENT_ARCHITECTURE_VERSION;
}
