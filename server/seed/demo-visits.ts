/**
 * The demo's virtual visits in SCZ-214 (the study with virtual visits), at its Remote Visits Hub
 * site, placed relative to the time the demo is seeded so that every section of the visits page
 * has something: one under way now, one later today, one later this week, one next month, one
 * recorded, one ad hoc and one without a video room (its row offers a mail instead).
 *
 * The seed mails nothing: `npm start` mails the participants their join links after seeding
 * (mailDemoVisitInvitations), so a demo visit can be joined from the .eml in DATA_DIR/mail.
 */
import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { participants, studies, visits } from "../db/schema.ts";
import { sendVisitInvitation } from "../visits/visit-invitations.ts";
import { renewJoinSecret, scheduleVisit, visitById } from "../visits/visit-records.ts";
import type { AccountMailDeps } from "../users/account-mail.ts";

export const DEMO_VISITS_STUDY_ID = 102;
export const DEMO_VISITS_SITE_ID = 1021;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

type DemoVisit = {
  label: string;
  /** From the seeding time. */
  startsInMs: number;
  minutes: number;
  recorded?: boolean;
  adhoc?: boolean;
  withoutRoom?: boolean;
};

export const DEMO_VISITS: DemoVisit[] = [
  { label: "now", startsInMs: -10 * MINUTE_MS, minutes: 60 },
  { label: "later today", startsInMs: 2 * HOUR_MS, minutes: 30 },
  { label: "later this week", startsInMs: 2 * DAY_MS, minutes: 45 },
  { label: "next month", startsInMs: 30 * DAY_MS, minutes: 60 },
  { label: "recorded", startsInMs: DAY_MS + 3 * HOUR_MS, minutes: 30, recorded: true },
  { label: "ad hoc", startsInMs: 0, minutes: 30, adhoc: true },
  { label: "without a video room", startsInMs: 3 * DAY_MS, minutes: 30, withoutRoom: true },
];

export async function seedDemoVisits(tx: Transaction, now: Date) {
  // Participants of the site who have an email address, so their join links can be mailed.
  const invitees = await tx
    .select({ id: participants.id })
    .from(participants)
    .where(
      and(
        eq(participants.studyId, DEMO_VISITS_STUDY_ID),
        eq(participants.siteId, DEMO_VISITS_SITE_ID),
        isNotNull(participants.email),
      ),
    )
    .orderBy(asc(participants.id))
    .limit(DEMO_VISITS.length);
  for (const [index, demo] of DEMO_VISITS.entries()) {
    const participant = invitees[index % invitees.length];
    if (!participant) return;
    await scheduleVisit(
      tx,
      {
        studyId: DEMO_VISITS_STUDY_ID,
        siteId: DEMO_VISITS_SITE_ID,
        participantId: participant.id,
        visitTime: new Date(now.getTime() + demo.startsInMs),
        visitDuration: demo.minutes,
        isRecorded: demo.recorded ?? false,
        isAdhoc: demo.adhoc ?? false,
        withRoom: !demo.withoutRoom,
      },
      now,
    );
  }
}

/** Gives every demo visit with a room a fresh join link and mails it to its participant. */
export async function mailDemoVisitInvitations(
  db: Database,
  mail: Pick<AccountMailDeps, "mailer" | "publicUrl">,
) {
  const rows = await db
    .select({ id: visits.id, fname: participants.fname, email: participants.email, studyName: studies.name })
    .from(visits)
    .innerJoin(participants, eq(participants.id, visits.participantId))
    .innerJoin(studies, eq(studies.id, visits.studyId))
    .where(and(eq(visits.studyId, DEMO_VISITS_STUDY_ID), isNotNull(visits.token)))
    .orderBy(asc(visits.visitTime));
  const links: string[] = [];
  for (const row of rows) {
    const secret = await renewJoinSecret(db, row.id);
    if (!secret) continue;
    const visit = await visitById(db, row.id);
    const link = await sendVisitInvitation(mail, visit, {
      to: row.email,
      fname: row.fname,
      studyName: row.studyName,
      secret,
    });
    if (link) links.push(link);
  }
  return links;
}
