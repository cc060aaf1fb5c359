import { describe, expect, it } from "vitest";
import { eventsWrite, makeOutboxItem } from "./enqueue.ts";
import { failedDependencies, itemStatus } from "./item-status.ts";

const context = { userId: 1, username: "a@demo.test" };
const canSend = () => true;

describe("how a queued item stands", () => {
  const upload = makeOutboxItem(eventsWrite([], "upload"), context, 1);
  const submission = { ...makeOutboxItem(eventsWrite([], "submission"), context, 2), dependsOn: [upload.id] };

  it("is queued before any attempt", () => {
    expect(itemStatus(upload, [upload], canSend)).toBe("queued");
  });
  it("is retrying after a failed attempt", () => {
    expect(itemStatus({ ...upload, attempts: 2 }, [upload], canSend)).toBe("retrying");
  });
  it("waits for the items it depends on", () => {
    expect(itemStatus(submission, [upload, submission], canSend)).toBe("waiting-for-dependencies");
    expect(itemStatus(submission, [submission], canSend)).toBe("queued");
  });
  it("waits for sign-in when its user has no usable token", () => {
    expect(itemStatus(upload, [upload], () => false)).toBe("waiting-for-sign-in");
  });
  it("is failed when the server refused it", () => {
    expect(itemStatus({ ...upload, state: "failed" }, [upload], canSend)).toBe("failed");
  });
  it("lists the uploads of a submission that did not go through", () => {
    const failedUpload = { ...upload, lastError: { kind: "network" as const, message: "x", at: 1 } };
    expect(failedDependencies(submission, [failedUpload, submission])).toEqual([failedUpload]);
    expect(failedDependencies(submission, [upload, submission])).toEqual([]);
  });
});
