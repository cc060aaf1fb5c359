import { describe, expect, it } from "vitest";
import type { StudyPermission } from "../../../core/contracts/user.ts";
import type { ObservedItem } from "../../outbox-ui/use-outbox.ts";
import {
  canRetry,
  hiddenWaitingOfOthers,
  idsToRetry,
  isCoordinator,
  visibleOutboxGroups,
} from "./visible-items.ts";

const ME = 7;
const COLLEAGUE = 8;

function study(study_id: number, role: string): StudyPermission {
  return {
    study_id,
    study_name: `Study ${study_id}`,
    role,
    scope: ["ca"],
    sms_enabled: false,
    consent_2: false,
    sites: [],
  };
}

let counter = 0;
function item(overrides: Partial<ObservedItem> = {}): ObservedItem {
  counter += 1;
  return {
    id: `item-${counter}`,
    kind: "event",
    request: {
      method: "POST",
      path: "/control/participants/me/events",
      body: { type: "json", value: [{ type: "seen" }] },
    },
    userId: ME,
    username: "me@example.org",
    label: `Item ${counter}`,
    sizeBytes: 20,
    createdAt: counter,
    attempts: 0,
    state: "pending",
    nextAttemptAt: 0,
    dependsOn: [],
    status: "queued",
    ...overrides,
  };
}

const coordinator = { userId: ME, permissions: { 101: study(101, "11"), 102: study(102, "16") } };
const staff = { userId: ME, permissions: { 101: study(101, "13") } };

describe("isCoordinator", () => {
  it.each<[string, Record<string, StudyPermission> | undefined, boolean]>([
    ["role 16 in one study of several", { 1: study(1, "11"), 2: study(2, "16") }, true],
    ["role 16 in every study", { 1: study(1, "16") }, true],
    ["clinical staff levels only", { 1: study(1, "11"), 2: study(2, "12"), 3: study(3, "13") }, false],
    ["an impartial witness", { 1: study(1, "Impartial Witness") }, false],
    ["no permissions", {}, false],
    ["permissions not known", undefined, false],
  ])("%s: %s", (_case, permissions, expected) => {
    expect(isCoordinator(permissions)).toBe(expected);
  });
});

describe("which items a viewer sees", () => {
  it("shows other roles only their own items", () => {
    const mine = item();
    const theirs = item({ userId: COLLEAGUE });
    const ids = visibleOutboxGroups([mine, theirs], staff).flatMap((group) =>
      group.items.map((row) => row.id),
    );
    expect(ids).toEqual([mine.id]);
  });

  it("shows a coordinator every user's items", () => {
    const mine = item();
    const theirs = item({ userId: COLLEAGUE });
    const ids = visibleOutboxGroups([mine, theirs], coordinator).flatMap((group) =>
      group.items.map((row) => row.id),
    );
    expect(ids).toEqual([mine.id, theirs.id]);
  });

  it("gives a coordinator only the metadata of another user's item, never its payload", () => {
    const theirs = item({ userId: COLLEAGUE, state: "failed", status: "failed" });
    const [row] = visibleOutboxGroups([theirs], coordinator)[0]?.items ?? [];
    expect(row).toMatchObject({ id: theirs.id, label: theirs.label, own: false, canExportAndDiscard: false });
    expect(row).not.toHaveProperty("request");
  });

  it("keeps the request of the viewer's own items", () => {
    const mine = item();
    const [row] = visibleOutboxGroups([mine], coordinator)[0]?.items ?? [];
    expect(row?.own).toBe(true);
    expect(row?.request).toEqual(mine.request);
  });

  it.each([
    ["a refused item of one's own", ME, "failed", true],
    ["a waiting item of one's own", ME, "pending", false],
    ["a refused item of another user", COLLEAGUE, "failed", false],
  ] as const)("%s can be exported and discarded: %s", (_case, userId, state, expected) => {
    const [row] = visibleOutboxGroups([item({ userId, state })], coordinator)[0]?.items ?? [];
    expect(row?.canExportAndDiscard).toBe(expected);
  });
});

describe("other users' items the viewer is not shown", () => {
  it("counts them for a viewer who sees only their own, a form with its file as one", () => {
    const photo = item({ userId: COLLEAGUE, kind: "upload" });
    const form = item({ userId: COLLEAGUE, kind: "submission", dependsOn: [photo.id] });
    const items = [item(), photo, form, item({ userId: COLLEAGUE + 1 })];
    expect(hiddenWaitingOfOthers(items, staff)).toBe(2);
  });

  it("counts none when only the viewer's own items wait", () => {
    expect(hiddenWaitingOfOthers([item(), item()], staff)).toBe(0);
  });

  it("counts none for a coordinator, who is shown them", () => {
    expect(hiddenWaitingOfOthers([item({ userId: COLLEAGUE })], coordinator)).toBe(0);
  });
});

describe("grouping by participant", () => {
  it("groups by participant id in ascending order, items without a participant last", () => {
    const a = item({ participantId: 30 });
    const b = item();
    const c = item({ participantId: 4 });
    const d = item({ participantId: 30 });
    const groups = visibleOutboxGroups([a, b, c, d], staff);
    expect(groups.map((group) => [group.participantId, group.items.map((row) => row.id)])).toEqual([
      [4, [c.id]],
      [30, [a.id, d.id]],
      [undefined, [b.id]],
    ]);
  });

  it("keeps the outbox order, oldest first, inside a group", () => {
    const first = item({ participantId: 5, createdAt: 1 });
    const second = item({ participantId: 5, createdAt: 2 });
    const [group] = visibleOutboxGroups([first, second], staff);
    expect(group?.items.map((row) => row.id)).toEqual([first.id, second.id]);
  });

  it("shows nothing when nothing is queued", () => {
    expect(visibleOutboxGroups([], coordinator)).toEqual([]);
  });
});

describe("Retry all", () => {
  it("retries every waiting item the viewer sees and leaves refused items to be retried one by one", () => {
    const waiting = item({ status: "retrying", attempts: 2 });
    const refused = item({ state: "failed", status: "failed" });
    const theirs = item({ userId: COLLEAGUE });
    expect(idsToRetry(visibleOutboxGroups([waiting, refused, theirs], coordinator))).toEqual([
      waiting.id,
      theirs.id,
    ]);
    expect(idsToRetry(visibleOutboxGroups([waiting, refused, theirs], staff))).toEqual([waiting.id]);
  });
});

describe("what a retry can move", () => {
  it.each([
    ["queued", true],
    ["retrying", true],
    ["failed", true],
    ["waiting-for-sign-in", false],
    ["waiting-for-dependencies", false],
  ] as const)("an item that is %s can be retried: %s", (status, expected) => {
    expect(canRetry({ status })).toBe(expected);
  });

  it("leaves out of Retry all the items waiting for sign-in or for their files", () => {
    const waiting = item({ status: "queued" });
    const signIn = item({ status: "waiting-for-sign-in", userId: COLLEAGUE });
    const files = item({ status: "waiting-for-dependencies" });
    expect(idsToRetry(visibleOutboxGroups([waiting, signIn, files], coordinator))).toEqual([waiting.id]);
  });
});
