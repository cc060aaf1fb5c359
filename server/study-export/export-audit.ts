/**
 * Every study export is written to the audit trail (issue 25): who asked (the user, or null for
 * the command line, as the other commands record themselves), what (the study, the format and
 * its layout, the filters) and when (the row's server UTC time), before the first byte is sent.
 * An export that then fails half-way stays recorded as asked for: what left the server is at
 * most what the row says.
 */
import { recordAuditEvent } from "../audit/audit-trail.ts";
import type { Database } from "../db/client.ts";
import type { ExportScope } from "./export-source.ts";

export const STUDY_EXPORT_ACTION = "study_export";

export type ExportRequestRecord = {
  actorUserId: number | null;
  /** api (the call) or command (clinro export). */
  via: "api" | "command";
  format: string;
  layout?: string | undefined;
  scope: ExportScope;
};

export function recordStudyExport(db: Database, record: ExportRequestRecord) {
  const { scope } = record;
  return recordAuditEvent(db, {
    actorUserId: record.actorUserId,
    action: STUDY_EXPORT_ACTION,
    tableName: "studies",
    rowKey: { id: scope.studyId },
    details: {
      via: record.via,
      format: record.format,
      layout: record.layout ?? null,
      site_ids: scope.siteIds?.length ? [...scope.siteIds] : null,
      instrument_ids: scope.instrumentIds?.length ? [...scope.instrumentIds] : null,
      from: scope.from?.toISOString() ?? null,
      to: scope.to?.toISOString() ?? null,
    },
  });
}
