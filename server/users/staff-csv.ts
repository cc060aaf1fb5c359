/**
 * A staff CSV (docs/staff-import.md): a header naming the columns email, name, study_id, role,
 * site_ids and, optionally, management_role and may_export, in any order; then one row per user and study (a
 * user in two studies has two rows with the same email). A byte-order mark and CRLF line ends
 * are accepted, blank lines skipped; read with csv-parse, so quoted fields work.
 *
 * Checked as a whole: a problem with the file itself (no header, a missing or unknown column, a
 * broken quote, no rows, too many) refuses it; otherwise every row is checked with the rules of
 * the invitation form, and a row is bad when its email already has an account, when the rows of
 * one email disagree on the name or management role, or name one study twice. The import invites
 * everyone or nobody.
 */
import { readCsvRecords } from "../csv/read-csv-records.ts";
import { safeParse } from "zod/v4/core";
import {
  DEFAULT_MANAGEMENT_ROLE,
  STAFF_CSV_COLUMNS,
  STAFF_CSV_REQUIRED_COLUMNS,
  STAFF_IMPORT_MAX_ROWS,
  STAFF_STUDY_ROLE_NAMES,
  STAFF_STUDY_ROLES,
  staffEmail,
  staffName,
  type StaffImportBadRow,
  type StaffStudyAccess,
  type StaffStudyRole,
} from "../../core/contracts/staff.ts";
import { assignableRole, type AssignableRole } from "../../core/contracts/user-edit.ts";
import { MAX_ID } from "../../core/contracts/input-bounds.ts";
import { emailInUseProblem, studyAccessIssues, type StudyCatalogue } from "./staff-records.ts";

export type CsvStaffUser = {
  lines: number[];
  email: string;
  name: string;
  managementRole: AssignableRole;
  studies: StaffStudyAccess[];
};

export type StaffCsv =
  /** The file cannot be read as a staff list: nothing about its rows is said. */
  | { ok: false; fileProblem: string }
  /** Every row read; `badRows` empty when everyone can be invited. */
  | { ok: true; users: CsvStaffUser[]; badRows: StaffImportBadRow[] };

/** A role as a cell writes it: a code (16), the witness, or a role name (Clinical Coordinator). */
export function parseStudyRole(text: string): StaffStudyRole | undefined {
  const wanted = text.trim().toLowerCase();
  return STAFF_STUDY_ROLES.find(
    (role) => role.toLowerCase() === wanted || STAFF_STUDY_ROLE_NAMES[role].toLowerCase() === wanted,
  );
}

/** Site ids separated by spaces, commas or semicolons; a message when one is not an id. */
export function parseSiteIds(text: string): number[] | string {
  const parts = text.split(/[\s,;]+/).filter((part) => part !== "");
  if (parts.length === 0) return "site_ids must name at least one site of the study";
  const ids: number[] = [];
  for (const part of parts) {
    const id = Number(part);
    if (!/^\d{1,10}$/.test(part) || id < 1 || id > MAX_ID) return `"${part}" is not a site id`;
    ids.push(id);
  }
  return ids;
}

/** The export right as a cell writes it: yes or no (true/false, 1/0; empty is no). */
export function parseMayExport(text: string): boolean | undefined {
  const wanted = text.trim().toLowerCase();
  if (["", "no", "false", "0"].includes(wanted)) return false;
  if (["yes", "true", "1"].includes(wanted)) return true;
  return undefined;
}

/** A study id as a cell writes it. */
function parseStudyId(text: string): number | undefined {
  const id = Number(text);
  return /^\d{1,10}$/.test(text) && id >= 1 && id <= MAX_ID ? id : undefined;
}

function headerProblem(columns: string[]): string | null {
  const unknown = columns.filter((name) => !(STAFF_CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    return `Unknown column${unknown.length > 1 ? "s" : ""} ${unknown.map((name) => `"${name}"`).join(", ")} in the header: the columns are ${STAFF_CSV_COLUMNS.join(", ")}.`;
  }
  const missing = STAFF_CSV_REQUIRED_COLUMNS.filter((name) => !columns.includes(name));
  if (missing.length > 0) return `The header has no column ${missing.join(", ")}.`;
  const repeated = columns.filter((name, index) => columns.indexOf(name) !== index);
  if (repeated.length > 0) return `The header names ${[...new Set(repeated)].join(", ")} more than once.`;
  return null;
}

type Row = {
  line: number;
  email: string;
  name: string;
  managementRole: AssignableRole;
  study: StaffStudyAccess;
};

/**
 * Reads and checks a staff CSV against the studies and sites in use (`catalogue`). `accounts`
 * answers which of the file's emails already have an account (asked once the rows are read).
 */
export async function readStaffCsv(
  text: string,
  catalogue: StudyCatalogue,
  accounts: (emails: string[]) => Promise<Map<string, { deactivated: boolean }>>,
): Promise<StaffCsv> {
  const records = readCsvRecords(text);
  if (typeof records === "string") return { ok: false, fileProblem: records };
  const [header, ...body] = records;
  if (!header)
    return {
      ok: false,
      fileProblem: "The file is empty: it needs a header row and a row per user and study.",
    };
  const columns = header.record.map((name) => name.trim().toLowerCase());
  const problem = headerProblem(columns);
  if (problem) return { ok: false, fileProblem: problem };
  if (body.length === 0) return { ok: false, fileProblem: "The file has no rows under its header." };
  if (body.length > STAFF_IMPORT_MAX_ROWS) {
    return {
      ok: false,
      fileProblem: `The file has ${body.length} rows: at most ${STAFF_IMPORT_MAX_ROWS} are imported at once; split it.`,
    };
  }

  const badRows = new Map<number, StaffImportBadRow>();
  const bad = (line: number, email: string, field: string, message: string) => {
    const row = badRows.get(line) ?? { line, email, issues: [] };
    row.issues.push({ field, message });
    badRows.set(line, row);
  };
  const rows: Row[] = [];
  for (const { record, info } of body) {
    const line = info.lines;
    const cell = (column: string) =>
      columns.includes(column) ? (record[columns.indexOf(column)] ?? "").trim() : "";
    const rawEmail = cell("email");
    const before = badRows.size;
    if (record.length > columns.length && record.slice(columns.length).some((extra) => extra.trim() !== "")) {
      bad(line, rawEmail, "row", `has ${record.length} fields; the header has ${columns.length}`);
    }
    const email = safeParse(staffEmail, rawEmail);
    if (!email.success) bad(line, rawEmail, "email", email.error.issues[0]?.message ?? "email is invalid");
    const name = safeParse(staffName, cell("name"));
    if (!name.success) bad(line, rawEmail, "name", name.error.issues[0]?.message ?? "name is invalid");
    const managementText = cell("management_role") || DEFAULT_MANAGEMENT_ROLE;
    const management = safeParse(assignableRole, managementText);
    if (!management.success) {
      bad(
        line,
        rawEmail,
        "management_role",
        `management_role must be one of ${assignableRole.options.join(", ")}`,
      );
    }
    const studyId = parseStudyId(cell("study_id"));
    if (studyId === undefined) bad(line, rawEmail, "study_id", `"${cell("study_id")}" is not a study id`);
    else if (!catalogue.has(studyId)) bad(line, rawEmail, "study_id", `there is no study ${studyId}`);
    const role = parseStudyRole(cell("role"));
    if (!role) {
      bad(
        line,
        rawEmail,
        "role",
        `role must be one of ${STAFF_STUDY_ROLES.map((code) => (code === STAFF_STUDY_ROLE_NAMES[code] ? code : `${code} (${STAFF_STUDY_ROLE_NAMES[code]})`)).join(", ")}`,
      );
    }
    const siteIds = parseSiteIds(cell("site_ids"));
    if (typeof siteIds === "string") bad(line, rawEmail, "site_ids", siteIds);
    const mayExport = parseMayExport(cell("may_export"));
    if (mayExport === undefined) bad(line, rawEmail, "may_export", "may_export must be yes or no");
    if (badRows.size > before || !email.success || !name.success || !management.success) continue;
    if (studyId === undefined || !role || typeof siteIds === "string" || mayExport === undefined) continue;
    const study = { study_id: studyId, role, site_ids: siteIds, may_export: mayExport };
    for (const issue of studyAccessIssues(catalogue, [study])) {
      bad(line, rawEmail, issue.path.includes("site_ids") ? "site_ids" : "study_id", issue.message);
    }
    if (!badRows.has(line)) {
      rows.push({ line, email: email.data, name: name.data, managementRole: management.data, study });
    }
  }

  // The rows of one email make one user: they agree on the name and role, and name each study once.
  const users = new Map<string, CsvStaffUser>();
  for (const row of rows) {
    const user = users.get(row.email);
    if (!user) {
      users.set(row.email, {
        lines: [row.line],
        email: row.email,
        name: row.name,
        managementRole: row.managementRole,
        studies: [row.study],
      });
      continue;
    }
    const first = user.lines[0];
    if (user.name !== row.name)
      bad(row.line, row.email, "name", `differs from line ${first}'s name for ${row.email}`);
    if (user.managementRole !== row.managementRole) {
      bad(
        row.line,
        row.email,
        "management_role",
        `differs from line ${first}'s management_role for ${row.email}`,
      );
    }
    if (user.studies.some((study) => study.study_id === row.study.study_id)) {
      bad(
        row.line,
        row.email,
        "study_id",
        `study ${row.study.study_id} is already given to ${row.email} on line ${first}`,
      );
    }
    if (!badRows.has(row.line)) {
      user.lines.push(row.line);
      user.studies.push(row.study);
    }
  }

  const existing = await accounts([...users.keys()]);
  for (const user of users.values()) {
    const inUse = emailInUseProblem(existing.get(user.email));
    if (inUse) for (const line of user.lines) bad(line, user.email, "email", `${user.email} ${inUse}`);
  }
  const good = [...users.values()].filter((user) => user.lines.every((line) => !badRows.has(line)));
  return { ok: true, users: good, badRows: [...badRows.values()].sort((a, b) => a.line - b.line) };
}
