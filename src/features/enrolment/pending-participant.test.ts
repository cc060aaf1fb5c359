import { describe, expect, it } from "vitest";
import { enrolmentBodyOf, enrolmentWrite } from "../../api/enrolment-api.ts";
import { makeOutboxItem } from "../../outbox/enqueue.ts";
import type { OutboxItem } from "../../outbox/outbox-item.ts";
import { pendingEnrolmentOf } from "../../outbox/pending-enrolment.ts";
import { offlineConsents, offlineInstruments, writesWaitingFor } from "./pending-participant.ts";

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

describe("the consents a participant not yet on the server can sign here", () => {
  const list = {
    consents: [
      {
        study_id: 1,
        study_name: "Study",
        consents: [
          {
            consent_id: 7,
            title: "Main consent",
            type: "CONSENT",
            version: 2,
            date_deployed: "2026-01-01T00:00:00Z",
            missing_consents: 0,
          },
          {
            consent_id: 8,
            title: "Biobank",
            type: "CONSENT",
            version: 1,
            date_deployed: "2026-01-01T00:00:00Z",
            missing_consents: 0,
          },
          {
            consent_id: 9,
            title: "Genetics",
            type: "CONSENT",
            version: 3,
            date_deployed: "2026-01-01T00:00:00Z",
            missing_consents: 0,
          },
        ],
      },
      { study_id: 2, study_name: "Other", consents: [] },
    ],
  };
  const kept = new Set(["7@2", "8@1"]);
  const hasBlank = (consentId: number, version: number) => kept.has(`${consentId}@${version}`);

  it("are the study's consents whose blank version is kept on the device, by title", () => {
    expect(offlineConsents(list, 1, hasBlank, [])).toEqual([
      { consentId: 8, version: 1, title: "Biobank" },
      { consentId: 7, version: 2, title: "Main consent" },
    ]);
    expect(offlineConsents(list, 2, hasBlank, [])).toEqual([]);
    expect(offlineConsents(undefined, 1, hasBlank, [])).toEqual([]);
  });

  it("leave out a consent already signed here and waiting to be sent", () => {
    const consent = makeOutboxItem(
      {
        kind: "consent",
        label: "Main consent: Ada Lovelace",
        request: {
          method: "POST",
          path: "/control/v2/clinro/participant/-5/consent",
          body: { type: "json", value: { consent_id: 7, consent_version: 2, records: [] } },
        },
      },
      context,
    );
    expect(offlineConsents(list, 1, hasBlank, [consent]).map((entry) => entry.consentId)).toEqual([8]);
  });
});
