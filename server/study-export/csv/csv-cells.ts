/**
 * CSV lines as RFC 4180 writes them (fields quoted when they hold a comma, a quote or a line
 * break, quotes doubled, lines ended by CRLF), with spreadsheet formula injection neutralised:
 * a text cell that starts with =, +, -, @, a tab or a carriage return gets a leading ' so that
 * Excel, LibreOffice and Google Sheets show it as text instead of running it (OWASP's advice).
 * Numbers and UTC offsets are left as they are: -3 and -05:00 are values, not formulas.
 */

/** A cell's value: empty for null and undefined. */
export type CsvCell = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
/** Text that starts like a formula but is a value: a number, a UTC offset (-05:00). */
const PLAIN_VALUE = /^([+-]?\d+(\.\d+)?([eE][+-]?\d+)?|[+-]\d{2}:?\d{2})$/;

/** The cell as written in a CSV line. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "1" : "0";
  const text = FORMULA_START.test(value) && !PLAIN_VALUE.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line, CRLF included. */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(",")}\r\n`;
}

/** An ISO UTC time, or empty. */
export function isoCell(value: Date | string | null | undefined): string {
  if (value === null || value === undefined) return "";
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
}
