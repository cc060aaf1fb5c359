import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { myConsentsResponse, type MyConsentsResponse } from "../../core/contracts/consents.ts";
import { errorBody } from "../../core/contracts/errors.ts";
import { consentParticipants, consents, participants, sitePermissions } from "../../server/db/schema.ts";
import { DEMO_CONSENTS } from "../../server/seed/demo-consents.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const consentsUrl = (query: Record<string, string | number> = {}) => {
  const search = new URLSearchParams(
    Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
  );
  const text = search.toString();
  return `/control/v2/clinro/me/consents${text ? `?${text}` : ""}`;
};

const study = (body: MyConsentsResponse, studyId: number) =>
  body.consents.find((entry) => entry.study_id === studyId);
const consentOf = (body: MyConsentsResponse, consentId: number) =>
  body.consents.flatMap((entry) => entry.consents).find((consent) => consent.consent_id === consentId);

describeOnEachDatabase("the consents list (GET /control/v2/clinro/me/consents)", (api) => {
  /** A consent of this file in study 101, with participants of known statuses at both sites. */
  const ids = { consent: 0, otherStudyConsent: 0 };
  let tokens: Promise<{ coordinator: string; staff1: string; staff3: string }> | undefined;
  const signedIn = () =>
    (tokens ??= (async () => ({
      coordinator: await api.signIn("coordinator@demo.test"),
      staff1: await api.signIn("staff1@demo.test"),
      staff3: await api.signIn("staff3@demo.test"),
    }))());

  beforeAll(async () => {
    const participant = async (siteId: number, lname: string) =>
      (
        await api.db
          .insert(participants)
          .values({ studyId: siteId < 1020 ? 101 : 102, siteId, fname: "Consenta", lname })
          .returning({ id: participants.id })
      )[0]!.id;
    const [created] = await api.db
      .insert(consents)
      .values({
        studyId: 101,
        title: "AAA Test Consent",
        type: "CONSENT",
        version: 3,
        dateDeployed: new Date("2026-02-10T09:30:00.000Z"),
      })
      .returning({ id: consents.id });
    ids.consent = created!.id;
    // Boston (1011): 3 missing (one of each waiting status), 2 finished; Lakeside (1012): 1 missing.
    const statuses: [number, string][] = [
      [1011, "awaiting_participant"],
      [1011, "awaiting_clinro"],
      [1011, "awaiting_witness"],
      [1011, "complete"],
      [1011, "declined"],
      [1012, "awaiting_clinro"],
      [1012, "complete"],
    ];
    for (const [index, [siteId, status]] of statuses.entries()) {
      await api.db.insert(consentParticipants).values({
        consentId: ids.consent,
        participantId: await participant(siteId, `Status${index}`),
        version: 3,
        status,
      });
    }
    const [other] = await api.db
      .insert(consents)
      .values({ studyId: 102, title: "Remote Consent", dateDeployed: new Date("2026-01-01T00:00:00.000Z") })
      .returning({ id: consents.id });
    ids.otherStudyConsent = other!.id;
    await api.db.insert(consentParticipants).values({
      consentId: ids.otherStudyConsent,
      participantId: await participant(1021, "Remote"),
      version: 1,
      status: "awaiting_participant",
    });
  });

  it("answers the consents of every study of the user, grouped by study, with the spec's fields", async () => {
    const { coordinator } = await signedIn();
    const response = await api.request("GET", consentsUrl(), { token: coordinator });
    expect(response.statusCode).toBe(200);
    const body = myConsentsResponse.parse(response.json());
    expect(body.consents.map((entry) => entry.study_id)).toEqual([101, 102, 103]);
    expect(study(body, 101)?.study_name).toBe("MDD-301 Depression Maintenance");
    expect(study(body, 103)?.consents).toEqual([]);
    expect(consentOf(body, ids.consent)).toEqual({
      consent_id: ids.consent,
      title: "AAA Test Consent",
      type: "CONSENT",
      version: 3,
      date_deployed: "2026-02-10T09:30:00.000Z",
      missing_consents: 4,
    });
    expect(consentOf(body, ids.otherStudyConsent)).toMatchObject({ missing_consents: 1, version: 1 });
  });

  it("the demo seed gives study 101 its two consents with missing consents, and no other study any", async () => {
    const { coordinator } = await signedIn();
    const body = myConsentsResponse.parse(
      (await api.request("GET", consentsUrl({ study_id: 101 }), { token: coordinator })).json(),
    );
    const seeded = study(body, 101)!.consents.filter((consent) => consent.consent_id !== ids.consent);
    expect(seeded.map((consent) => [consent.title, consent.version])).toEqual([
      ["Main Study Informed Consent", 2],
      ["Optional Genetic Sub-study Consent", 1],
    ]);
    // Counted independently from the seed's statuses: all 72 participants are on permitted sites.
    for (const consent of seeded) {
      const demo = DEMO_CONSENTS.find((candidate) => candidate.title === consent.title)!;
      const expected = Array.from({ length: 72 }, (_, index) => demo.statusOf(index)).filter(
        (status) => status !== null && status !== "complete" && status !== "declined",
      ).length;
      expect(consent.missing_consents).toBe(expected);
      expect(consent.missing_consents).toBeGreaterThan(0);
    }
  });

  it("study_id keeps that study only", async () => {
    const { coordinator } = await signedIn();
    const response = await api.request("GET", consentsUrl({ study_id: 102 }), { token: coordinator });
    expect(response.statusCode).toBe(200);
    const body = myConsentsResponse.parse(response.json());
    expect(body.consents).toEqual([
      {
        study_id: 102,
        study_name: "SCZ-214 Negative Symptoms",
        consents: [expect.objectContaining({ consent_id: ids.otherStudyConsent, missing_consents: 1 })],
      },
    ]);
  });

  it("site_id counts that site's participants only", async () => {
    const { coordinator } = await signedIn();
    const boston = myConsentsResponse.parse(
      (
        await api.request("GET", consentsUrl({ study_id: 101, site_id: 1011 }), { token: coordinator })
      ).json(),
    );
    expect(boston.consents.map((entry) => entry.study_id)).toEqual([101]);
    expect(consentOf(boston, ids.consent)?.missing_consents).toBe(3);
    const lakeside = myConsentsResponse.parse(
      (await api.request("GET", consentsUrl({ site_id: 1012 }), { token: coordinator })).json(),
    );
    expect(lakeside.consents.map((entry) => entry.study_id)).toEqual([101]);
    expect(consentOf(lakeside, ids.consent)?.missing_consents).toBe(1);
  });

  it("counts only the participants of the sites the user's permissions name", async () => {
    const user = await api.createUser({ studies: { 101: "11" } });
    await api.db
      .delete(sitePermissions)
      .where(and(eq(sitePermissions.userId, user.id), inArray(sitePermissions.siteId, [1012])));
    const token = await api.signIn(user.username, user.password);
    const response = await api.request("GET", consentsUrl(), { token });
    expect(response.statusCode).toBe(200);
    const body = myConsentsResponse.parse(response.json());
    expect(body.consents.map((entry) => entry.study_id)).toEqual([101]);
    expect(consentOf(body, ids.consent)?.missing_consents).toBe(3);
    // The site left out is refused like any other.
    const refused = await api.request("GET", consentsUrl({ site_id: 1012 }), { token });
    expect(refused.statusCode).toBe(403);
  });

  const forbidden = [
    ["a study the user has no permission in", "staff3", { study_id: 102 }],
    ["a study that does not exist", "staff1", { study_id: 999_999 }],
    ["a site of a study the user has no permission in", "staff3", { site_id: 1021 }],
    ["a site that does not exist", "staff1", { site_id: 999_999 }],
    ["a permitted site under another permitted study", "staff1", { study_id: 102, site_id: 1011 }],
  ] as const;

  it.each(forbidden)("403 for %s, with the same body", async (_case, who, query) => {
    const tokensNow = await signedIn();
    const response = await api.request("GET", consentsUrl(query), { token: tokensNow[who] });
    expect(response.statusCode).toBe(403);
    expect(errorBody.parse(response.json())).toEqual({
      message: "You do not have access to this study and site.",
      code: "site_forbidden",
    });
  });

  it.each([
    ["study_id", { study_id: "abc" }],
    ["study_id", { study_id: "1.5" }],
    ["study_id", { study_id: "-3" }],
    ["site_id", { site_id: "x" }],
    ["site_id", { site_id: "99999999999" }],
  ] as const)("400 naming %s for a bad value %j", async (field, query) => {
    const { coordinator } = await signedIn();
    const response = await api.request("GET", consentsUrl(query), { token: coordinator });
    expect(response.statusCode).toBe(400);
    const body = errorBody.parse(response.json());
    expect(body.code).toBe("invalid_request");
    expect(body.issues?.map((issue) => issue.path)).toEqual([field]);
  });

  it("401 without a token", async () => {
    const response = await api.request("GET", consentsUrl());
    expect(response.statusCode).toBe(401);
  });
});
