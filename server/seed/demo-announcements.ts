/**
 * The demo inbox: announcements from the demo coordinator and administrator to the demo studies
 * (some to a whole study, some to one site), placed relative to the seeding time so that every
 * date style of the inbox shows (today, yesterday, this week, this year, older). Those sent five
 * days ago or earlier are read by everyone they reach; the newer ones are unread, except by their
 * author.
 */
import { and, eq, inArray } from "drizzle-orm";
import { sanitizeAnnouncementHtml } from "../announcements/sanitize-announcement.ts";
import type { Transaction } from "../db/client.ts";
import { announcementReads, announcements, sitePermissions, studyPermissions, users } from "../db/schema.ts";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Sent this long ago or more: read by everyone it reaches. */
const READ_AFTER_MS = 5 * DAY_MS;

type DemoAnnouncement = {
  studyId: number;
  siteId?: number;
  author: "coordinator@demo.test" | "admin@demo.test";
  sentAgoMs: number;
  title: string;
  content: string;
};

export const DEMO_ANNOUNCEMENTS: DemoAnnouncement[] = [
  {
    studyId: 103,
    author: "admin@demo.test",
    sentAgoMs: 400 * DAY_MS,
    title: "GAD-118 start-up meeting notes",
    content:
      "<p>Thank you all for joining the start-up meeting. The slides and the minutes are on the study portal.</p><ul><li>Enrolment target: 120 participants</li><li>Rater training due before the first visit</li></ul>",
  },
  {
    studyId: 101,
    author: "coordinator@demo.test",
    sentAgoMs: 40 * DAY_MS,
    title: "Welcome to MDD-301",
    content:
      '<h2>Welcome aboard</h2><p>This inbox carries news from the study team. The protocol and the rater manual are on the <a href="https://example.org/mdd-301">study site</a>.</p>',
  },
  {
    studyId: 101,
    siteId: 1011,
    author: "coordinator@demo.test",
    sentAgoMs: 6 * DAY_MS,
    title: "Boston: the consultation room has moved",
    content:
      "<p>From Monday, visits at the Boston site take place in <strong>room 4B</strong> on the fourth floor.</p>",
  },
  {
    studyId: 102,
    siteId: 1021,
    author: "admin@demo.test",
    sentAgoMs: 3 * DAY_MS,
    title: "Remote visits: check your camera before each visit",
    content:
      "<p>Please open the visit room a few minutes early and check that the participant can see and hear you.</p><ol><li>Close other video applications</li><li>Use headphones where you can</li></ol>",
  },
  {
    studyId: 101,
    author: "admin@demo.test",
    sentAgoMs: DAY_MS + 2 * HOUR_MS,
    title: "HAM-D 17 rater refresher on Thursday",
    content:
      '<p>A 30-minute refresher on the <em>HAM-D 17</em> interview guide, Thursday at 16:00. Questions beforehand to <a href="mailto:study-team@example.org">study-team@example.org</a>.</p>',
  },
  {
    studyId: 101,
    author: "coordinator@demo.test",
    sentAgoMs: 20 * 60 * 1000,
    title: "Protocol amendment 3 is approved",
    content:
      "<p>Amendment 3 is approved by the ethics committee. What changes for raters:</p><blockquote>The CGI-S is now completed at every visit, not only at baseline.</blockquote><p>The updated consent follows next week.</p>",
  },
];

export async function seedDemoAnnouncements(tx: Transaction, now: Date) {
  const authors = await tx
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.username, [...new Set(DEMO_ANNOUNCEMENTS.map((demo) => demo.author))]));
  const authorId = (username: string) => authors.find((author) => author.username === username)?.id ?? null;
  for (const demo of DEMO_ANNOUNCEMENTS) {
    const sentAt = new Date(now.getTime() - demo.sentAgoMs);
    const author = authorId(demo.author);
    const [created] = await tx
      .insert(announcements)
      .values({
        studyId: demo.studyId,
        siteId: demo.siteId ?? null,
        title: demo.title,
        content: sanitizeAnnouncementHtml(demo.content),
        authorUserId: author,
        sentAt,
      })
      .returning({ id: announcements.id });
    const announcementId = created!.id;
    const readers =
      demo.sentAgoMs >= READ_AFTER_MS
        ? await tx
            .select({ id: studyPermissions.userId })
            .from(studyPermissions)
            .where(
              and(
                eq(studyPermissions.studyId, demo.studyId),
                demo.siteId === undefined
                  ? undefined
                  : inArray(
                      studyPermissions.userId,
                      tx
                        .select({ id: sitePermissions.userId })
                        .from(sitePermissions)
                        .where(eq(sitePermissions.siteId, demo.siteId)),
                    ),
              ),
            )
        : author === null
          ? []
          : [{ id: author }];
    if (readers.length > 0) {
      await tx
        .insert(announcementReads)
        .values(readers.map((reader) => ({ announcementId, userId: reader.id, readAt: sentAt })))
        .onConflictDoNothing();
    }
  }
}
