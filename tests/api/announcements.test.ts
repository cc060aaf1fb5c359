import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { announcement, announcementsResponse } from "../../core/contracts/announcements.ts";
import { onboardingResponse } from "../../core/contracts/onboarding.ts";
import { errorBody } from "../../core/contracts/errors.ts";
import { meResponse } from "../../core/contracts/user.ts";
import { announcementReads, announcements, auditLog, sitePermissions } from "../../server/db/schema.ts";
import { DEMO_ANNOUNCEMENTS } from "../../server/seed/demo-announcements.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const LIST = "/control/participants/me/announcements";
const POST = "/control/announcements";
const EVENTS = "/control/participants/me/events?platform=clinro";
const onboardingUrl = (kind: string) => `/control/clinro/users/me/onboarding/${kind}`;

describeOnEachDatabase("announcements: the inbox list, read state, authoring and onboarding", (api) => {
  let counter = 0;
  const key = (name: string) => `announce-${name}-${++counter}-${Date.now()}`;

  const list = async (token: string) => {
    const response = await api.request("GET", LIST, { token });
    expect(response.statusCode).toBe(200);
    return announcementsResponse.parse(response.json()).announcements;
  };

  const post = (token: string, body: unknown, idempotencyKey = key("post")) =>
    api.request("POST", POST, { token, body, headers: { "idempotency-key": idempotencyKey } });

  const count = async () => (await api.db.select({ id: announcements.id }).from(announcements)).length;

  it("lists the demo announcements of the user's studies only, newest id first, with spec fields", async () => {
    const staff3 = await list(await api.signIn("staff3@demo.test")); // studies 101 and 103
    const staff1 = await list(await api.signIn("staff1@demo.test")); // studies 101 and 102
    expect(staff3.map((item) => item.study_id).sort()).not.toContain(102);
    expect(new Set(staff3.map((item) => item.study_id))).toEqual(new Set([101, 103]));
    expect(new Set(staff1.map((item) => item.study_id))).toEqual(new Set([101, 102]));
    for (const items of [staff1, staff3]) {
      const ids = items.map((item) => item.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    }
    const expected = DEMO_ANNOUNCEMENTS.filter((demo) => demo.studyId !== 102).length;
    expect(staff3).toHaveLength(expected);
    const welcome = staff3.find((item) => item.title === "Welcome to MDD-301")!;
    expect(welcome).toMatchObject({
      read: true,
      sender: "Carmen Ortiz",
      study_name: "MDD-301 Depression Maintenance",
      site_id: null,
      site_label: null,
    });
    expect(new Date(welcome.sent).toISOString()).toBe(welcome.sent);
    expect(welcome.content).toContain('rel="noopener noreferrer"');
    // The newest demo announcements are unread; the older ones read.
    expect(staff3.find((item) => item.title === "Protocol amendment 3 is approved")?.read).toBe(false);
  });

  it("gives a site's announcement only to users with that site in their permissions", async () => {
    const user = await api.createUser({ studies: { 101: "11" } });
    const token = await api.signIn(user.username);
    expect((await list(token)).some((item) => item.site_id === 1011)).toBe(true);
    await api.db
      .delete(sitePermissions)
      .where(and(eq(sitePermissions.userId, user.id), eq(sitePermissions.siteId, 1011)));
    const after = await list(token);
    expect(after.some((item) => item.site_id === 1011)).toBe(false);
    expect(after.some((item) => item.study_id === 101 && item.site_id === null)).toBe(true);
  });

  it("answers 401 without a token", async () => {
    const response = await api.request("GET", LIST);
    expect(response.statusCode).toBe(401);
  });

  it("marks an announcement read by its read event, for that user only, once per key", async () => {
    const reader = await api.createUser({ studies: { 101: "12" } });
    const other = await api.createUser({ studies: { 101: "12" } });
    const token = await api.signIn(reader.username);
    const otherToken = await api.signIn(other.username);
    const unread = (await list(token)).find((item) => !item.read)!;
    expect(unread).toBeDefined();
    const events = [
      {
        type: "read",
        timestamp: new Date().toISOString(),
        info: { announcement_id: unread.id, study_id: unread.study_id },
        study_id: unread.study_id,
      },
    ];
    const eventKey = key("read");
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await api.request("POST", EVENTS, {
        token,
        body: events,
        headers: { "idempotency-key": eventKey },
      });
      expect(response.statusCode).toBe(200);
    }
    expect((await list(token)).find((item) => item.id === unread.id)?.read).toBe(true);
    expect((await list(otherToken)).find((item) => item.id === unread.id)?.read).toBe(false);
    const rows = await api.db
      .select()
      .from(announcementReads)
      .where(and(eq(announcementReads.announcementId, unread.id), eq(announcementReads.userId, reader.id)));
    expect(rows).toHaveLength(1);
    // An announcement id given as text is the same id.
    const asText = await api.request("POST", EVENTS, {
      token: otherToken,
      body: [{ ...events[0], info: { announcement_id: String(unread.id) } }],
      headers: { "idempotency-key": key("read-text") },
    });
    expect(asText.statusCode).toBe(200);
    expect((await list(otherToken)).find((item) => item.id === unread.id)?.read).toBe(true);
  });

  it("refuses (403) a read event for an announcement the user does not receive, and a malformed id (400)", async () => {
    const token = await api.signIn("staff3@demo.test"); // not in study 102
    const other = (await list(await api.signIn("staff1@demo.test"))).find((item) => item.study_id === 102)!;
    const event = (id: unknown) => [
      { type: "read", timestamp: new Date().toISOString(), info: { announcement_id: id } },
    ];
    const forbidden = await api.request("POST", EVENTS, {
      token,
      body: event(other.id),
      headers: { "idempotency-key": key("forbidden") },
    });
    expect(forbidden.statusCode).toBe(403);
    const missing = await api.request("POST", EVENTS, {
      token,
      body: event(2_000_000),
      headers: { "idempotency-key": key("missing") },
    });
    expect(missing.statusCode).toBe(403);
    const malformed = await api.request("POST", EVENTS, {
      token,
      body: event("12abc"),
      headers: { "idempotency-key": key("malformed") },
    });
    expect(malformed.statusCode).toBe(400);
    expect(errorBody.parse(malformed.json()).message).toMatch(/announcement_id/);
    const { id: staff3Id } = meResponse.parse(
      (await api.request("GET", "/control/clinro/users/me", { token })).json(),
    );
    const rows = await api.db
      .select()
      .from(announcementReads)
      .where(and(eq(announcementReads.announcementId, other.id), eq(announcementReads.userId, staff3Id)));
    expect(rows).toEqual([]);
  });

  it("lets a coordinator send to a study and to one site; staff of the study receive it unread", async () => {
    const coordinator = await api.signIn("coordinator@demo.test");
    const response = await post(coordinator, {
      study_id: 101,
      title: "  Fire drill at noon  ",
      content: "<p>Please <strong>leave</strong> by the east stairs.</p>",
    });
    expect(response.statusCode).toBe(201);
    const created = announcement.parse(response.json());
    expect(created).toMatchObject({
      title: "Fire drill at noon",
      content: "<p>Please <strong>leave</strong> by the east stairs.</p>",
      sender: "Carmen Ortiz",
      study_id: 101,
      site_id: null,
      read: true,
    });
    const staff = await list(await api.signIn("staff2@demo.test"));
    expect(staff[0]).toMatchObject({ id: created.id, read: false, title: "Fire drill at noon" });
    expect(staff.filter((item) => item.id === created.id)).toHaveLength(1);

    const toSite = await post(coordinator, {
      study_id: 102,
      site_id: 1021,
      title: "Hub only",
      content: "<p>x</p>",
    });
    expect(toSite.statusCode).toBe(201);
    expect(announcement.parse(toSite.json())).toMatchObject({
      site_id: 1021,
      site_label: "Remote Visits Hub",
    });
  });

  it("lets an administrator send, and refuses staff, witnesses and studies or sites outside the author's permissions (403), storing nothing", async () => {
    const admin = await api.signIn("admin@demo.test");
    expect(
      (await post(admin, { study_id: 103, title: "From the admin", content: "<p>Hello</p>" })).statusCode,
    ).toBe(201);
    const before = await count();
    const refusals: [string, unknown][] = [
      ["staff1@demo.test", { study_id: 101, title: "t", content: "<p>x</p>" }],
      ["witness@demo.test", { study_id: 101, title: "t", content: "<p>x</p>" }],
      // staff3 holds no permission in 102; the coordinator's site 1021 belongs to 102, not 101.
      ["coordinator@demo.test", { study_id: 101, site_id: 1021, title: "t", content: "<p>x</p>" }],
      ["coordinator@demo.test", { study_id: 999, title: "t", content: "<p>x</p>" }],
      ["coordinator@demo.test", { study_id: 101, site_id: 99999, title: "t", content: "<p>x</p>" }],
    ];
    for (const [username, body] of refusals) {
      const response = await post(await api.signIn(username), body);
      expect(response.statusCode, `${username} ${JSON.stringify(body)}`).toBe(403);
      expect(errorBody.parse(response.json()).code).toBe("announcement_forbidden");
    }
    // A coordinator whose site permission is gone cannot send to that site.
    const user = await api.createUser({ studies: { 101: "16" } });
    await api.db
      .delete(sitePermissions)
      .where(and(eq(sitePermissions.userId, user.id), eq(sitePermissions.siteId, 1012)));
    const userToken = await api.signIn(user.username);
    expect(
      (await post(userToken, { study_id: 101, site_id: 1012, title: "t", content: "<p>x</p>" })).statusCode,
    ).toBe(403);
    expect(await count()).toBe(before);
    // Every refusal is in the audit trail.
    const refused = await api.db.select().from(auditLog).where(eq(auditLog.action, "forbidden"));
    expect(refused.some((row) => JSON.stringify(row.details).includes("/control/announcements"))).toBe(true);
  });

  it("answers 400 naming the field for bad input, storing nothing", async () => {
    const coordinator = await api.signIn("coordinator@demo.test");
    const before = await count();
    const cases: [unknown, RegExp][] = [
      [{ study_id: 101, title: "   ", content: "<p>x</p>" }, /title/],
      [{ study_id: 101, title: "x".repeat(201), content: "<p>x</p>" }, /title/],
      [{ study_id: 101, title: "t", content: "" }, /content/],
      [{ study_id: 101, title: "t", content: "x".repeat(50_001) }, /content/],
      [{ study_id: "101", title: "t", content: "<p>x</p>" }, /study_id/],
      [{ study_id: 101, site_id: 0, title: "t", content: "<p>x</p>" }, /site_id/],
      [{ title: "t", content: "<p>x</p>" }, /study_id/],
      // Nothing readable is left once the script is removed.
      [
        { study_id: 101, title: "t", content: "<script>alert(1)</script><img src=x onerror=alert(1)>" },
        /content/,
      ],
    ];
    for (const [body, field] of cases) {
      const response = await post(coordinator, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(errorBody.parse(response.json()).message).toMatch(field);
    }
    expect(await count()).toBe(before);
  });

  it("stores one announcement per Idempotency-Key; the same key with another body is a 422", async () => {
    const coordinator = await api.signIn("coordinator@demo.test");
    const body = { study_id: 101, title: "Sent twice", content: "<p>Only once, please.</p>" };
    const sameKey = key("same");
    const first = await post(coordinator, body, sameKey);
    const second = await post(coordinator, body, sameKey);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.json()).toEqual(first.json());
    const stored = await api.db.select().from(announcements).where(eq(announcements.title, "Sent twice"));
    expect(stored).toHaveLength(1);
    const reused = await post(coordinator, { ...body, title: "Another" }, sameKey);
    expect(reused.statusCode).toBe(422);
  });

  it("sanitises the HTML before storing it: no script, handler or unsafe link survives; links open safely", async () => {
    const coordinator = await api.signIn("coordinator@demo.test");
    const response = await post(coordinator, {
      study_id: 101,
      title: "Sanitised",
      content:
        '<h1 onclick="x()">Head</h1><p style="color:red">Text<script>alert(1)</script> <a href="javascript:alert(1)">bad</a> ' +
        '<a href="https://example.org/a" target="_self" onmouseover="x()">good</a></p><iframe src="https://evil.test"></iframe>' +
        '<img src=x onerror="alert(1)"><svg onload="alert(1)"><circle /></svg><form action="https://evil.test"><input name="p"></form>',
    });
    expect(response.statusCode).toBe(201);
    const { id } = announcement.parse(response.json());
    const [stored] = await api.db.select().from(announcements).where(eq(announcements.id, id));
    expect(stored!.content).toBe(
      '<h2>Head</h2><p>Text <a>bad</a> <a href="https://example.org/a" target="_blank" rel="noopener noreferrer">good</a></p>',
    );
    expect(stored!.content).not.toMatch(
      /script|onerror|onclick|onmouseover|javascript|iframe|svg|style|form|input/i,
    );
  });

  it("keeps the onboarding cards dismissed with the user: the me call says so, and a second dismissal changes nothing", async () => {
    const user = await api.createUser({ studies: { 101: "11" } });
    const token = await api.signIn(user.username);
    const me = async () =>
      meResponse.parse((await api.request("GET", "/control/clinro/users/me", { token })).json());
    expect((await me()).onboarding).toEqual({ announcements: false, activities: false });

    const dismissed = await api.request("PUT", onboardingUrl("announcements"), { token });
    expect(dismissed.statusCode).toBe(200);
    expect(onboardingResponse.parse(dismissed.json()).onboarding).toEqual({
      announcements: true,
      activities: false,
    });
    expect((await me()).onboarding).toEqual({ announcements: true, activities: false });

    const again = await api.request("PUT", onboardingUrl("announcements"), { token });
    expect(again.statusCode).toBe(200);
    expect((await api.request("PUT", onboardingUrl("activities"), { token })).statusCode).toBe(200);
    expect((await me()).onboarding).toEqual({ announcements: true, activities: true });

    const unknown = await api.request("PUT", onboardingUrl("surveys"), { token });
    expect(unknown.statusCode).toBe(400);
    expect(errorBody.parse(unknown.json()).message).toMatch(/kind/);
    // Another user's cards are untouched.
    const other = meResponse.parse(
      (
        await api.request("GET", "/control/clinro/users/me", { token: await api.signIn("staff2@demo.test") })
      ).json(),
    );
    expect(other.onboarding).toEqual({ announcements: false, activities: false });
    expect((await api.request("PUT", onboardingUrl("activities"))).statusCode).toBe(401);
  });
});
