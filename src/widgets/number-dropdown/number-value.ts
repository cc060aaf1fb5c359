/**
 * The number-input dropdown's rule (spec 02 section 5): the text is read as an integer, and a
 * negative is clamped to 0 unless negatives are allowed. Plain function.
 */

/**
 * The integer a typed text names, or null when it names none (empty, letters, a decimal). A
 * negative becomes 0 unless allowNegative.
 */
export function parseWholeNumber(text: string, allowNegative = false): number | null {
  const trimmed = text.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) return null;
  const value = Number.parseInt(trimmed, 10);
  if (!Number.isSafeInteger(value)) return null;
  if (value < 0 && !allowNegative) return 0;
  // -0 reads as 0.
  return value === 0 ? 0 : value;
}
