import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { drainOutbox } from "./drain.ts";
import { makeOutboxItem } from "./enqueue.ts";
import type { OutboxItem } from "./outbox-item.ts";
import { getItem, indexedDbOutboxStore, listItems, putItem, removeItem } from "./outbox-store.ts";
import { needsSigningAgain, signConsentAgain, signerRoleOfConsentItem } from "./consent-resign.ts";

const NOW = Date.UTC(2026, 10, 22, 9, 0, 0);
const SIGNER = { userId: 5, username: "clin@demo.test", participantId: 44 };
const records = [
  { id: "decision", answer: [{ value: "agree" }] },
  { id: "participant_signature", answer: [{ value: "consent_44_participant.png", signature_type: "draw" }] },
  { id: "clinician_signature", answer: [{ value: "Dr. Ruiz", signature_type: "text" }] },
];
const oldSigning = {
  kid: "k1",
  password_ciphertext: "b2xk",
  captured_at: "2026-11-22T08:00:00+01:00",
  time_zone: "Europe/Madrid",
};
const newSigning = {
  kid: "k1",
  password_ciphertext: "bmV3",
  captured_at: "2026-11-23T10:00:00+01:00",
  time_zone: "Europe/Madrid",
};

function consentItem(path = "/control/v2/clinro/participant/44/consent"): OutboxItem {
  return makeOutboxItem(
    {
      kind: "consent",
      label: "Main consent",
      draftKey: "consent:44",
      request: {
        method: "POST",
        path,
        headers: { version: "010" },
        body: {
          type: "json",
          value: { consent_id: 3, consent_version: 2, records, completion: "x", signing: oldSigning },
        },
      },
    },
    SIGNER,
    NOW,
  );
}

async function refusedForPassword() {
  const item = consentItem();
  await putItem(item);
  const answer = {
    kind: "answered" as const,
    status: 422,
    message: "The password is not correct",
    body: { code: "signing_password_invalid", message: "x" },
  };
  await drainOutbox({
    store: indexedDbOutboxStore,
    tokens: { get: async () => ({ token: "t", exp: NOW / 1000 + 3600 }), markRejected: async () => {} },
    send: async () => answer,
    now: () => NOW,
  });
  return (await getItem(item.id))!;
}

beforeEach(async () => {
  for (const item of await listItems()) await removeItem(item.id);
});

describe("a consent refused for its signer's password", () => {
  it("stays in the outbox, failed, with the server's code: nothing of the participant's is lost", async () => {
    const refused = await refusedForPassword();
    expect(refused).toMatchObject({
      state: "failed",
      lastError: { status: 422, code: "signing_password_invalid" },
    });
    expect(needsSigningAgain(refused)).toBe(true);
    expect((refused.request.body as { value: { records: unknown } }).value.records).toEqual(records);
  });

  it("is not offered for signing again when refused for another reason", async () => {
    const other = {
      ...consentItem(),
      state: "failed" as const,
      lastError: { kind: "http" as const, status: 422, code: "consent_invalid", message: "x", at: NOW },
    };
    expect(needsSigningAgain(other)).toBe(false);
    expect(
      needsSigningAgain({
        ...other,
        kind: "submission" as const,
        lastError: { ...other.lastError, code: "signing_password_invalid" },
      }),
    ).toBe(false);
  });

  it("is signed again with the new password proof only: same answers, participant and draft, a new request id, sent again", async () => {
    const refused = await refusedForPassword();
    const revised = await signConsentAgain(refused.id, newSigning);
    expect(revised.id).not.toBe(refused.id);
    expect(await getItem(refused.id)).toBeUndefined();
    const stored = (await getItem(revised.id))!;
    expect(stored).toMatchObject({
      state: "pending",
      attempts: 0,
      participantId: 44,
      draftKey: "consent:44",
      userId: 5,
    });
    expect(stored.lastError).toBeUndefined();
    expect(stored.request.body).toEqual({
      type: "json",
      value: { consent_id: 3, consent_version: 2, records, completion: "x", signing: newSigning },
    });
  });

  it("names the signer's role by the endpoint the session goes to", () => {
    expect(signerRoleOfConsentItem(consentItem())).toBe("clinro");
    expect(signerRoleOfConsentItem(consentItem("/control/v2/witness/participant/44/consent"))).toBe(
      "witness",
    );
  });
});
