import { constants, createPublicKey, publicEncrypt, randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { signingKeyResponse } from "../../core/contracts/signing-key.ts";
import { MAX_SIGNING_ATTEMPTS } from "../../core/contracts/signing-attempts.ts";
import { auditLog, consentParticipants, consents, participants } from "../../server/db/schema.ts";
import { DEMO_PASSWORD, describeOnEachDatabase } from "../support/api-harness.ts";

const CHECK = "/control/v2/signing-password/check";
const REFUSALS = "/control/v2/signing-password/refusals";

describeOnEachDatabase("the signing password's checks", (api) => {
  let offer = { consent_id: 0, participant_id: 0 };

  beforeAll(async () => {
    const [row] = await api.db
      .select({
        consent_id: consentParticipants.consentId,
        participant_id: consentParticipants.participantId,
      })
      .from(consentParticipants)
      .innerJoin(consents, eq(consents.id, consentParticipants.consentId))
      .innerJoin(participants, eq(participants.id, consentParticipants.participantId))
      .where(eq(consents.studyId, 101))
      .limit(1);
    offer = row!;
  });

  async function encrypted(password: string, token: string) {
    const key = signingKeyResponse.parse(
      (await api.request("GET", "/control/v2/signing-key", { token })).json(),
    );
    const ciphertext = publicEncrypt(
      {
        key: createPublicKey({ key: key.jwk, format: "jwk" }),
        padding: constants.RSA_PKCS1_OAEP_PADDING,
        oaepHash: "sha256",
      },
      Buffer.from(password, "utf8"),
    );
    return { kid: key.kid, password_ciphertext: ciphertext.toString("base64") };
  }

  /** A fresh signer of study 101, signed in. */
  async function signer() {
    const user = await api.createUser({ studies: { 101: "11" } });
    return { ...user, token: await api.signIn(user.username) };
  }

  const refusedRows = (userId: number) =>
    api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, userId), eq(auditLog.action, "signing_password_refused")))
      .orderBy(asc(auditLog.id));

  const check = (token: string, proof: object, extra: object = {}) =>
    api.request("POST", CHECK, { token, body: { ...proof, signer_role: "clinro", ...extra } });

  it("accepts the signer's own password with 204 and records no refusal", async () => {
    const user = await signer();
    const response = await check(user.token, await encrypted(DEMO_PASSWORD, user.token), offer);
    expect(response.statusCode).toBe(204);
    expect(await refusedRows(user.id)).toEqual([]);
  });

  it("refuses a wrong password with 422 and the tries left, and writes one audit row per try naming the consent", async () => {
    const user = await signer();
    const wrong = await encrypted("not-my-password", user.token);
    const first = await check(user.token, wrong, offer);
    expect(first.statusCode).toBe(422);
    expect(first.json()).toMatchObject({
      code: "signing_password_invalid",
      attempts_left: MAX_SIGNING_ATTEMPTS - 1,
    });
    expect((await check(user.token, wrong)).json()).toMatchObject({
      attempts_left: MAX_SIGNING_ATTEMPTS - 2,
    });
    const rows = await refusedRows(user.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      tableName: "consent_participants",
      rowKey: offer,
      details: { reason: "password_mismatch", checked_on: "server", signer_role: "clinro", attempt: 1 },
    });
    expect(JSON.stringify(rows)).not.toContain("not-my-password");
  });

  it(`ends the session at the ${MAX_SIGNING_ATTEMPTS}th wrong try in a row: 429, and the token stops working`, async () => {
    const user = await signer();
    const wrong = await encrypted("wrong", user.token);
    const statuses: number[] = [];
    for (let index = 0; index < MAX_SIGNING_ATTEMPTS; index++)
      statuses.push((await check(user.token, wrong)).statusCode);
    expect(statuses).toEqual([422, 422, 422, 422, 429]);
    const after = await api.request("GET", "/control/v2/signing-key", { token: user.token });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: "token_revoked" });
    expect(await refusedRows(user.id)).toHaveLength(MAX_SIGNING_ATTEMPTS);
  });

  it("checks no more than the cap of tries sent at once, and records every one", async () => {
    const user = await signer();
    const wrong = await encrypted("wrong", user.token);
    const answers = await Promise.all(Array.from({ length: 12 }, () => check(user.token, wrong)));
    const statuses = answers.map((answer) => answer.statusCode);
    // Each try is counted before it is checked: only the first five are checked at all.
    expect(statuses.filter((status) => status === 422)).toHaveLength(MAX_SIGNING_ATTEMPTS - 1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(12 - (MAX_SIGNING_ATTEMPTS - 1));
    const rows = await refusedRows(user.id);
    expect(rows).toHaveLength(12);
    expect(rows.filter((row) => row.details?.reason === "password_mismatch")).toHaveLength(
      MAX_SIGNING_ATTEMPTS,
    );
    expect((await api.request("GET", "/control/v2/signing-key", { token: user.token })).statusCode).toBe(401);
  });

  it("starts the count again after an accepted password", async () => {
    const user = await signer();
    const wrong = await encrypted("wrong", user.token);
    for (let index = 0; index < MAX_SIGNING_ATTEMPTS - 1; index++) await check(user.token, wrong);
    expect((await check(user.token, await encrypted(DEMO_PASSWORD, user.token))).statusCode).toBe(204);
    expect((await check(user.token, wrong)).json()).toMatchObject({
      attempts_left: MAX_SIGNING_ATTEMPTS - 1,
    });
  });

  it("refuses bad input with 400 and a consent the user may not sign with 403 or 404, counting and recording nothing", async () => {
    const user = await signer();
    const proof = await encrypted("wrong", user.token);
    const bad = [
      { ...proof, signer_role: "participant" },
      { ...proof, signer_role: "clinro", consent_id: offer.consent_id },
      { kid: proof.kid, password_ciphertext: "not base64!", signer_role: "clinro" },
      { signer_role: "clinro" },
    ];
    for (const body of bad) {
      expect((await api.request("POST", CHECK, { token: user.token, body })).statusCode).toBe(400);
    }
    const outsider = await api.createUser({ studies: { 102: "11" } });
    const outsiderToken = await api.signIn(outsider.username);
    const foreign = await check(outsiderToken, await encrypted("wrong", outsiderToken), offer);
    expect(foreign.statusCode).toBe(403);
    const unknown = await check(user.token, proof, {
      consent_id: 2_000_000_000,
      participant_id: offer.participant_id,
    });
    expect(unknown.statusCode).toBe(404);
    expect(await refusedRows(user.id)).toEqual([]);
    expect(await refusedRows(outsider.id)).toEqual([]);
    expect((await check(user.token, proof)).json()).toMatchObject({
      attempts_left: MAX_SIGNING_ATTEMPTS - 1,
    });
  });

  it("needs a token", async () => {
    const response = await api.request("POST", CHECK, { body: { signer_role: "clinro" } });
    expect(response.statusCode).toBe(401);
  });

  it("records a try refused on the device once per Idempotency-Key, with when it was made", async () => {
    const user = await signer();
    const key = randomUUID();
    const body = { attempted_at: "2026-11-22T09:15:00-05:00", signer_role: "witness", ...offer };
    const send = () =>
      api.request("POST", REFUSALS, { token: user.token, body, headers: { "idempotency-key": key } });
    expect((await send()).statusCode).toBe(200);
    const repeat = await send();
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual({ recorded: true });
    const rows = await refusedRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      rowKey: offer,
      details: {
        reason: "password_mismatch",
        checked_on: "device",
        signer_role: "witness",
        attempted_at: body.attempted_at,
      },
    });
    const other = await api.request("POST", REFUSALS, {
      token: user.token,
      body: { attempted_at: body.attempted_at, signer_role: "clinro" },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(other.statusCode).toBe(200);
    expect(await refusedRows(user.id)).toHaveLength(2);
  });

  it("refuses a bad refusal report with 400 and a foreign consent with 403, recording nothing", async () => {
    const user = await signer();
    const send = (body: object, token = user.token) =>
      api.request("POST", REFUSALS, { token, body, headers: { "idempotency-key": randomUUID() } });
    for (const body of [
      { attempted_at: "yesterday", signer_role: "clinro" },
      { attempted_at: "2026-11-22T09:15:00Z", signer_role: "participant" },
      { attempted_at: "2026-11-22T09:15:00Z", signer_role: "clinro", participant_id: offer.participant_id },
    ]) {
      expect((await send(body)).statusCode).toBe(400);
    }
    const outsider = await api.createUser({ studies: { 102: "11" } });
    const foreign = await send(
      { attempted_at: "2026-11-22T09:15:00Z", signer_role: "clinro", ...offer },
      await api.signIn(outsider.username),
    );
    expect(foreign.statusCode).toBe(403);
    expect(await refusedRows(user.id)).toEqual([]);
    expect(await refusedRows(outsider.id)).toEqual([]);
  });
});
