import { createRequire } from "node:module";
import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import {
  joinResponse,
  ROOM_TOKEN_TTL_S,
  validateRoomResponse,
  visit as visitSchema,
  visitsResponse,
  type Visit,
} from "../../core/contracts/visits.ts";
import { participants, sitePermissions, visits } from "../../server/db/schema.ts";
import { DEMO_VISITS } from "../../server/seed/demo-visits.ts";
import { hashJoinSecret, newJoinSecret } from "../../server/visits/join-links.ts";
import { newRoomName } from "../../server/visits/visit-records.ts";
import { decodeTokenPayload, describeOnEachDatabase, type ApiHarness } from "../support/api-harness.ts";
import { mailsTo, readMailDrop } from "../support/mail-drop.ts";

const STUDY = 102;
const SITE = 1021;
const OTHER_SITE = 1022;
const MINUTE = 60_000;
const listUrl = (studyId: number | string = STUDY, siteId: number | string = SITE) =>
  `/control/studies/${studyId}/sites/${siteId}/clinro_visits`;
const roomUrl = (
  roomName: string,
  call: "validate_room" | "renew_token" = "validate_room",
  studyId = STUDY,
) => `/control/studies/${studyId}/room_name/${roomName}/${call}`;
const joinUrl = (secret: string) => `/control/visits/join/${secret}`;

/** A visit stored directly, with a join secret the test knows. */
async function insertVisit(
  api: ApiHarness,
  values: {
    participantId: number;
    siteId?: number;
    startsInMin: number;
    minutes?: number;
    adhoc?: boolean;
    createdMinAgo?: number;
    recorded?: boolean;
    withoutRoom?: boolean;
  },
) {
  const secret = newJoinSecret();
  const now = Date.now();
  const [row] = await api.db
    .insert(visits)
    .values({
      studyId: STUDY,
      siteId: values.siteId ?? SITE,
      participantId: values.participantId,
      roomName: newRoomName(),
      visitTime: new Date(now + values.startsInMin * MINUTE),
      visitDuration: values.minutes ?? 30,
      isAdhoc: values.adhoc ?? false,
      isRecorded: values.recorded ?? false,
      token: values.withoutRoom ? null : "test-visit-token",
      joinSecretHash: values.withoutRoom ? null : hashJoinSecret(secret),
      createdAt: new Date(now - (values.createdMinAgo ?? 0) * MINUTE),
    })
    .returning();
  return { row: row!, secret };
}

describeOnEachDatabase(
  "virtual visits: list, room tokens, join links and scheduling (built-in video)",
  (api) => {
    const people = { site: 0, siteNoEmail: 0, otherSite: 0 };
    let tokens:
      | Promise<{ coordinator: string; staff1: string; staff3: string; witness: string; noSite: string }>
      | undefined;
    const signedIn = () =>
      (tokens ??= (async () => {
        const witness = await api.createUser({ studies: { [STUDY]: "Impartial Witness" } });
        // Study 102 with only its other site.
        const noSite = await api.createUser({ studies: { [STUDY]: "11" } });
        await api.db
          .delete(sitePermissions)
          .where(and(eq(sitePermissions.userId, noSite.id), eq(sitePermissions.siteId, SITE)));
        return {
          coordinator: await api.signIn("coordinator@demo.test"),
          staff1: await api.signIn("staff1@demo.test"),
          staff3: await api.signIn("staff3@demo.test"),
          witness: await api.signIn(witness.username),
          noSite: await api.signIn(noSite.username),
        };
      })());

    beforeAll(async () => {
      const insert = async (values: typeof participants.$inferInsert) =>
        (await api.db.insert(participants).values(values).returning({ id: participants.id }))[0]!.id;
      people.site = await insert({
        studyId: STUDY,
        siteId: SITE,
        fname: "Vera",
        lname: "Visitor",
        email: "vera.visitor@participant.example",
      });
      people.siteNoEmail = await insert({ studyId: STUDY, siteId: SITE, fname: "Nomail", lname: "Person" });
      people.otherSite = await insert({
        studyId: STUDY,
        siteId: OTHER_SITE,
        fname: "Otto",
        lname: "Elsewhere",
        email: "otto@participant.example",
      });
    });

    const list = async (token: string) => {
      const response = await api.request("GET", listUrl(), { token });
      expect(response.statusCode).toBe(200);
      return visitsResponse.parse(response.json()).visits;
    };

    // --------------------------------------------------------------------------------------------
    // GET .../clinro_visits

    it("lists the demo's visits of SCZ-214's Remote Visits Hub with the spec's fields, soonest first", async () => {
      const { coordinator } = await signedIn();
      const response = await api.request("GET", listUrl(), { token: coordinator });
      expect(response.statusCode).toBe(200);
      const body = response.json() as { visits: Record<string, unknown>[] };
      expect(Object.keys(body)).toEqual(["visits"]);
      const demo = visitsResponse.parse(body).visits.filter((visit) => visit.participant_id !== people.site);
      expect(demo).toHaveLength(DEMO_VISITS.length);
      expect(Object.keys(body.visits[0]!).sort()).toEqual(
        [
          "id",
          "is_adhoc",
          "is_recorded",
          "fname",
          "lname",
          "participant_id",
          "participant_email",
          "room_name",
          "visit_time",
          "visit_duration",
          "token",
        ].sort(),
      );
      const times = demo.map((visit) => Date.parse(visit.visit_time));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(demo.filter((visit) => visit.is_adhoc)).toHaveLength(1);
      expect(demo.filter((visit) => visit.is_recorded)).toHaveLength(1);
      expect(demo.filter((visit) => visit.token === null)).toHaveLength(1);
      expect(demo.every((visit) => visit.participant_email.includes("@"))).toBe(true);
      // One is under way now: started before, ends after.
      const now = Date.now();
      expect(
        demo.some(
          (visit) =>
            !visit.is_adhoc &&
            Date.parse(visit.visit_time) <= now &&
            Date.parse(visit.visit_time) + visit.visit_duration * MINUTE > now,
        ),
      ).toBe(true);
      expect(demo.some((visit) => Date.parse(visit.visit_time) > now + 20 * 24 * 60 * MINUTE)).toBe(true);
    });

    it("lists only visits that have not ended (ad hoc ones always), and only of that site", async () => {
      const { coordinator } = await signedIn();
      const ended = await insertVisit(api, { participantId: people.site, startsInMin: -120, minutes: 30 });
      const justEnded = await insertVisit(api, { participantId: people.site, startsInMin: -31, minutes: 30 });
      const underWay = await insertVisit(api, { participantId: people.site, startsInMin: -29, minutes: 30 });
      const oldAdhoc = await insertVisit(api, {
        participantId: people.site,
        startsInMin: -3 * 24 * 60,
        adhoc: true,
        createdMinAgo: 3 * 24 * 60,
      });
      const otherSite = await insertVisit(api, {
        participantId: people.otherSite,
        siteId: OTHER_SITE,
        startsInMin: 60,
      });
      const ids = (await list(coordinator)).map((visit) => visit.id);
      expect(ids).not.toContain(ended.row.id);
      expect(ids).not.toContain(justEnded.row.id);
      expect(ids).toContain(underWay.row.id);
      expect(ids).toContain(oldAdhoc.row.id);
      expect(ids).not.toContain(otherSite.row.id);
      const otherIds = visitsResponse
        .parse((await api.request("GET", listUrl(STUDY, OTHER_SITE), { token: coordinator })).json())
        .visits.map((visit) => visit.id);
      expect(otherIds).toEqual([otherSite.row.id]);
    });

    it("refuses the list with 403 outside the user's permissions and to a witness", async () => {
      const { staff3, witness, noSite, coordinator } = await signedIn();
      for (const [token, url] of [
        [staff3, listUrl()],
        [witness, listUrl()],
        [noSite, listUrl()],
        // A site of another study under this study's id, and a site that does not exist.
        [coordinator, listUrl(STUDY, 1011)],
        [coordinator, listUrl(STUDY, 999_999)],
        [coordinator, listUrl(999_999, SITE)],
      ] as const) {
        const response = await api.request("GET", url, { token });
        expect(response.statusCode, url).toBe(403);
        expect(errorBody.parse(response.json()).code).toBe("visits_forbidden");
      }
    });

    it("answers 400 for ids that are not ids, and 401 without a token", async () => {
      const { coordinator } = await signedIn();
      const bad = await api.request("GET", listUrl("abc", SITE), { token: coordinator });
      expect(bad.statusCode).toBe(400);
      expect(errorBody.parse(bad.json()).issues?.[0]?.path).toBe("studyId");
      expect((await api.request("GET", listUrl())).statusCode).toBe(401);
    });

    // --------------------------------------------------------------------------------------------
    // validate_room and renew_token

    it("validate_room answers a built-in room ticket for that room, isRecorded and no ICE servers by default", async () => {
      const { staff1 } = await signedIn();
      const recorded = (await list(staff1)).find((visit) => visit.is_recorded)!;
      const response = await api.request("GET", roomUrl(recorded.room_name), { token: staff1 });
      expect(response.statusCode).toBe(200);
      const body = validateRoomResponse.parse(response.json());
      expect(body).toMatchObject({
        provider: "builtin",
        isRecorded: true,
        channel: recorded.room_name,
        ice_servers: [],
      });
      expect(body.app_id).toBeUndefined();
      const claims = decodeTokenPayload(body.roomToken);
      expect(claims).toMatchObject({
        purpose: "visit_room",
        room: recorded.room_name,
        role: "clinician",
        study: STUDY,
      });
      const expiresIn = Date.parse(body.expires_at) - Date.now();
      expect(expiresIn).toBeGreaterThan((ROOM_TOKEN_TTL_S - 60) * 1000);
      expect(expiresIn).toBeLessThanOrEqual(ROOM_TOKEN_TTL_S * 1000);
      expect(claims.exp).toBe(Date.parse(body.expires_at) / 1000);

      const plain = (await list(staff1)).find((visit) => !visit.is_recorded && visit.token !== null)!;
      const plainBody = validateRoomResponse.parse(
        (await api.request("GET", roomUrl(plain.room_name), { token: staff1 })).json(),
      );
      expect(plainBody.isRecorded).toBe(false);
    });

    it("renew_token answers a fresh token of the same shape", async () => {
      const { coordinator } = await signedIn();
      const room = (await list(coordinator)).find((visit) => visit.token !== null)!;
      const response = await api.request("POST", roomUrl(room.room_name, "renew_token"), {
        token: coordinator,
      });
      expect(response.statusCode).toBe(200);
      const body = validateRoomResponse.parse(response.json());
      expect(body.provider).toBe("builtin");
      expect(decodeTokenPayload(body.roomToken).room).toBe(room.room_name);
    });

    it("refuses validate_room and renew_token: 403 outside permissions and for a witness, 404, 409, 410, 400", async () => {
      const { staff3, witness, noSite, coordinator } = await signedIn();
      const room = (await list(coordinator)).find((visit) => visit.token !== null)!.room_name;
      for (const call of ["validate_room", "renew_token"] as const) {
        const method = call === "validate_room" ? "GET" : "POST";
        for (const token of [staff3, witness, noSite]) {
          const response = await api.request(method, roomUrl(room, call), { token });
          expect(response.statusCode, call).toBe(403);
        }
        // The room under another study's id (the coordinator has that study too).
        expect((await api.request(method, roomUrl(room, call, 101), { token: coordinator })).statusCode).toBe(
          404,
        );
        const unknown = await api.request(method, roomUrl("visit-unknown-room", call), {
          token: coordinator,
        });
        expect(unknown.statusCode).toBe(404);
        expect(errorBody.parse(unknown.json()).code).toBe("room_not_found");
        const bad = await api.request(method, roomUrl("no%20spaces%21", call), { token: coordinator });
        expect(bad.statusCode).toBe(400);
        expect(errorBody.parse(bad.json()).issues?.[0]?.path).toBe("roomName");
      }
      const ended = await insertVisit(api, { participantId: people.site, startsInMin: -90, minutes: 30 });
      const endedAnswer = await api.request("GET", roomUrl(ended.row.roomName), { token: coordinator });
      expect(endedAnswer.statusCode).toBe(410);
      expect(errorBody.parse(endedAnswer.json()).code).toBe("visit_ended");
      const mailOnly = (await list(coordinator)).find((visit) => visit.token === null)!;
      const mailOnlyAnswer = await api.request("GET", roomUrl(mailOnly.room_name), { token: coordinator });
      expect(mailOnlyAnswer.statusCode).toBe(409);
      expect(errorBody.parse(mailOnlyAnswer.json()).code).toBe("visit_without_room");
    });

    // --------------------------------------------------------------------------------------------
    // The join link

    it("the join link: 200 inside its window with a participant ticket for that room only", async () => {
      const soon = await insertVisit(api, {
        participantId: people.site,
        startsInMin: 20,
        minutes: 30,
        recorded: true,
      });
      const response = await api.request("GET", joinUrl(soon.secret));
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("no-store");
      const body = joinResponse.parse(response.json());
      expect(body).toMatchObject({
        provider: "builtin",
        room_name: soon.row.roomName,
        channel: soon.row.roomName,
        study_name: "SCZ-214 Negative Symptoms",
        visit_time: soon.row.visitTime.toISOString(),
        visit_duration: 30,
        isRecorded: true,
        ice_servers: [],
      });
      expect(decodeTokenPayload(body.roomToken)).toMatchObject({
        purpose: "visit_room",
        room: soon.row.roomName,
        role: "participant",
        sub: String(people.site),
      });
      // The secret of one visit is not another's: another visit's secret names its own room.
      const other = await insertVisit(api, { participantId: people.site, startsInMin: 10 });
      const otherBody = joinResponse.parse((await api.request("GET", joinUrl(other.secret))).json());
      expect(otherBody.room_name).toBe(other.row.roomName);
      expect(decodeTokenPayload(otherBody.roomToken).room).toBe(other.row.roomName);
    });

    it("the join link: 404 unknown, 400 malformed, 410 before its window opens and after the visit", async () => {
      const unknown = await api.request("GET", joinUrl(newJoinSecret()));
      expect(unknown.statusCode).toBe(404);
      expect(errorBody.parse(unknown.json()).code).toBe("join_link_unknown");
      const malformed = await api.request("GET", joinUrl("too-short"));
      expect(malformed.statusCode).toBe(400);

      const cases = [
        { startsInMin: 31, minutes: 30, open: false },
        { startsInMin: 29, minutes: 30, open: true },
        { startsInMin: -29, minutes: 30, open: true },
        { startsInMin: -31, minutes: 30, open: false },
        { startsInMin: -23 * 60, adhoc: true, createdMinAgo: 23 * 60, open: true },
        { startsInMin: -25 * 60, adhoc: true, createdMinAgo: 25 * 60, open: false },
      ];
      for (const { open, ...values } of cases) {
        const { secret } = await insertVisit(api, { participantId: people.site, ...values });
        const response = await api.request("GET", joinUrl(secret));
        expect(response.statusCode, JSON.stringify(values)).toBe(open ? 200 : 410);
        if (!open) expect(errorBody.parse(response.json()).code).toBe("join_link_expired");
      }
    });

    // --------------------------------------------------------------------------------------------
    // Scheduling

    const scheduleBody = (overrides: Record<string, unknown> = {}) => ({
      participant_id: people.site,
      visit_time: new Date(Date.now() + 10 * MINUTE).toISOString(),
      visit_duration: 40,
      is_recorded: false,
      is_adhoc: false,
      ...overrides,
    });

    it("a coordinator schedules a visit: 201 with the visit, listed, and the participant's mail carries a working join link", async () => {
      const { coordinator } = await signedIn();
      await api.app.backgroundTasks.drain();
      const before = (await mailsTo(api.dataDir, "vera.visitor@participant.example")).length;
      const body = scheduleBody({ is_recorded: true });
      const response = await api.request("POST", listUrl(), {
        token: coordinator,
        body,
        headers: { "idempotency-key": "schedule-vera-0001" },
      });
      expect(response.statusCode).toBe(201);
      const visit: Visit = visitSchema.parse(response.json());
      expect(visit).toMatchObject({
        participant_id: people.site,
        fname: "Vera",
        lname: "Visitor",
        participant_email: "vera.visitor@participant.example",
        visit_duration: 40,
        is_recorded: true,
        is_adhoc: false,
      });
      expect(visit.token).not.toBeNull();
      expect((await list(coordinator)).map((listed) => listed.id)).toContain(visit.id);

      // The same key again: the same visit, no second visit and no second mail.
      const again = await api.request("POST", listUrl(), {
        token: coordinator,
        body,
        headers: { "idempotency-key": "schedule-vera-0001" },
      });
      expect(again.statusCode).toBe(201);
      expect(visitSchema.parse(again.json()).id).toBe(visit.id);

      await api.app.backgroundTasks.drain();
      const mails = await mailsTo(api.dataDir, "vera.visitor@participant.example");
      expect(mails).toHaveLength(before + 1);
      const mail = mails.at(-1)!;
      expect(mail.subject).toBe("Your video visit for SCZ-214 Negative Symptoms");
      expect(mail.text).toContain("This visit will be recorded.");
      const link = mail.links.find((candidate) => candidate.includes("/join/"))!;
      expect(link).toMatch(/^http:\/\/localhost\/join\/[A-Za-z0-9_-]{43}$/);
      const secret = new URL(link).pathname.split("/").at(-1)!;
      const joined = await api.request("GET", joinUrl(secret));
      expect(joined.statusCode).toBe(200);
      expect(joinResponse.parse(joined.json()).room_name).toBe(visit.room_name);
      // Only the hash is stored.
      const [stored] = await api.db.select().from(visits).where(eq(visits.id, visit.id));
      expect(stored!.joinSecretHash).toBe(hashJoinSecret(secret));
      expect(JSON.stringify(stored)).not.toContain(secret);
    });

    it("schedules for a participant without an email address, and mails nothing", async () => {
      const { coordinator } = await signedIn();
      await api.app.backgroundTasks.drain();
      const mailCount = (await readMailDrop(api.dataDir)).length;
      const response = await api.request("POST", listUrl(), {
        token: coordinator,
        body: scheduleBody({ participant_id: people.siteNoEmail, is_adhoc: true }),
      });
      expect(response.statusCode).toBe(201);
      expect(visitSchema.parse(response.json())).toMatchObject({ participant_email: "", is_adhoc: true });
      await api.app.backgroundTasks.drain();
      expect(await readMailDrop(api.dataDir)).toHaveLength(mailCount);
    });

    it("refuses scheduling: 403 to anyone but a coordinator of the study site, 404 for a participant of another site, 400 for bad input; nothing is stored", async () => {
      const { coordinator, staff1, staff3, witness, noSite } = await signedIn();
      const count = async () => (await api.db.select({ id: visits.id }).from(visits)).length;
      const before = await count();
      for (const token of [staff1, staff3, witness, noSite]) {
        const response = await api.request("POST", listUrl(), { token, body: scheduleBody() });
        expect(response.statusCode).toBe(403);
      }
      expect(
        errorBody.parse(
          (await api.request("POST", listUrl(), { token: staff1, body: scheduleBody() })).json(),
        ).code,
      ).toBe("coordinator_only");
      expect(
        (await api.request("POST", listUrl(STUDY, 1011), { token: coordinator, body: scheduleBody() }))
          .statusCode,
      ).toBe(403);

      const elsewhere = await api.request("POST", listUrl(), {
        token: coordinator,
        body: scheduleBody({ participant_id: people.otherSite }),
      });
      expect(elsewhere.statusCode).toBe(404);
      expect(errorBody.parse(elsewhere.json()).code).toBe("participant_not_found");

      for (const [body, path] of [
        [scheduleBody({ visit_duration: 0 }), "visit_duration"],
        [scheduleBody({ visit_duration: 481 }), "visit_duration"],
        [scheduleBody({ visit_duration: "30" }), "visit_duration"],
        [scheduleBody({ visit_time: "2026-11-22 10:00" }), "visit_time"],
        [scheduleBody({ visit_time: "2026-11-22T10:00:00" }), "visit_time"],
        [scheduleBody({ participant_id: "x" }), "participant_id"],
        [
          scheduleBody({ visit_time: new Date(Date.now() - 60 * MINUTE).toISOString(), visit_duration: 30 }),
          "visit_time",
        ],
      ] as const) {
        const response = await api.request("POST", listUrl(), { token: coordinator, body });
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(errorBody.parse(response.json()).issues?.map((issue) => issue.path)).toContain(path);
      }
      expect(await count()).toBe(before);
    });
  },
);

// agora-token is CommonJS: its AccessToken2 reads a token back.
const require = createRequire(import.meta.url);
const { AccessToken2, kRtcServiceType } = require("agora-token/src/AccessToken2.js") as {
  AccessToken2: new (...args: unknown[]) => {
    from_string: (token: string) => boolean;
    appId: Buffer;
    expire: number;
    getServices: (type: number) => { __channel_name: Buffer | string; __uid: Buffer | string }[];
  };
  kRtcServiceType: number;
};

const AGORA = {
  appId: "970CA35de60c44645bbae8a215061b33",
  appCertificate: "5CFd2fd1755d40ecb72977518be15d3b",
};

describeOnEachDatabase(
  "virtual visits on Agora: validate_room and the join link answer Agora RTC tokens",
  (api) => {
    it("answers a publisher token for the room's channel and the clinician's uid, and the participant's", async () => {
      const token = await api.signIn("coordinator@demo.test");
      const listed = visitsResponse.parse((await api.request("GET", listUrl(), { token })).json()).visits;
      const room = listed.find((visit) => visit.token !== null && !visit.is_adhoc)!;
      const response = await api.request("GET", roomUrl(room.room_name), { token });
      expect(response.statusCode).toBe(200);
      const body = validateRoomResponse.parse(response.json());
      expect(body).toMatchObject({ provider: "agora", app_id: AGORA.appId, channel: room.room_name });
      expect(body.ice_servers).toBeUndefined();
      const decoded = new AccessToken2("", "", 0, 0);
      expect(decoded.from_string(body.roomToken)).toBe(true);
      expect(String(decoded.appId)).toBe(AGORA.appId);
      expect(decoded.expire).toBe(ROOM_TOKEN_TTL_S);
      const [rtc] = decoded.getServices(kRtcServiceType);
      expect(String(rtc?.__channel_name)).toBe(room.room_name);
      expect(String(rtc?.__uid)).toBe(String(body.uid));

      const { secret } = await insertVisit(api, { participantId: room.participant_id, startsInMin: 5 });
      const joined = joinResponse.parse((await api.request("GET", joinUrl(secret))).json());
      expect(joined.provider).toBe("agora");
      expect(joined.uid).toBe(2 ** 31 + room.participant_id);
      expect(joined.uid).not.toBe(body.uid);
      const participantToken = new AccessToken2("", "", 0, 0);
      participantToken.from_string(joined.roomToken);
      expect(String(participantToken.getServices(kRtcServiceType)[0]?.__uid)).toBe(String(joined.uid));
    });
  },
  { video: { agora: AGORA, iceServers: [] } },
);
