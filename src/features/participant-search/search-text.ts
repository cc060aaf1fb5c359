/** The search box rules (spec 01 section 5): submit only when the trimmed text is not empty. */
export function normalizeSearchText(text: string) {
  return text.trim();
}

export function canSubmitSearch(text: string) {
  return normalizeSearchText(text).length > 0;
}
