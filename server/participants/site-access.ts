/**
 * Access to a study and site of a URL: the user's permissions must name the study
 * (study_permissions) and the site (site_permissions), and the site must belong to the study.
 * Every refusal has the same answer, whether the study, site or participant exists or not.
 */
import { and, eq, type AnyColumn, type Placeholder } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { participants, sitePermissions, sites, studyPermissions } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

export function siteForbidden() {
  return new HttpError(403, "You do not have access to this study and site.", "site_forbidden");
}

export function participantForbidden() {
  return new HttpError(403, "You do not have access to this participant.", "participant_forbidden");
}

/**
 * The rule's joins for a participant's row, both needed: the user's permission in the
 * participant's study (join study_permissions on this) and in their site (below).
 */
export function participantStudyPermission(userId: number | Placeholder) {
  return and(eq(studyPermissions.studyId, participants.studyId), eq(studyPermissions.userId, userId));
}

/** The user's permission in the participant's site (join site_permissions on this). */
export function participantSitePermission(userId: number | Placeholder) {
  return and(eq(sitePermissions.siteId, participants.siteId), eq(sitePermissions.userId, userId));
}

export async function canReadSite(db: Database, userId: number, studyId: number, siteId: number) {
  const [row] = await siteAccess(db, userId, studyId, siteId);
  return row !== undefined;
}

/**
 * The sites the user may read, with their study: the rule's joins. A caller narrows them with
 * its own where (one site, one study's sites).
 */
export function readableSites(db: Database, userId: number | Placeholder) {
  return db
    .select({ siteId: sites.id, studyId: sites.studyId })
    .from(sites)
    .innerJoin(
      studyPermissions,
      and(eq(studyPermissions.studyId, sites.studyId), eq(studyPermissions.userId, userId)),
    )
    .innerJoin(
      sitePermissions,
      and(eq(sitePermissions.siteId, sites.id), eq(sitePermissions.userId, userId)),
    );
}

/**
 * The rule as a query: one row when the user may read the site. A query that answers only what
 * the user may read can hold it as `exists(siteAccess(...))` and save a round trip; the study may
 * then be a column of that query (a consent's study).
 */
export function siteAccess(
  db: Database,
  userId: number | Placeholder,
  studyId: number | Placeholder | AnyColumn,
  siteId: number | Placeholder,
) {
  return readableSites(db, userId).where(and(eq(sites.id, siteId), eq(sites.studyId, studyId)));
}

/**
 * The study of a site the user may read, or undefined: the rule for a site whose study the call
 * learns at the same time (a consent's), compared once both are read.
 */
export async function readableSiteStudy(db: Database, userId: number, siteId: number) {
  const [row] = await readableSites(db, userId).where(eq(sites.id, siteId));
  return row?.studyId;
}
