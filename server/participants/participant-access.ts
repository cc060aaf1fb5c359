/**
 * Whether a user may work with a participant: the participant's study and site must both be
 * named in the user's permissions.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { participants, sitePermissions, studyPermissions } from "../db/schema.ts";

export async function findAccessibleParticipant(db: Database, userId: number, participantId: number) {
  const [row] = await db
    .select({ id: participants.id, studyId: participants.studyId, siteId: participants.siteId })
    .from(participants)
    .innerJoin(
      studyPermissions,
      and(eq(studyPermissions.studyId, participants.studyId), eq(studyPermissions.userId, userId)),
    )
    .innerJoin(
      sitePermissions,
      and(eq(sitePermissions.siteId, participants.siteId), eq(sitePermissions.userId, userId)),
    )
    .where(eq(participants.id, participantId));
  return row;
}
