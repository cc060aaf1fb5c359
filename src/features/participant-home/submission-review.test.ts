import { describe, expect, it } from "vitest";
import type { HistoryCompletedItem } from "../../../core/contracts/instrument-schemas.ts";
import { submissionOf } from "./submission-review.tsx";

const item = (
  submissionId: number,
  instrumentId: number,
  instanceId: number | null,
): HistoryCompletedItem => ({
  submission_id: submissionId,
  instrument_id: instrumentId,
  name: "HAM-D 17",
  instance_id: instanceId,
  completion: "2026-11-27T10:00:00.000Z",
  completed_by: "Carmen Ortiz",
  version_number: 1,
  scores: [],
});

describe("submissionOf", () => {
  it("finds the delivery's submission by instrument and instance, the newest first", () => {
    const history = [item(9, 13, 501), item(7, 13, 500), item(5, 13, 501), item(4, 14, 500)];
    expect(submissionOf(history, 13, 501)?.submission_id).toBe(9);
    expect(submissionOf(history, 13, 500)?.submission_id).toBe(7);
    expect(submissionOf(history, 14, 500)?.submission_id).toBe(4);
    expect(submissionOf(history, 14, 501)).toBeUndefined();
  });
});
