/**
 * The CSV import's answers as the page shows them: a preview (dry run), the import done, or a
 * refusal naming every bad row. Plain data in, plain data out.
 */
import type {
  ParticipantImportBadRow,
  ParticipantImportResponse,
} from "../../../core/contracts/enrolment.ts";

export type ImportOutcome =
  | { kind: "preview"; answer: ParticipantImportResponse }
  | { kind: "imported"; answer: ParticipantImportResponse }
  | { kind: "bad-rows"; message: string; rows: ParticipantImportBadRow[] }
  | { kind: "refused"; status: number; message: string };

/** What the page says after an answer (2xx) of the import call. */
export function outcomeOfAnswer(answer: ParticipantImportResponse): ImportOutcome {
  return answer.dry_run ? { kind: "preview", answer } : { kind: "imported", answer };
}

/** What the page says after a refusal: every bad row when the server named them. */
export function outcomeOfRefusal(status: number, body: unknown): ImportOutcome {
  const message =
    body !== null && typeof body === "object" && typeof (body as { message?: unknown }).message === "string"
      ? (body as { message: string }).message
      : "";
  const rows = (body as { bad_rows?: unknown } | null)?.bad_rows;
  if (status === 400 && Array.isArray(rows) && rows.length > 0) {
    return { kind: "bad-rows", message, rows: rows as ParticipantImportBadRow[] };
  }
  return { kind: "refused", status, message };
}
