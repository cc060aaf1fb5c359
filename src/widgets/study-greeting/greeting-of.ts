import type { StudyResponse } from "../../../core/contracts/study.ts";

/** The study's greeting to its clinicians (config.clinro.greeting), or null when it has none. */
export function greetingOf(config: StudyResponse["config"] | undefined): string | null {
  const greeting = config?.clinro?.greeting?.trim();
  return greeting ? greeting : null;
}
