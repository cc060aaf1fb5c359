import { describe, expect, it } from "vitest";
import { eventsWrite } from "../outbox/enqueue.ts";
import type { OutboxItem } from "../outbox/outbox-item.ts";
import { announcementsReadInOutbox } from "./announcements-api.ts";

function queued(userId: number, events: unknown[], state: OutboxItem["state"] = "pending"): OutboxItem {
  const write = eventsWrite(events, "events");
  return {
    id: crypto.randomUUID(),
    ...write,
    userId,
    username: `user${userId}@demo.test`,
    sizeBytes: 10,
    createdAt: 0,
    attempts: 1,
    state,
    nextAttemptAt: 0,
    dependsOn: [],
  };
}

const read = (announcementId: unknown) => ({
  type: "read",
  timestamp: "2026-11-24T10:00:00Z",
  info: { announcement_id: announcementId },
});

describe("announcements read on this device but not yet on the server", () => {
  it("are those of this user's read events still in the outbox, waiting or refused", () => {
    const items = [
      queued(1, [read(5), { ...read(6), type: "seen" }]),
      queued(1, [read(7)], "failed"),
      queued(2, [read(8)]),
      queued(1, [read("9")]),
    ];
    expect([...announcementsReadInOutbox(items, 1)].sort()).toEqual([5, 7]);
  });

  it("are none when the outbox holds no events", () => {
    expect(announcementsReadInOutbox([], 1).size).toBe(0);
  });
});
