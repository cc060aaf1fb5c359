/**
 * ANNOUNCEMENT instruments as the inbox lists them. In the newer instrument
 * architecture a study's announcements are instruments delivered with the participants'
 * activities (spec 02 sections 3 and 7); a clinician reads each once, whatever the number of
 * participants it went to. So the inbox gets one entry per instrument:
 * - of the study, not retired, delivered (an instance started) to a participant at one of the
 *   user's sites; its sent time is the first such delivery;
 * - its text is the instrument's metadata.content, sanitised as a written announcement is;
 * - read once the user's read event naming the instrument and no participant has arrived
 *   (info.instrument_id, stored by the events call like every event).
 */
import { and, desc, eq, inArray, isNull, lte, min, sql } from "drizzle-orm";
import type { AnnouncementInstrument } from "../../core/contracts/announcements.ts";
import { INSTRUMENT_TYPE } from "../../core/contracts/instrument-lists.ts";
import type { Database, Transaction } from "../db/client.ts";
import {
  instrumentInstances,
  instruments,
  participantEvents,
  participants,
  sitePermissions,
  studies,
} from "../db/schema.ts";
import { sanitizeAnnouncementHtml } from "./sanitize-announcement.ts";
import { participantSitePermission } from "../participants/site-access.ts";

type Executor = Database | Transaction;

/** The instrument's text as its metadata holds it: content (HTML), or nothing. */
function contentOf(metadata: Record<string, unknown>) {
  const content = metadata.content;
  return typeof content === "string" && content.trim() !== "" ? sanitizeAnnouncementHtml(content) : "";
}

/** The study's ANNOUNCEMENT instruments delivered at the user's sites, newest first. */
export async function listAnnouncementInstrumentsFor(
  db: Executor,
  userId: number,
  studyId: number,
  now = new Date(),
): Promise<AnnouncementInstrument[]> {
  const firstDelivery = min(instrumentInstances.startDate);
  const rows = await db
    .select({
      id: instruments.id,
      title: instruments.displayName,
      metadata: instruments.metadata,
      studyId: instruments.studyId,
      studyName: studies.name,
      sent: firstDelivery,
    })
    .from(instruments)
    .innerJoin(studies, eq(studies.id, instruments.studyId))
    .innerJoin(instrumentInstances, eq(instrumentInstances.instrumentId, instruments.id))
    .innerJoin(
      participants,
      and(
        eq(participants.id, instrumentInstances.participantId),
        eq(participants.studyId, instruments.studyId),
      ),
    )
    .innerJoin(sitePermissions, participantSitePermission(userId))
    .where(
      and(
        eq(instruments.studyId, studyId),
        eq(instruments.instrumentType, INSTRUMENT_TYPE.announcement),
        isNull(instruments.retiredAt),
        lte(instrumentInstances.startDate, now),
      ),
    )
    .groupBy(instruments.id, studies.name)
    .orderBy(desc(firstDelivery), desc(instruments.id));
  if (rows.length === 0) return [];

  const ids = rows.map((row) => String(row.id));
  const instrumentIdOfEvent = sql<string>`${participantEvents.info} ->> 'instrument_id'`;
  const reads = await db
    .selectDistinct({ instrumentId: instrumentIdOfEvent })
    .from(participantEvents)
    .where(
      and(
        isNull(participantEvents.participantId),
        eq(participantEvents.type, "read"),
        eq(participantEvents.userId, userId),
        inArray(instrumentIdOfEvent, ids),
      ),
    );
  const read = new Set(reads.map((row) => row.instrumentId));

  return rows.map((row) => ({
    instrument_id: row.id,
    sent: (row.sent ?? now).toISOString(),
    read: read.has(String(row.id)),
    title: row.title,
    content: contentOf(row.metadata),
    study_id: row.studyId,
    study_name: row.studyName,
  }));
}
