import { describe, expect, it } from "vitest";
import { enrolmentBodyOf, enrolmentWrite } from "../../api/enrolment-api.ts";
import { makeOutboxItem } from "../../outbox/enqueue.ts";
import type { OutboxItem } from "../../outbox/outbox-item.ts";
import { offlineInstruments, pendingEnrolmentOf, writesWaitingFor } from "./pending-participant.ts";

const CLIENT_ID = "0b0f6c9e-8f5e-4d52-9a43-4a1c2f2d7e11";
const fields = {
  subject_id: "GAD-7",
  fname: "Ada",
  lname: "Lovelace",
  date_of_birth: "1980-01-01",
  gender: null,
  email: null,
};
const context = { userId: 1, username: "c@demo.test", studyId: 1, siteId: 2, participantId: -5 };
const observed = (item: OutboxItem) => ({ ...item, status: "queued" as const });

describe("a participant not yet on the server", () => {
  it("is the enrolment the outbox holds under their provisional id", () => {
    const enrolment = makeOutboxItem(enrolmentWrite(1, 2, fields, CLIENT_ID), context);
    const found = pendingEnrolmentOf([observed(enrolment)], -5, enrolmentBodyOf);
    expect(found).toMatchObject({ state: "waiting", body: { ...fields, client_id: CLIENT_ID } });
    expect(pendingEnrolmentOf([observed(enrolment)], -6, enrolmentBodyOf)).toBeUndefined();
  });

  it("is shown refused when the server refused the enrolment", () => {
    const enrolment = {
      ...makeOutboxItem(enrolmentWrite(1, 2, fields, CLIENT_ID), context),
      state: "failed" as const,
    };
    expect(pendingEnrolmentOf([observed(enrolment)], -5, enrolmentBodyOf)?.state).toBe("refused");
  });

  it("lists the other writes queued for them, not the enrolment", () => {
    const enrolment = makeOutboxItem(enrolmentWrite(1, 2, fields, CLIENT_ID), context);
    const event = makeOutboxItem(
      {
        kind: "event",
        label: "seen",
        request: { method: "POST", path: "/e", body: { type: "json", value: [] } },
      },
      context,
    );
    expect(writesWaitingFor([enrolment, event], -5)).toEqual([event]);
  });

  it("offers the study's clinician instruments cached on the device that the role may administer", () => {
    const form = (instrument_id: number, name: string, permissions: string[], type = "CLINRO") => ({
      name,
      type: type as "CLINRO",
      instrument_id,
      instance_id: instrument_id * 10,
      deployed: "2026-11-01T00:00:00Z",
      expiration: null,
      completed: null,
      completedBy: null,
      permissions,
      url: `/studies/1/instruments/${instrument_id}/slug-${instrument_id}`,
    });
    const cached = [
      { studyId: 1, list: { instruments: [form(3, "HAM-D", ["16"]), form(4, "Diary", ["16"], "SURVEY")] } },
      { studyId: 1, list: { instruments: [form(3, "HAM-D", ["16"]), form(5, "CGI", ["11"])] } },
      { studyId: 2, list: { instruments: [form(6, "Other study", ["16"])] } },
    ];
    expect(offlineInstruments(cached, 1, "16")).toEqual([
      { instrumentId: 3, name: "HAM-D", segment: "slug-3" },
    ]);
  });
});
