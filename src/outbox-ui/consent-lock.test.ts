import { describe, expect, it } from "vitest";
import { consentsHoldingBack, type ParticipantConsent } from "../../core/contracts/consent-gate.ts";
import type { OutboxItem } from "../outbox/outbox-item.ts";
import { consentsLockingInstruments } from "./consent-lock.ts";

const main: ParticipantConsent = {
  consent_id: 3,
  title: "Main consent",
  version: 2,
  status: "awaiting_participant",
};
const second: ParticipantConsent = {
  consent_id: 5,
  title: "Second consent",
  version: 1,
  status: "awaiting_witness",
};

function consentItem(overrides: Partial<OutboxItem>): OutboxItem {
  return {
    id: "c1",
    kind: "consent",
    request: {
      method: "POST",
      path: "/control/v2/clinro/participant/7/consent",
      body: { type: "json", value: {} },
    },
    userId: 1,
    username: "coordinator@demo.test",
    participantId: 7,
    label: "Main consent: Ana Ruiz",
    sizeBytes: 10,
    createdAt: 1,
    attempts: 0,
    state: "pending",
    nextAttemptAt: 0,
    dependsOn: [],
    consent: { id: 3, completes: true },
    ...overrides,
  };
}

describe("the consents that hold a participant's ratings back (consent first)", () => {
  it.each([
    ["a study that does not ask consent first holds nothing back", false, [{ ...main, optional: false }], []],
    ["a required consent not complete holds ratings back", true, [{ ...main, optional: false }], [main]],
    [
      "a declined required consent holds them back too",
      true,
      [{ ...main, status: "declined" as const, optional: false }],
      [{ ...main, status: "declined" }],
    ],
    [
      "a complete consent holds nothing back",
      true,
      [{ ...main, status: "complete" as const, optional: false }],
      [],
    ],
    ["an optional consent never holds ratings back", true, [{ ...main, optional: true }], []],
    [
      "several are listed oldest consent first",
      true,
      [
        { ...second, optional: false },
        { ...main, optional: false },
      ],
      [main, second],
    ],
  ])("%s", (_name, asksConsentFirst, consents, expected) => {
    expect(consentsHoldingBack({ asksConsentFirst, consents })).toEqual(expected);
  });
});

describe("the lock on this device", () => {
  const participant = { consents_holding_back: [main, second] };

  it("follows the server's list as kept on the device", () => {
    expect(consentsLockingInstruments(participant, [], 7)).toEqual([main, second]);
  });

  it("lifts the lock of a consent whose completing signing waits in the outbox", () => {
    expect(consentsLockingInstruments(participant, [consentItem({})], 7)).toEqual([second]);
  });

  it.each([
    ["a signing that does not complete the consent", consentItem({ consent: { id: 3, completes: false } })],
    ["a signing the server refused", consentItem({ state: "failed" })],
    ["another participant's signing", consentItem({ participantId: 8 })],
    ["a signing kept by an earlier release, without its consent", consentItem({ consent: undefined })],
  ])("keeps it for %s", (_name, item) => {
    expect(consentsLockingInstruments(participant, [item], 7)).toEqual([main, second]);
  });

  it("locks nothing for a participant cached by an earlier release (no list)", () => {
    expect(consentsLockingInstruments({}, [], 7)).toEqual([]);
  });
});
