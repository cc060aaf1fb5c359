/**
 * The writes of a finished consent session (spec 02 section 4, "Submit"):
 * one upload per signature image its answers name (module consent), then the consent call
 * (header version 010) through the clinician endpoint, or the witness endpoint when the user is
 * a witness. The outbox sends the consent only after its uploads; its id is the Idempotency-Key,
 * so a consent signed offline is stored once however often it is sent.
 *
 * Only this session's records are sent (the earlier sessions' are read-only), and a clinician or
 * witness signature carries the password's ciphertext, never the password.
 */
import {
  CONSENT_UPLOAD_MODULE,
  type ConsentSigning,
  type ConsentSubmissionBody,
} from "../../../core/contracts/consent-schemas.ts";
import {
  postClinicianConsentCall,
  postWitnessConsentCall,
} from "../../../core/contracts/calls/consent-calls.ts";
import { callPath } from "../../../core/contracts/http/define-call.ts";
import type { NewWrite } from "../../outbox/enqueue.ts";
import { uploadWrite } from "../../outbox/enqueue.ts";
import type { AnswerRecord } from "../../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../../core/contracts/survey-definition.ts";
import { BROWSER_INFO_MAX_CHARACTERS } from "../../../core/contracts/survey-submission.ts";
import { recordsToSubmit, type FlowState } from "../../../core/survey-engine/flow.ts";
import { sessionRecords } from "../../../core/survey-engine/consent-filter.ts";
import { consentStatusOf, mergeRecords } from "../../../core/survey-engine/consent-status.ts";
import {
  isoWithOffset,
  needsPassword,
  signatureFileOf,
  signerRoleOf,
} from "../../survey/questions/consent-signature-model.ts";

export type ConsentSubmissionInput = {
  /** The definition as this session walks it (consent-filter.ts's consentSession). */
  definition: SurveyDefinition;
  /** The consent as published, every signer's questions in its order. */
  consentDefinition: SurveyDefinition;
  /** What the earlier sessions signed, as the server holds it. */
  earlierRecords: readonly AnswerRecord[];
  flow: FlowState;
  readOnlyIds: ReadonlySet<string>;
  files: ReadonlyMap<string, Blob>;
  consentId: number;
  consentVersion: number;
  participantId: number;
  asWitness: boolean;
  /** The password proof of this session's staff signature, when it has one. */
  signing: ConsentSigning | undefined;
  draftKey: string;
  label: string;
  now: Date;
  browserInfo: string;
};

/** Whether this session's records hold a clinician or witness signature (which needs `signing`). */
export function holdsStaffSignature(definition: SurveyDefinition, records: readonly AnswerRecord[]) {
  return records.some((record) => {
    const question = definition.questions[record.id];
    return (
      question?.type === "consent_signature" &&
      record.answer.length > 0 &&
      needsPassword(signerRoleOf(question))
    );
  });
}

export function consentSubmissionWrites(input: ConsentSubmissionInput): {
  uploads: NewWrite[];
  consent: NewWrite;
  body: ConsentSubmissionBody;
} {
  const records = sessionRecords(recordsToSubmit(input.definition, input.flow), input.readOnlyIds);
  const uploads: NewWrite[] = [];
  for (const record of records) {
    if (record.type !== "consent_signature") continue;
    const fileName = signatureFileOf(record.answer[0]);
    if (!fileName) continue;
    const blob = input.files.get(fileName);
    if (!blob) throw new Error(`The signature image ${fileName} is missing from this device.`);
    uploads.push(
      uploadWrite(blob, {
        file_name: fileName,
        module_name: CONSENT_UPLOAD_MODULE,
        participant_id: input.participantId,
      }),
    );
  }
  const staffSigned = holdsStaffSignature(input.definition, records);
  if (staffSigned && !input.signing) throw new Error("A staff signature needs the signer's password.");
  const body: ConsentSubmissionBody = {
    consent_id: input.consentId,
    consent_version: input.consentVersion,
    records,
    completion: isoWithOffset(input.now),
    browser_info: input.browserInfo.slice(0, BROWSER_INFO_MAX_CHARACTERS),
    ...(staffSigned && input.signing ? { signing: input.signing } : {}),
  };
  return {
    uploads,
    body,
    consent: {
      kind: "consent",
      label: input.label,
      draftKey: input.draftKey,
      // With the earlier sessions' signatures: whether the consent is complete once this one is stored.
      consent: {
        id: input.consentId,
        completes:
          consentStatusOf(input.consentDefinition, mergeRecords([input.earlierRecords, records])) ===
          "complete",
      },
      request: {
        method: "POST",
        path: callPath(input.asWitness ? postWitnessConsentCall : postClinicianConsentCall, {
          participantId: input.participantId,
        }),
        headers: {
          version: (input.asWitness ? postWitnessConsentCall : postClinicianConsentCall).headerVersion,
        },
        body: { type: "json", value: body },
      },
    },
  };
}
