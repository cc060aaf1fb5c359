import { describe, expect, it } from "vitest";
import type { ConsentParticipantStatus } from "../../../core/contracts/consents.ts";
import { WITNESS_ROLE } from "../../../core/contracts/roles.ts";
import {
  actionOfGroup,
  consentTitleMatches,
  groupOfStatus,
  groupParticipants,
  isBlankFilter,
  mailComposeHref,
  mayStartConsent,
  participantMatches,
  viewerGroupOfStatus,
  type ConsentAction,
  type ConsentGroup,
} from "./consent-groups.ts";

const COORDINATOR_ROLE = "16 Clinical Coordinator";

describe("server value to group (spec 02 section 4)", () => {
  it.each<[ConsentParticipantStatus, ConsentGroup]>([
    ["awaiting_participant", "pendingCompletion"],
    ["awaiting_clinro", "signatureRequired"],
    ["awaiting_witness", "witnessSignatureRequired"],
    ["complete", "completed"],
    ["declined", "declined"],
  ])("%s becomes %s", (status, group) => {
    expect(groupOfStatus(status)).toBe(group);
  });
});

describe("per-viewer display", () => {
  const cases: { status: ConsentParticipantStatus; role: string | undefined; group: ConsentGroup }[] = [
    // A witness sees signatureRequired entries as pendingSigneeCompletion...
    { status: "awaiting_clinro", role: WITNESS_ROLE, group: "pendingSigneeCompletion" },
    { status: "awaiting_clinro", role: " impartial witness ", group: "pendingSigneeCompletion" },
    { status: "awaiting_witness", role: WITNESS_ROLE, group: "witnessSignatureRequired" },
    // ...a non-witness sees witnessSignatureRequired entries so.
    { status: "awaiting_witness", role: COORDINATOR_ROLE, group: "pendingSigneeCompletion" },
    { status: "awaiting_witness", role: "11 Clinical Staff Level 1", group: "pendingSigneeCompletion" },
    { status: "awaiting_witness", role: undefined, group: "pendingSigneeCompletion" },
    { status: "awaiting_clinro", role: COORDINATOR_ROLE, group: "signatureRequired" },
    // The other groups are the same for every viewer.
    { status: "awaiting_participant", role: WITNESS_ROLE, group: "pendingCompletion" },
    { status: "awaiting_participant", role: COORDINATOR_ROLE, group: "pendingCompletion" },
    { status: "complete", role: WITNESS_ROLE, group: "completed" },
    { status: "complete", role: COORDINATOR_ROLE, group: "completed" },
    { status: "declined", role: WITNESS_ROLE, group: "declined" },
    { status: "declined", role: COORDINATOR_ROLE, group: "declined" },
  ];
  it.each(cases)("$status seen by $role is $group", ({ status, role, group }) => {
    expect(viewerGroupOfStatus(status, role)).toBe(group);
  });
});

describe("the action of each group", () => {
  const cases: { group: ConsentGroup; email: string | null; action: ConsentAction }[] = [
    { group: "signatureRequired", email: "a@b.test", action: { kind: "open" } },
    { group: "signatureRequired", email: null, action: { kind: "open" } },
    { group: "witnessSignatureRequired", email: null, action: { kind: "open" } },
    { group: "pendingSigneeCompletion", email: "a@b.test", action: { kind: "pending" } },
    { group: "pendingSigneeCompletion", email: null, action: { kind: "pending" } },
    // With an email, no button; otherwise the mail compose button.
    { group: "pendingCompletion", email: "a@b.test", action: { kind: "none" } },
    { group: "pendingCompletion", email: null, action: { kind: "mail", href: "mailto:" } },
    { group: "pendingCompletion", email: "  ", action: { kind: "mail", href: "mailto:" } },
    { group: "completed", email: "a@b.test", action: { kind: "download" } },
    { group: "completed", email: null, action: { kind: "download" } },
    { group: "declined", email: "a@b.test", action: { kind: "none" } },
    { group: "declined", email: null, action: { kind: "none" } },
  ];
  it.each(cases)("$group with email $email: $action.kind", ({ group, email, action }) => {
    expect(actionOfGroup(group, { email })).toEqual(action);
  });

  it("offers Start consent in pendingCompletion to a role that may sign in person, beside the mail action", () => {
    expect(actionOfGroup("pendingCompletion", { email: "a@b.test" }, COORDINATOR_ROLE)).toEqual({
      kind: "start",
    });
    expect(actionOfGroup("pendingCompletion", { email: null }, "11")).toEqual({
      kind: "start",
      mailHref: "mailto:",
    });
    // A witness does not take the participant's signature: the spec's actions.
    expect(actionOfGroup("pendingCompletion", { email: "a@b.test" }, WITNESS_ROLE)).toEqual({ kind: "none" });
    expect(actionOfGroup("pendingCompletion", { email: null }, WITNESS_ROLE)).toEqual({
      kind: "mail",
      href: "mailto:",
    });
    // Other groups are as before, whatever the role.
    expect(actionOfGroup("completed", { email: null }, COORDINATOR_ROLE)).toEqual({ kind: "download" });
    expect(actionOfGroup("pendingSigneeCompletion", { email: null }, COORDINATOR_ROLE)).toEqual({
      kind: "pending",
    });
  });

  it("lets every role but a witness start a consent", () => {
    expect(mayStartConsent(COORDINATOR_ROLE)).toBe(true);
    expect(mayStartConsent("11")).toBe(true);
    expect(mayStartConsent(WITNESS_ROLE)).toBe(false);
    expect(mayStartConsent(" impartial witness ")).toBe(false);
    expect(mayStartConsent(undefined)).toBe(false);
  });

  it("addresses the mail compose to the given address, encoded", () => {
    expect(mailComposeHref("ana+x@site.test")).toBe("mailto:ana%2Bx%40site.test");
  });
});

describe("groupParticipants", () => {
  const row = (id: number, status: ConsentParticipantStatus) => ({ id, consent_participant_status: status });
  const rows = [
    row(1, "complete"),
    row(2, "awaiting_witness"),
    row(3, "awaiting_clinro"),
    row(4, "declined"),
    row(5, "awaiting_clinro"),
    row(6, "awaiting_participant"),
  ];

  it("puts a coordinator's signatures first, then who is waited on, then the finished", () => {
    expect(
      groupParticipants(rows, COORDINATOR_ROLE).map(({ group, participants }) => [
        group,
        participants.map((p) => p.id),
      ]),
    ).toEqual([
      ["signatureRequired", [3, 5]],
      ["pendingSigneeCompletion", [2]],
      ["pendingCompletion", [6]],
      ["completed", [1]],
      ["declined", [4]],
    ]);
  });

  it("gives the witness the witness signatures and shows the clinician's as pending", () => {
    expect(
      groupParticipants(rows, WITNESS_ROLE).map(({ group, participants }) => [
        group,
        participants.map((p) => p.id),
      ]),
    ).toEqual([
      ["witnessSignatureRequired", [2]],
      ["pendingSigneeCompletion", [3, 5]],
      ["pendingCompletion", [6]],
      ["completed", [1]],
      ["declined", [4]],
    ]);
  });

  it("has no groups without participants", () => {
    expect(groupParticipants([], COORDINATOR_ROLE)).toEqual([]);
  });
});

describe("participant search: first name, last name, subject id or participant id", () => {
  const yuki = { id: 4217, firstname: "Yuki", lastname: "Rossi", subject_id: "MDD-1001" };
  it.each<[string, boolean]>([
    ["yuki", true],
    ["UK", true],
    ["ross", true],
    ["ROSSI", true],
    ["mdd-10", true],
    ["1001", true],
    ["421", true],
    ["4217", true],
    ["  rossi  ", true],
    ["", true],
    ["   ", true],
    ["Yuki Rossi", false],
    ["anderson", false],
    ["42170", false],
    ["mdd-2", false],
  ])("%j matches: %s", (text, matches) => {
    expect(participantMatches(yuki, text)).toBe(matches);
  });
});

describe("consent search: the title, case-insensitive substring", () => {
  const consent = { title: "Optional Genetic Sub-study Consent" };
  it.each<[string, boolean]>([
    ["genetic", true],
    ["SUB-STUDY", true],
    [" consent ", true],
    ["", true],
    ["main", false],
    ["genetics", false],
  ])("%j matches: %s", (text, matches) => {
    expect(consentTitleMatches(consent, text)).toBe(matches);
  });
});

describe("the search buttons are disabled on blank trimmed text", () => {
  it.each<[string, boolean]>([
    ["", true],
    ["  ", true],
    ["\t\n", true],
    ["a", false],
    [" main ", false],
  ])("%j is blank: %s", (text, blank) => {
    expect(isBlankFilter(text)).toBe(blank);
  });
});
