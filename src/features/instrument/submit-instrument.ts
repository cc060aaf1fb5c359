/**
 * The writes of a finished instrument (spec 02 section 4, "Submit"): one upload per photo its
 * answers name, then the submission call (header version 010), which the outbox sends only
 * after every upload arrived. The payload is built by the engine from the path actually taken.
 */
import { postSubmissionCall } from "../../../core/contracts/calls/instrument-calls.ts";
import { callPath } from "../../../core/contracts/http/define-call.ts";
import type { NewWrite } from "../../outbox/enqueue.ts";
import { uploadWrite } from "../../outbox/enqueue.ts";
import { recordsToSubmit, type FlowState } from "../../../core/survey-engine/flow.ts";
import type { SurveyDefinition } from "../../../core/contracts/survey-definition.ts";
import { buildSubmission } from "../../../core/survey-engine/submission.ts";
import { FILE_MODULE } from "../../../core/contracts/files.ts";

export type InstrumentSubmissionInput = {
  definition: SurveyDefinition;
  flow: FlowState;
  files: ReadonlyMap<string, Blob>;
  user: { id: number; username: string };
  instrumentId: number;
  participantId: number;
  /** The delivery being completed, when the page was opened from one. */
  instanceId: number | undefined;
  /** Removed by the outbox once the submission is delivered. */
  draftKey: string;
  label: string;
  now: Date;
};

/** The submission call's path (spec 02 section 7). */
export function submissionPath(participantId: number, instrumentId: number) {
  return callPath(postSubmissionCall, { participantId, instrumentId });
}

export function instrumentSubmissionWrites(input: InstrumentSubmissionInput): {
  uploads: NewWrite[];
  submission: NewWrite;
} {
  const payload = buildSubmission({
    definition: input.definition,
    records: recordsToSubmit(input.definition, input.flow),
    user: input.user,
    startTime: input.flow.startedAt,
    completion: input.now,
    portalVersion: __APP_VERSION__,
    instrumentId: input.instrumentId,
    browserInfo: navigator.userAgent,
    instanceId: input.instanceId,
    instrumentInstanceId: input.instanceId,
  });
  const uploads = payload.attachments.map((fileName) => {
    const blob = input.files.get(fileName);
    if (!blob) throw new Error(`The photo ${fileName} is missing from this device.`);
    return uploadWrite(blob, {
      file_name: fileName,
      module_name: FILE_MODULE.clinician,
      participant_id: input.participantId,
    });
  });
  return {
    uploads,
    submission: {
      kind: "submission",
      label: input.label,
      draftKey: input.draftKey,
      instrument: { id: input.instrumentId, instanceId: input.instanceId },
      request: {
        method: "POST",
        path: submissionPath(input.participantId, input.instrumentId),
        headers: { version: postSubmissionCall.headerVersion },
        body: { type: "json", value: [payload] },
      },
    },
  };
}
