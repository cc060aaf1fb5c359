/**
 * Whether a user may work with a participant: the participant's study and site must both be
 * named in the user's permissions. Asked by nearly every call about a participant (its lists,
 * a submission, its events): one prepared statement per database.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { preparedPerDatabase } from "../db/prepared-per-database.ts";
import { participants, sitePermissions, studyPermissions } from "../db/schema.ts";
import { participantSitePermission, participantStudyPermission } from "./site-access.ts";

const preparedAccess = preparedPerDatabase((db) => {
  const userId = sql.placeholder("userId");
  return db
    .select({ id: participants.id, studyId: participants.studyId, siteId: participants.siteId })
    .from(participants)
    .innerJoin(studyPermissions, participantStudyPermission(userId))
    .innerJoin(sitePermissions, participantSitePermission(userId))
    .where(eq(participants.id, sql.placeholder("participantId")))
    .prepare("participant_access");
});

export async function findAccessibleParticipant(db: Database, userId: number, participantId: number) {
  const [row] = await preparedAccess(db).execute({ userId, participantId });
  return row;
}
