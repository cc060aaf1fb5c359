/**
 * Every study export is written to the audit trail: who asked (the user, or null for the command
 * line, as the other commands record themselves), what (the study, the format and its layout,
 * the sites it holds, by id, and the filters as asked) and when (the row's server UTC time),
 * before the first byte is sent.
 * An export that then fails half-way stays recorded as asked for: what left the server is at
 * most what the row says.
 */
import { recordAuditEvent } from "../audit/audit-trail.ts";
import type { Database } from "../db/client.ts";
import { studySiteIds } from "./export-access.ts";
import type { ExportScope } from "./export-source.ts";

export const STUDY_EXPORT_ACTION = "study_export";

export type ExportRequestRecord = {
  actorUserId: number | null;
  /** api (the call) or command (clinro export). */
  via: "api" | "command";
  format: string;
  layout?: string | undefined;
  /** What is exported: its siteIds the sites the export holds (none listed: every site of the study). */
  scope: ExportScope;
  /** The site filter as asked (none: no filter). */
  requestedSiteIds: readonly number[];
};

export async function recordStudyExport(db: Database, record: ExportRequestRecord) {
  const { scope } = record;
  const exported = scope.siteIds?.length ? [...scope.siteIds] : await studySiteIds(db, scope.studyId);
  return recordAuditEvent(db, {
    actorUserId: record.actorUserId,
    action: STUDY_EXPORT_ACTION,
    tableName: "studies",
    rowKey: { id: scope.studyId },
    details: {
      via: record.via,
      format: record.format,
      layout: record.layout ?? null,
      site_ids: exported.sort((a, b) => a - b),
      requested_site_ids: record.requestedSiteIds.length > 0 ? [...record.requestedSiteIds] : null,
      instrument_ids: scope.instrumentIds?.length ? [...scope.instrumentIds] : null,
      from: scope.from?.toISOString() ?? null,
      to: scope.to?.toISOString() ?? null,
    },
  });
}
