/**
 * A site's participant CSV imported (the API call and `clinro participant import`): read and
 * checked (participant-csv.ts); a dry run answers what would be created; otherwise every row is
 * created in one audited transaction with what the study gives a new participant, or, when any
 * row is bad, none, with every bad row named. The caller has checked who may import at the site.
 */
import type { ParticipantImportRefusal, ParticipantImportResponse } from "../../core/contracts/enrolment.ts";
import { withAuditActor } from "../audit/audit-trail.ts";
import type { Database } from "../db/client.ts";
import { insertParticipants, isSubjectIdViolation, takenSubjectIds } from "./enrol-participant.ts";
import { readParticipantCsv } from "./participant-csv.ts";

export type ImportOutcome =
  { ok: true; response: ParticipantImportResponse } | { ok: false; refusal: ParticipantImportRefusal };

export async function importParticipantCsv(
  db: Database,
  options: {
    /** Who imports (audited); null for the command line (the system). */
    actorUserId: number | null;
    studyId: number;
    siteId: number;
    csv: string;
    dryRun: boolean;
    now: Date;
  },
  attempt = 1,
): Promise<ImportOutcome> {
  const { studyId, siteId, now } = options;
  const read = await readParticipantCsv(options.csv, now, (subjectIds) =>
    takenSubjectIds(db, studyId, subjectIds),
  );
  if (!read.ok) {
    return {
      ok: false,
      refusal: {
        message: `Nothing was imported. ${read.fileProblem}`,
        code: "invalid_csv",
        issues: [{ path: "csv", message: read.fileProblem }],
      },
    };
  }
  if (read.badRows.length > 0) {
    const count = read.badRows.length;
    return {
      ok: false,
      refusal: {
        message: `Nothing was imported: ${count} row${count > 1 ? "s are" : " is"} not right (line${count > 1 ? "s" : ""} ${read.badRows.map((row) => row.line).join(", ")}).`,
        code: "invalid_rows",
        issues: read.badRows.flatMap((row) =>
          row.issues.map((issue) => ({ path: `csv[${row.line}].${issue.field}`, message: issue.message })),
        ),
        bad_rows: read.badRows,
      },
    };
  }
  const rowsOf = (ids: (number | null)[]) =>
    read.rows.map((row, index) => ({
      line: row.line,
      subject_id: row.fields.subject_id,
      fname: row.fields.fname,
      lname: row.fields.lname,
      id: ids[index] ?? null,
    }));
  if (options.dryRun) {
    return {
      ok: true,
      response: { dry_run: true, created: read.rows.length, participants: rowsOf([]) },
    };
  }
  try {
    const ids = await withAuditActor(db, options.actorUserId, (tx) =>
      insertParticipants(
        tx,
        studyId,
        siteId,
        read.rows.map((row) => ({ fields: row.fields, clientId: null })),
        now,
      ),
    );
    return { ok: true, response: { dry_run: false, created: ids.length, participants: rowsOf(ids) } };
  } catch (error) {
    if (!isSubjectIdViolation(error) || attempt > 1) throw error;
    // Another enrolment took one of the file's subject ids meanwhile: read again to name it.
    return importParticipantCsv(db, options, attempt + 1);
  }
}
