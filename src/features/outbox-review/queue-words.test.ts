import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { participantKeys } from "../../api/participants-api.ts";
import { statusWord } from "./item-texts.ts";
import { cachedParticipant, enrolledHere, leftTheQueue } from "./queue-words.ts";
import type { ReviewItem } from "./visible-items.ts";

function review(id: string, overrides: Partial<ReviewItem> = {}): ReviewItem {
  return {
    id,
    kind: "event",
    userId: 1,
    username: "rater@example.org",
    label: id,
    sizeBytes: 100,
    createdAt: 0,
    attempts: 0,
    state: "pending",
    nextAttemptAt: 0,
    dependsOn: [],
    status: "queued",
    own: true,
    canExportAndDiscard: false,
    ...overrides,
  };
}

describe("the queue page's words", () => {
  it("tells waiting, sending and failed apart", () => {
    expect(statusWord("queued", false)).toBe("waiting");
    expect(statusWord("retrying", false)).toBe("waiting");
    expect(statusWord("waiting-for-dependencies", false)).toBe("waiting");
    expect(statusWord("waiting-for-sign-in", false)).toBe("waiting");
    expect(statusWord("retrying", true)).toBe("sending");
    expect(statusWord("failed", true)).toBe("failed");
  });

  it("reports as sent what left the queue, not what was discarded, and each item once", () => {
    const before = [review("a"), review("b"), review("c")];
    const after = [review("c")];
    expect(leftTheQueue(before, after, new Set(["b"])).map((item) => item.id)).toEqual(["a"]);
    expect(leftTheQueue(before, after, new Set(), new Set(["a"])).map((item) => item.id)).toEqual(["b"]);
    expect(leftTheQueue(before, before, new Set())).toEqual([]);
  });

  it("names a participant from what this device fetched of them", () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(participantKeys.detail(101, 1011, 7), {
      id: 7,
      fname: "Ana",
      lname: "Ruiz",
      subject_id: "MDD-0007",
    });
    expect(cachedParticipant(queryClient, 7)).toEqual({ name: "Ana Ruiz", subjectId: "MDD-0007" });
    expect(cachedParticipant(queryClient, 8)).toBeUndefined();
  });

  it("names a participant added on this device from their waiting enrolment", () => {
    const enrolment = review("enrol", {
      kind: "enrolment",
      participantId: -3,
      request: {
        method: "POST",
        path: "/control/studies/101/sites/1011/participants",
        body: { type: "json", value: { fname: "Luis", lname: "Vega", subject_id: "MDD-0099" } },
      },
    });
    expect(enrolledHere([enrolment], -3)).toEqual({ name: "Luis Vega", subjectId: "MDD-0099" });
    expect(enrolledHere([enrolment], -4)).toBeUndefined();
  });
});
