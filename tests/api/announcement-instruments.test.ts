/**
 * GET /control/clinro/me/announcement_instruments: a study's ANNOUNCEMENT
 * instruments, which the newer architecture delivers with the participants' activities, listed
 * once each for the inbox with the user's read state; the read event naming the instrument marks
 * it read. Any study's, not only the demo's.
 */
import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { announcementInstrumentsResponse } from "../../core/contracts/announcements.ts";
import { errorBody } from "../../core/contracts/errors.ts";
import { instrumentInstances, instruments, participants, sitePermissions } from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const url = (studyId: number | string) => `/control/clinro/me/announcement_instruments?study_id=${studyId}`;
const EVENTS = "/control/participants/me/events?platform=clinro";
const DAY_MS = 24 * 60 * 60 * 1000;

describeOnEachDatabase("announcement instruments in the inbox", (api) => {
  let counter = 0;
  const key = () => `announcement-instrument-${++counter}-${Date.now()}`;

  const list = async (token: string, studyId: number) => {
    const response = await api.request("GET", url(studyId), { token });
    expect(response.statusCode).toBe(200);
    return announcementInstrumentsResponse.parse(response.json()).announcements;
  };

  const readEvent = (instrumentId: number, studyId: number) => [
    {
      type: "read",
      timestamp: new Date().toISOString(),
      info: { instrument_id: instrumentId, study_id: studyId },
      study_id: studyId,
    },
  ];

  it("lists the demo study's announcement instrument once, with its sanitised text, unread", async () => {
    const user = await api.createUser({ studies: { 102: "11" } });
    const items = await list(await api.signIn(user.username), 102);
    expect(items).toHaveLength(1);
    const [item] = items;
    expect(item).toMatchObject({
      title: "Visit schedule update",
      read: false,
      study_id: 102,
      study_name: "SCZ-214 Negative Symptoms",
    });
    expect(item!.content).toContain("<strong>8:30</strong>");
    // Its first delivery, five days before the seed ran.
    const age = Date.now() - new Date(item!.sent).getTime();
    expect(age).toBeGreaterThan(4 * DAY_MS);
    expect(age).toBeLessThan(30 * DAY_MS);
  });

  it("marks it read by the user's read event naming the instrument, for that user only", async () => {
    const reader = await api.createUser({ studies: { 102: "12" } });
    const other = await api.createUser({ studies: { 102: "12" } });
    const token = await api.signIn(reader.username);
    const [item] = await list(token, 102);
    const sent = await api.request("POST", EVENTS, {
      token,
      body: readEvent(item!.instrument_id, 102),
      headers: { "idempotency-key": key() },
    });
    expect(sent.statusCode).toBe(200);
    expect((await list(token, 102))[0]?.read).toBe(true);
    expect((await list(await api.signIn(other.username), 102))[0]?.read).toBe(false);
  });

  it("a participant's instrument read event does not mark the announcement read", async () => {
    const user = await api.createUser({ studies: { 102: "11" } });
    const token = await api.signIn(user.username);
    const [item] = await list(token, 102);
    const [participant] = await api.db
      .select({ id: participants.id })
      .from(participants)
      .where(eq(participants.studyId, 102))
      .limit(1);
    const response = await api.request("POST", EVENTS, {
      token,
      body: [{ ...readEvent(item!.instrument_id, 102)[0], participant: participant!.id }],
      headers: { "idempotency-key": key() },
    });
    expect(response.statusCode).toBe(200);
    expect((await list(token, 102))[0]?.read).toBe(false);
  });

  it("lists any study's announcement instruments once delivered at the user's sites, newest first", async () => {
    const user = await api.createUser({ studies: { 101: "11" } });
    const token = await api.signIn(user.username);
    const before = await list(token, 101);
    const [instrument] = await api.db
      .insert(instruments)
      .values({
        studyId: 101,
        name: "Pharmacy hours",
        displayName: "Pharmacy hours",
        instrumentType: "ANNOUNCEMENT",
        slug: `pharmacy-hours-${Date.now()}`,
        metadata: {
          display_name: "Pharmacy hours",
          content: '<p>Open <em>until 18:00</em>.</p><script>alert("no")</script>',
        },
      })
      .returning({ id: instruments.id });
    const [participant] = await api.db
      .insert(participants)
      .values({ studyId: 101, siteId: 1012, fname: "Ana", lname: "Nuncio" })
      .returning({ id: participants.id });
    const [instance] = await api.db
      .insert(instrumentInstances)
      .values({
        instrumentId: instrument!.id,
        participantId: participant!.id,
        startDate: new Date(Date.now() + DAY_MS),
      })
      .returning({ id: instrumentInstances.id });
    // Not delivered yet: not listed.
    expect(await list(token, 101)).toEqual(before);

    await api.db
      .update(instrumentInstances)
      .set({ startDate: new Date(Date.now() - 60_000) })
      .where(eq(instrumentInstances.id, instance!.id));
    const listed = await list(token, 101);
    expect(listed[0]).toMatchObject({ instrument_id: instrument!.id, title: "Pharmacy hours", read: false });
    expect(listed[0]!.content).toBe("<p>Open <em>until 18:00</em>.</p>");

    // Delivered only at a site that is not the user's: not theirs to read.
    await api.db
      .delete(sitePermissions)
      .where(and(eq(sitePermissions.userId, user.id), eq(sitePermissions.siteId, 1012)));
    expect((await list(token, 101)).some((item) => item.instrument_id === instrument!.id)).toBe(false);

    // Retired: gone from the inbox.
    await api.db.insert(sitePermissions).values({ userId: user.id, siteId: 1012 }).onConflictDoNothing();
    await api.db.update(instruments).set({ retiredAt: new Date() }).where(eq(instruments.id, instrument!.id));
    expect((await list(token, 101)).some((item) => item.instrument_id === instrument!.id)).toBe(false);
  });

  it("refuses a study the user holds no permission in (403), a bad study id (400), no token (401)", async () => {
    const token = await api.signIn("staff3@demo.test"); // studies 101 and 103
    const refused = await api.request("GET", url(102), { token });
    expect(refused.statusCode).toBe(403);
    expect(errorBody.parse(refused.json()).code).toBe("study_forbidden");
    expect((await api.request("GET", url("x"), { token })).statusCode).toBe(400);
    expect(
      (await api.request("GET", "/control/clinro/me/announcement_instruments", { token })).statusCode,
    ).toBe(400);
    expect((await api.request("GET", url(102))).statusCode).toBe(401);
  });
});
