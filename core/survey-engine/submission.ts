/**
 * The submission payload (spec 02 section 3, "Submission payload"): the survey copy the
 * clinician answered plus who, when, which version, the answer records and the computed scores.
 * The submission call's body is a JSON array holding exactly one payload
 * (core/contracts/instrument-schemas.ts, submissionRequest); its schema is the wire's
 * (core/contracts/survey-submission.ts).
 *
 * This module builds the payload from plain inputs; it does not send it (the outbox does) and
 * does not check answers against the definition (validate-submission.ts does, on the server).
 */
import type { AnswerRecord } from "../contracts/survey-answers.ts";
import type { SurveyDefinition } from "../contracts/survey-definition.ts";
import { BROWSER_INFO_MAX_CHARACTERS, type SubmissionPayload } from "../contracts/survey-submission.ts";
import { scoreSurvey } from "./scores.ts";

/** The survey copy kept while answering: the definition with state and start time, no url. */
export type SurveyCopy = SurveyDefinition & {
  url?: undefined;
  state: "INCOMPLETE" | "COMPLETE";
  start_time: string;
};

/**
 * A copy of the definition stamped INCOMPLETE (while answering) or COMPLETE (when finalised),
 * with the start time, and without its url (spec 02 section 3).
 */
export function stampSurveyCopy(
  definition: SurveyDefinition,
  state: "INCOMPLETE" | "COMPLETE",
  startTime: Date | string,
): SurveyCopy {
  const { url: _url, ...rest } = definition;
  return { ...structuredClone(rest), state, start_time: toIso(startTime) };
}

function toIso(time: Date | string) {
  return typeof time === "string" ? new Date(time).toISOString() : time.toISOString();
}

/** The definition's version as a whole number, when it has one ("3" counts as 3). */
export function versionNumberOf(definition: Pick<SurveyDefinition, "version">): number | undefined {
  const version = definition.version;
  if (typeof version === "number") return version;
  if (typeof version === "string" && /^\d+$/.test(version)) return Number(version);
  return undefined;
}

/** The file names the image capture answers refer to, each once, in answer order. */
export function attachmentsOf(records: readonly AnswerRecord[]): string[] {
  const names = new Set<string>();
  for (const record of records) {
    if (record.type !== "image_capture" || record.state !== "ANSWERED") continue;
    for (const entry of record.answer) {
      if (typeof entry.value === "string" && entry.value !== "") names.add(entry.value);
    }
  }
  return [...names];
}

/** A random v4 UUID; uses crypto.randomUUID where it exists (secure contexts and Node). */
export function newInstanceId(): string {
  const cryptoApi = crypto;
  if (typeof cryptoApi.randomUUID === "function") return cryptoApi.randomUUID();
  const bytes = cryptoApi.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type SubmissionInput = {
  definition: SurveyDefinition;
  /** The records of the questions shown, in shown order (flow.ts recordsToSubmit). */
  records: readonly AnswerRecord[];
  user: { id: number; username: string };
  startTime: Date | string;
  completion: Date;
  /** The portal's version (package.json), e.g. "3.75.1". */
  portalVersion: string;
  instrumentId: number;
  browserInfo: string;
  /** The instance being completed; a new UUID when absent. */
  instanceId?: number | string | undefined;
  instrumentInstanceId?: number | undefined;
  /** The definition version answered; defaults to definition.version. */
  versionNumber?: number | undefined;
};

/**
 * Builds the submission payload: the survey copy stamped COMPLETE, the records as given, the
 * scores computed from them, and who, when and which versions. Throws when the definition
 * version is not known (neither versionNumber nor a numeric definition.version).
 */
export function buildSubmission(input: SubmissionInput): SubmissionPayload {
  const { definition, records } = input;
  const versionNumber = input.versionNumber ?? versionNumberOf(definition);
  if (versionNumber === undefined) {
    throw new Error("The survey definition has no version number to name in the submission.");
  }
  const byId = new Map(records.map((record) => [record.id, record]));
  const payload: SubmissionPayload = {
    ...stampSurveyCopy(definition, "COMPLETE", input.startTime),
    answers: records.map((record) => structuredClone(record)),
    scores: scoreSurvey(definition, (questionId) => byId.get(questionId)),
    completed_by: input.user.id,
    completion: input.completion.toISOString(),
    identity: input.user.username,
    state: "COMPLETE",
    start_time: toIso(input.startTime),
    version: input.portalVersion,
    version_number: versionNumber,
    attachments: attachmentsOf(records),
    instrument_id: input.instrumentId,
    id: definition.id,
    browser_info: input.browserInfo.slice(0, BROWSER_INFO_MAX_CHARACTERS),
    instance_id: input.instanceId ?? newInstanceId(),
  };
  if (input.instrumentInstanceId !== undefined) payload.instrument_instance_id = input.instrumentInstanceId;
  return payload;
}
