import { describe, expect, it } from "vitest";
import { eventRecord, postEventsRequest } from "../../../core/contracts/events.ts";
import { consentEvent } from "./consent-events.ts";

const context = { studyId: 101, participantId: 4321, consentId: 7, consentVersion: 2 };
const now = new Date("2026-11-27T10:00:00.000Z");

describe("consentEvent", () => {
  it("names the consent, its version, the study and the participant", () => {
    expect(consentEvent("submitFailed", context, now)).toEqual({
      type: "submitFailed",
      timestamp: "2026-11-27T10:00:00.000Z",
      info: { consent_id: 7, consent_version: 2, study_id: 101 },
      study_id: 101,
      participant: 4321,
    });
  });

  it("carries the extra info of parsingFailed and downloadFailed", () => {
    const parsing = consentEvent("parsingFailed", context, now, {
      question_id: "q9",
      question_type: "hologram",
    });
    expect(parsing.info).toMatchObject({ consent_id: 7, question_id: "q9", question_type: "hologram" });
    const download = consentEvent("downloadFailed", context, now, { reason: "Failed to fetch" });
    expect(download.info).toMatchObject({ consent_id: 7, reason: "Failed to fetch" });
  });

  it("is an event the events call accepts", () => {
    const events = (["submitFailed", "downloadFailed", "parsingFailed"] as const).map((type) =>
      consentEvent(type, context, now),
    );
    for (const event of events) expect(eventRecord.safeParse(event).success).toBe(true);
    expect(postEventsRequest.safeParse(events).success).toBe(true);
  });
});
