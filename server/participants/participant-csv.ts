/**
 * A site's participant CSV (docs/participant-import.md): a header naming the columns
 * subject_id, first_name, last_name, date_of_birth, gender and, optionally, email, in any order;
 * then one participant a row. A byte-order mark and CRLF line ends are accepted, blank lines
 * skipped. Read with csv-parse, so quoted fields (commas, quotes, line breaks inside) work.
 *
 * Checked as a whole: a problem with the file itself (no header, a missing or unknown column, a
 * broken quote, no rows, too many) refuses it; otherwise every row is checked against the same
 * rules as the enrolment form, and a subject id used twice in the file or already in the study
 * makes a bad row. The import creates all rows or none.
 */
import { readCsvRecords } from "../csv/read-csv-records.ts";
import { safeParse } from "zod/v4/core";
import {
  PARTICIPANT_CSV_COLUMNS,
  PARTICIPANT_IMPORT_MAX_ROWS,
  participantFields,
  type ParticipantFields,
  type ParticipantImportBadRow,
} from "../../core/contracts/enrolment.ts";
import { dateOfBirthProblem } from "./enrol-participant.ts";

const REQUIRED_COLUMNS = PARTICIPANT_CSV_COLUMNS.filter((column) => column !== "email");

/** The form's field name → the CSV's column name, for naming problems as the file names them. */
const COLUMN_OF: Record<string, string> = {
  subject_id: "subject_id",
  fname: "first_name",
  lname: "last_name",
  date_of_birth: "date_of_birth",
  gender: "gender",
  email: "email",
};

export type CsvParticipant = { line: number; fields: ParticipantFields };

export type ParticipantCsv =
  /** The file cannot be read as a participant list: nothing about its rows is said. */
  | { ok: false; fileProblem: string }
  /** Every row read; `badRows` empty when all of them can be created. */
  | { ok: true; rows: CsvParticipant[]; badRows: ParticipantImportBadRow[] };

/**
 * Reads and checks a participant CSV. `existingSubjectIds` answers which of the file's subject
 * ids the study already has (checked once the rows are read).
 */
export async function readParticipantCsv(
  text: string,
  now: Date,
  existingSubjectIds: (subjectIds: string[]) => Promise<Set<string>>,
): Promise<ParticipantCsv> {
  const records = readCsvRecords(text);
  if (typeof records === "string") return { ok: false, fileProblem: records };
  const [header, ...body] = records;
  if (!header)
    return { ok: false, fileProblem: "The file is empty: it needs a header row and a row per participant." };
  const columns = header.record.map((name) => name.trim().toLowerCase());
  const unknown = columns.filter((name) => !(PARTICIPANT_CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    return {
      ok: false,
      fileProblem: `Unknown column${unknown.length > 1 ? "s" : ""} ${unknown.map((name) => `"${name}"`).join(", ")} in the header: the columns are ${PARTICIPANT_CSV_COLUMNS.join(", ")}.`,
    };
  }
  const missing = REQUIRED_COLUMNS.filter((name) => !columns.includes(name));
  if (missing.length > 0) {
    return { ok: false, fileProblem: `The header has no column ${missing.join(", ")}.` };
  }
  const repeated = columns.filter((name, index) => columns.indexOf(name) !== index);
  if (repeated.length > 0) {
    return {
      ok: false,
      fileProblem: `The header names ${[...new Set(repeated)].join(", ")} more than once.`,
    };
  }
  if (body.length === 0)
    return { ok: false, fileProblem: "The file has no participant rows under its header." };
  if (body.length > PARTICIPANT_IMPORT_MAX_ROWS) {
    return {
      ok: false,
      fileProblem: `The file has ${body.length} rows: at most ${PARTICIPANT_IMPORT_MAX_ROWS} are imported at once; split it.`,
    };
  }

  const read: {
    line: number;
    subjectId: string;
    fields?: ParticipantFields;
    issues: ParticipantImportBadRow["issues"];
  }[] = [];
  const firstLineOf = new Map<string, number>();
  for (const { record, info } of body) {
    const line = info.lines;
    const cell = (column: string) => (record[columns.indexOf(column)] ?? "").trim();
    const subjectId = cell("subject_id");
    const issues: ParticipantImportBadRow["issues"] = [];
    if (record.length > columns.length && record.slice(columns.length).some((extra) => extra.trim() !== "")) {
      issues.push({ field: "row", message: `has ${record.length} fields; the header has ${columns.length}` });
    }
    const gender = cell("gender").toLowerCase();
    const email = columns.includes("email") ? cell("email") : "";
    const parsed = safeParse(participantFields, {
      subject_id: subjectId,
      fname: cell("first_name"),
      lname: cell("last_name"),
      date_of_birth: cell("date_of_birth"),
      gender: gender === "" ? null : gender,
      email: email === "" ? null : email,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = COLUMN_OF[String(issue.path[0])] ?? String(issue.path[0]);
        const message =
          field === "gender"
            ? "gender must be m, f, o or left empty"
            : issue.message.replace(/^fname|^lname/, field);
        issues.push({ field, message });
      }
    }
    // The date's own checks, whenever it is written as a date (a row is named with all its problems).
    if (!issues.some((issue) => issue.field === "date_of_birth")) {
      const dateProblem = dateOfBirthProblem(cell("date_of_birth"), now);
      if (dateProblem) issues.push({ field: "date_of_birth", message: dateProblem });
    }
    if (subjectId !== "") {
      const first = firstLineOf.get(subjectId);
      if (first === undefined) firstLineOf.set(subjectId, line);
      else issues.push({ field: "subject_id", message: `${subjectId} is also on line ${first} of the file` });
    }
    read.push({ line, subjectId, fields: parsed.success ? parsed.data : undefined, issues });
  }

  const taken = await existingSubjectIds([...firstLineOf.keys()]);
  const rows: CsvParticipant[] = [];
  const badRows: ParticipantImportBadRow[] = [];
  for (const row of read) {
    if (taken.has(row.subjectId)) {
      row.issues.push({
        field: "subject_id",
        message: `${row.subjectId} is already a participant of this study`,
      });
    }
    if (row.fields && row.issues.length === 0) rows.push({ line: row.line, fields: row.fields });
    else badRows.push({ line: row.line, subject_id: row.subjectId, issues: row.issues });
  }
  return { ok: true, rows, badRows };
}
