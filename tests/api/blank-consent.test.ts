/**
 * GET /control/v2/clinro/consent/blank: a consent version with no participant, which a device
 * keeps to sign it offline for a participant enrolled offline. It answers the version as
 * published, to staff of the consent's study only, and names no participant.
 */
import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { blankConsentResponse } from "../../core/contracts/consent-schemas.ts";
import { errorBody } from "../../core/contracts/errors.ts";
import { consentVersions, consents } from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const MAIN = "Main Study Informed Consent";
const blankUrl = (consentId: number | string, version: number | string) =>
  `/control/v2/clinro/consent/blank?consent_id=${consentId}&version=${version}`;

describeOnEachDatabase("the blank consent call", (api) => {
  let coordinator = "";
  let outsider = "";
  let main = { id: 0, version: 0, studyId: 0 };

  beforeAll(async () => {
    coordinator = await api.signIn("coordinator@demo.test");
    const other = await api.createUser({ studies: { 102: "11" } });
    outsider = await api.signIn(other.username);
    const [row] = await api.db.select().from(consents).where(eq(consents.title, MAIN));
    main = { id: row!.id, version: row!.version, studyId: row!.studyId };
  });

  it("answers the published definition of each version, with no participant in it", async () => {
    const published = await api.db
      .select()
      .from(consentVersions)
      .where(eq(consentVersions.consentId, main.id));
    expect(published.length).toBeGreaterThan(0);
    for (const version of published) {
      const response = await api.request("GET", blankUrl(main.id, version.version), { token: coordinator });
      expect(response.statusCode).toBe(200);
      const body = blankConsentResponse.parse(response.json());
      expect(body).toMatchObject({
        consent_id: main.id,
        consent_version: version.version,
        study_id: main.studyId,
      });
      expect(body.definition.order).toEqual((version.definition as { order: string[] }).order);
      expect(Object.keys(body)).not.toContain("participant");
      expect(Object.keys(body)).not.toContain("records");
    }
  });

  it("refuses staff of another study, and names an unknown consent or version", async () => {
    const foreign = await api.request("GET", blankUrl(main.id, main.version), { token: outsider });
    expect(foreign.statusCode).toBe(403);
    const noVersion = await api.request("GET", blankUrl(main.id, 99), { token: coordinator });
    expect(noVersion.statusCode).toBe(404);
    expect(errorBody.parse(noVersion.json()).message).toContain("no version 99");
    const noConsent = await api.request("GET", blankUrl(999_999, 1), { token: coordinator });
    expect(noConsent.statusCode).toBe(404);
  });

  it("answers bad input with a 400 that names the field", async () => {
    const response = await api.request("GET", "/control/v2/clinro/consent/blank?consent_id=abc&version=1", {
      token: coordinator,
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain("consent_id");
    const signedOut = await api.request("GET", blankUrl(main.id, main.version));
    expect(signedOut.statusCode).toBe(401);
  });
});
