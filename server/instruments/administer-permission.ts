/**
 * Who may administer an instrument (spec 02 section 6): the user's clinician role in the study
 * (study_permissions.role, the same role the me call reports and the participant home checks)
 * must be one of the instrument's permission codes. The rule itself is shared with the app
 * (isPermitted in core/contracts/instrument-permission.ts); this module reads the role and words
 * the refusal.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { studyPermissions } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

export async function studyRoleOf(
  db: Database,
  userId: number,
  studyId: number,
): Promise<string | undefined> {
  const [row] = await db
    .select({ role: studyPermissions.role })
    .from(studyPermissions)
    .where(and(eq(studyPermissions.userId, userId), eq(studyPermissions.studyId, studyId)));
  return row?.role;
}

/** The spec's access-denied text (spec 02 section 8). */
export function administerForbidden(displayName: string) {
  return new HttpError(
    403,
    `It looks like you don't have permission to administer ${displayName}`,
    "instrument_forbidden",
  );
}
