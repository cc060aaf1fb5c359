/**
 * Why the device refused to store a write (a full disk, a private window, a damaged database),
 * for a person: the error's name and message. Its own module, so that a form saying it in a line
 * does not load the not-stored dialog.
 */
export function describeStoreError(error: unknown) {
  if (error instanceof Error || (typeof DOMException !== "undefined" && error instanceof DOMException)) {
    return [error.name, error.message].filter(Boolean).join(": ");
  }
  return String(error);
}
