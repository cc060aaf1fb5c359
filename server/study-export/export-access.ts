/**
 * Who may export a study, and which of its sites the export holds: exactly what the caller may
 * read, site by site, or a refusal.
 *
 * - An administrator (management role allowing "exports": core/contracts/management-roles.ts)
 *   manages every study of the portal: the whole study, every site of it (retired ones too),
 *   with or without a permission in it.
 * - Anyone else needs a permission in the study that holds the export right, given explicitly
 *   (core/contracts/study-rights.ts), and exports only the sites of the study they hold (the
 *   portal's rule, server/participants/site-access.ts): retired sites they hold stay exportable,
 *   as their data stays readable.
 *
 * Refusals: no permission in the study, or a study that does not exist, is study_forbidden (the
 * same either way); a permission without the export right is export_forbidden; a site filter
 * naming a site of the study the caller does not hold is site_forbidden.
 */
import { and, asc, eq } from "drizzle-orm";
import { managementRoleAllows } from "../../core/contracts/management-roles.ts";
import { scopeMayExport } from "../../core/contracts/study-rights.ts";
import type { Database } from "../db/client.ts";
import { sites, studies, studyPermissions } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";
import { readableSites, siteForbidden } from "../participants/site-access.ts";

/** The sites of the study a caller may export: every one, or those listed. */
export type ExportableSites = { every: true } | { every: false; siteIds: readonly number[] };

function studyForbidden() {
  return new HttpError(403, "You do not have access to this study.", "study_forbidden");
}

function exportForbidden() {
  return new HttpError(
    403,
    "You have not been given the right to export this study's data: an administrator gives it, study by study.",
    "export_forbidden",
  );
}

/** What the user may export of the study, or the refusal (an HttpError 403). */
export async function exportableSites(
  db: Database,
  user: { id: number; role: string },
  studyId: number,
): Promise<ExportableSites> {
  if (managementRoleAllows(user.role, "exports")) {
    const [study] = await db.select({ id: studies.id }).from(studies).where(eq(studies.id, studyId));
    if (!study) throw studyForbidden();
    return { every: true };
  }
  const [permission] = await db
    .select({ scope: studyPermissions.scope })
    .from(studyPermissions)
    .where(and(eq(studyPermissions.userId, user.id), eq(studyPermissions.studyId, studyId)));
  if (!permission) throw studyForbidden();
  if (!scopeMayExport(permission.scope)) throw exportForbidden();
  const held = await readableSites(db, user.id).where(eq(sites.studyId, studyId)).orderBy(asc(sites.id));
  if (held.length === 0) throw siteForbidden();
  return { every: false, siteIds: held.map((row) => row.siteId) };
}

/**
 * The sites the export holds: those asked for (each one the caller may export, else a 403), or
 * every site the caller may export. Every site of the study is listed by id for an
 * administrator who asks for none, so that the audit row names them.
 */
export async function sitesToExport(
  db: Database,
  studyId: number,
  allowed: ExportableSites,
  requested: readonly number[],
): Promise<number[]> {
  if (!allowed.every) {
    if (requested.some((siteId) => !allowed.siteIds.includes(siteId))) throw siteForbidden();
    return requested.length > 0 ? [...requested] : [...allowed.siteIds];
  }
  return requested.length > 0 ? [...requested] : studySiteIds(db, studyId);
}

/** Every site of the study, retired ones too, by id. */
export async function studySiteIds(db: Database, studyId: number): Promise<number[]> {
  const rows = await db
    .select({ id: sites.id })
    .from(sites)
    .where(eq(sites.studyId, studyId))
    .orderBy(asc(sites.id));
  return rows.map((row) => row.id);
}
