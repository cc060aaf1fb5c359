/**
 * The read calls that check their session beside their reads, or inside their own SQL
 * (server/auth/authenticate.ts: sessionHolds, alongsideSessionCheck): what they read must never
 * reach a token that no longer holds. A signed-out token hears 401 token_revoked, and before the
 * 403 of a participant, site or study it may not read; a token signed before a password change
 * hears 401 token_invalid.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import { consents, participants, users } from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

describeOnEachDatabase("read calls that check the session beside their reads", (api) => {
  let readable = 0;
  /** A participant of study 103, which staff1 has no role in. */
  let unreadable = 0;
  /** A consent of study 101 (asked for site 1011, staff1's, and 1031, of study 103). */
  let consentOf101 = 0;
  /** Each call for a participant, site or study of staff1's, and for one that is not theirs. */
  const calls = () => [
    [
      `/control/studies/101/sites/1011/participants/${readable}`,
      `/control/studies/103/sites/1031/participants/${unreadable}`,
    ],
    ["/control/studies/101/sites/1011/participants", "/control/studies/103/sites/1031/participants"],
    [
      `/control/participants/${readable}/instruments/instances?study_id=101`,
      `/control/participants/${unreadable}/instruments/instances?study_id=103`,
    ],
    [
      `/control/clinro/participants/${readable}/instruments?study_id=101`,
      `/control/clinro/participants/${unreadable}/instruments`,
    ],
    [
      `/control/participants/${readable}/instrument_history/clinro`,
      `/control/participants/${unreadable}/instrument_history/clinro`,
    ],
    [
      "/control/clinro/me/announcement_instruments?study_id=101",
      "/control/clinro/me/announcement_instruments?study_id=103",
    ],
    ["/control/participants/me/announcements", "/control/participants/me/announcements"],
    ["/control/pending_instruments?study_id=101", "/control/pending_instruments?study_id=103"],
    [
      "/control/v2/clinro/me/consents?study_id=101&site_id=1011",
      "/control/v2/clinro/me/consents?study_id=103",
    ],
    [
      `/control/v2/clinro/me/consents/${consentOf101}?site_id=1011`,
      `/control/v2/clinro/me/consents/${consentOf101}?site_id=1031`,
    ],
  ];

  beforeAll(async () => {
    const [mine] = await api.db
      .select({ id: participants.id })
      .from(participants)
      .where(and(eq(participants.studyId, 101), eq(participants.siteId, 1011)))
      .limit(1);
    const [theirs] = await api.db
      .select({ id: participants.id })
      .from(participants)
      .where(and(eq(participants.studyId, 103), eq(participants.siteId, 1031)))
      .limit(1);
    readable = mine!.id;
    unreadable = theirs!.id;
    const consentOf = async (studyId: number) =>
      (
        await api.db.select({ id: consents.id }).from(consents).where(eq(consents.studyId, studyId)).limit(1)
      )[0]!.id;
    consentOf101 = await consentOf(101);
  });

  it("answers them while the session holds: 200 for what the user may read, 403 for the rest", async () => {
    const token = await api.signIn("staff1@demo.test");
    for (const [mine, theirs] of calls()) {
      expect((await api.request("GET", mine!, { token })).statusCode, mine).toBe(200);
      if (theirs !== mine)
        expect((await api.request("GET", theirs!, { token })).statusCode, theirs).toBe(403);
    }
    // Rows that a lapsed session must not reach (the tests below): the pending list's read holds
    // the session check in its SQL, which only rows can prove.
    const pending = await api.request("GET", "/control/pending_instruments?study_id=101", { token });
    expect((pending.json() as { instruments: unknown[] }).instruments.length).toBeGreaterThan(0);
    // So does the consent participants' read of one site (beside the consent's own read).
    const offered = await api.request("GET", `/control/v2/clinro/me/consents/${consentOf101}?site_id=1011`, {
      token,
    });
    expect((offered.json() as { groups: unknown[] }).groups.length).toBeGreaterThan(0);
  });

  it("answers 401 token_revoked to a signed-out token, never the rows and never a 403 first", async () => {
    const token = await api.signIn("staff1@demo.test");
    expect((await api.request("POST", "/control/clinro/logout", { token })).statusCode).toBe(204);
    for (const path of calls().flat()) {
      const response = await api.request("GET", path, { token });
      expect(response.statusCode, path).toBe(401);
      expect(errorBody.parse(response.json()), path).toEqual({
        message: "Token has been signed out",
        code: "token_revoked",
      });
    }
  });

  it("answers 401 token_invalid to a token signed before the user's password changed", async () => {
    const token = await api.signIn("staff1@demo.test");
    const [user] = await api.db.select().from(users).where(eq(users.username, "staff1@demo.test"));
    await api.db
      .update(users)
      .set({ tokenVersion: user!.tokenVersion + 1 })
      .where(eq(users.id, user!.id));
    try {
      for (const path of calls().flat()) {
        const response = await api.request("GET", path, { token });
        expect(response.statusCode, path).toBe(401);
        expect(errorBody.parse(response.json()).code, path).toBe("token_invalid");
      }
    } finally {
      await api.db.update(users).set({ tokenVersion: user!.tokenVersion }).where(eq(users.id, user!.id));
    }
  });
});
