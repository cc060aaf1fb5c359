/**
 * Reading an uploaded CSV (the staff and participant imports): a byte-order mark, CRLF line ends,
 * quoted fields and blank lines are taken as spreadsheets write them; each record keeps the file
 * line it ended on, so that a problem can name its line.
 */
import { parse } from "csv-parse/sync";

export type CsvRecord = { record: string[]; info: { lines: number } };

/** The file's records, or why it cannot be read as CSV at all. */
export function readCsvRecords(text: string): CsvRecord[] | string {
  try {
    return parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }) as unknown as CsvRecord[];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `The file is not readable as CSV: ${message}`;
  }
}
