import "fake-indexeddb/auto";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { SigningKeyResponse } from "../../core/contracts/signing-key.ts";
import { MAX_SIGNING_ATTEMPTS } from "../../core/contracts/signing-attempts.ts";
import type { ServerSigningCheck } from "../api/signing-password-api.ts";
import { attemptSigning, type SigningAttemptDependencies } from "./signing-attempt.ts";
import {
  checkVerifier,
  clearSigningRefusals,
  loadVerifier,
  makeVerifier,
  prepareOfflineSigning,
  saveSigningKey,
  saveVerifier,
  signingRefusalCount,
} from "./signing-verifier.ts";

const USER = 31;
const SIGNING = { userId: USER, role: "clinro" as const, consent: { consentId: 4, participantId: 9 } };
const NOW = new Date("2026-11-22T14:15:00Z");

async function serverKey(): Promise<SigningKeyResponse> {
  const pair = await crypto.subtle.generateKey(
    { name: "RSA-OAEP", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["encrypt", "decrypt"],
  );
  const jwk = await crypto.subtle.exportKey("jwk", pair.publicKey);
  return { kid: "k1", jwk: { kty: "RSA", n: jwk.n!, e: jwk.e!, alg: "RSA-OAEP-256", use: "enc", kid: "k1" } };
}

function dependencies(server: (password: string) => ServerSigningCheck) {
  const reported: unknown[] = [];
  const checked: unknown[] = [];
  let typed = "";
  const deps: SigningAttemptDependencies = {
    fetchKey: () => Promise.reject(new TypeError("Failed to fetch")),
    checkOnServer: vi.fn(async (body) => {
      checked.push(body);
      return server(typed);
    }),
    reportRefusal: vi.fn(async (_userId, report) => {
      reported.push(report);
    }),
    now: () => NOW,
  };
  const attempt = (password: string) => {
    typed = password;
    return attemptSigning(SIGNING, password, deps);
  };
  return { deps, attempt, reported, checked };
}

const offline = (): ServerSigningCheck => ({ kind: "unreachable" });

let key: SigningKeyResponse;
beforeAll(async () => {
  key = await serverKey();
}, 60_000);

beforeEach(async () => {
  await saveSigningKey(key);
  await saveVerifier(USER, await makeVerifier("DemoPass1!", 1000));
  await clearSigningRefusals(USER);
});

describe("a signing password try online: the server decides and records", () => {
  it("sends the password encrypted, never in the clear, with what is signed", async () => {
    const { attempt, checked } = dependencies(() => ({ kind: "accepted" }));
    expect(await attempt("DemoPass1!")).toMatchObject({ ok: true, kid: "k1" });
    expect(checked).toEqual([
      expect.objectContaining({ kid: "k1", signer_role: "clinro", consent_id: 4, participant_id: 9 }),
    ]);
    expect(JSON.stringify(checked)).not.toContain("DemoPass1!");
  });

  it("says how many tries the server leaves, and queues nothing (the server recorded it)", async () => {
    const { attempt, reported } = dependencies(() => ({ kind: "refused", attemptsLeft: 3 }));
    expect(await attempt("wrong")).toEqual({ ok: false, reason: "wrong", attemptsLeft: 3 });
    expect(reported).toEqual([]);
  });

  it("ends at the server's cap", async () => {
    const { attempt } = dependencies(() => ({ kind: "exhausted" }));
    expect(await attempt("wrong")).toEqual({ ok: false, reason: "exhausted" });
  });

  it("follows the server over a verifier made before a password change, and renews the verifier", async () => {
    const { attempt } = dependencies((password) =>
      password === "NewPass2!" ? { kind: "accepted" } : { kind: "refused", attemptsLeft: 4 },
    );
    expect(await attempt("NewPass2!")).toMatchObject({ ok: true });
    await vi.waitFor(
      async () => expect(await checkVerifier("NewPass2!", (await loadVerifier(USER))!)).toBe(true),
      {
        timeout: 50_000,
        interval: 250,
      },
    );
    const { attempt: offlineAttempt } = dependencies(offline);
    expect(await offlineAttempt("NewPass2!")).toMatchObject({ ok: true });
  }, 60_000);
});

describe("a signing password try offline: the device decides, counts and queues", () => {
  it("accepts the right password against the device's verifier", async () => {
    const { attempt, reported } = dependencies(offline);
    expect(await attempt("DemoPass1!")).toMatchObject({ ok: true });
    expect(reported).toEqual([]);
  });

  it(`queues each refused try for the audit trail and ends the session at the ${MAX_SIGNING_ATTEMPTS}th`, async () => {
    const { attempt, reported } = dependencies(offline);
    const results = [];
    for (let index = 0; index < MAX_SIGNING_ATTEMPTS; index++) results.push(await attempt("wrong"));
    expect(results).toEqual([
      { ok: false, reason: "wrong", attemptsLeft: 4 },
      { ok: false, reason: "wrong", attemptsLeft: 3 },
      { ok: false, reason: "wrong", attemptsLeft: 2 },
      { ok: false, reason: "wrong", attemptsLeft: 1 },
      { ok: false, reason: "exhausted" },
    ]);
    expect(reported).toHaveLength(MAX_SIGNING_ATTEMPTS);
    expect(reported[0]).toEqual({
      attempted_at: expect.stringMatching(/^2026-11-22T\d\d:15:00(\.000)?([+-]\d\d:\d\d|Z)$/),
      signer_role: "clinro",
      consent_id: 4,
      participant_id: 9,
    });
    expect(JSON.stringify(reported)).not.toContain("wrong");
  });

  it("counts online and offline refusals together, and keeps the count over a reload", async () => {
    const online = dependencies(() => ({ kind: "refused", attemptsLeft: 4 }));
    await online.attempt("wrong");
    await online.attempt("wrong");
    const { attempt } = dependencies(offline);
    await attempt("wrong");
    await attempt("wrong");
    expect(await signingRefusalCount(USER)).toBe(4);
    expect(await attempt("wrong")).toEqual({ ok: false, reason: "exhausted" });
  });

  it("refuses even the right password once the tries are used up, until the next sign-in", async () => {
    const { attempt, deps } = dependencies(offline);
    for (let index = 0; index < MAX_SIGNING_ATTEMPTS; index++) await attempt("wrong");
    expect(await attempt("DemoPass1!")).toEqual({ ok: false, reason: "exhausted" });
    expect(deps.checkOnServer).toHaveBeenCalledTimes(MAX_SIGNING_ATTEMPTS);
    await prepareOfflineSigning(USER, "DemoPass1!", () => Promise.reject(new Error("offline")));
    expect(await attempt("DemoPass1!")).toMatchObject({ ok: true });
  });

  it("starts the count again after an accepted password", async () => {
    const { attempt } = dependencies(offline);
    for (let index = 0; index < MAX_SIGNING_ATTEMPTS - 1; index++) await attempt("wrong");
    expect(await attempt("DemoPass1!")).toMatchObject({ ok: true });
    expect(await attempt("wrong")).toEqual({ ok: false, reason: "wrong", attemptsLeft: 4 });
  });
});
