/**
 * Builds submission payloads for the API tests the way the app does: the definition as the
 * definition call serves it, answer records made by the engine, and the engine's
 * buildSubmission. Tests then break one thing to see it refused.
 */
import { unzipSync, strFromU8 } from "fflate";
import type { LightMyRequestResponse } from "fastify";
import { choiceEntry } from "../../core/survey-engine/answer-values.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import type { AnswerEntry, AnswerRecord } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { buildSubmission } from "../../core/survey-engine/submission.ts";
import { type SubmissionPayload } from "../../core/contracts/survey-submission.ts";
import {
  formatDefinitionProblem,
  parseSurveyDefinition,
} from "../../core/survey-engine/validate-definition.ts";

/** The body of a definition call's answer: JSON, or the one JSON file of a zip. */
export function definitionJsonOf(response: LightMyRequestResponse): unknown {
  if (String(response.headers["content-type"]).startsWith("application/zip")) {
    const files = unzipSync(new Uint8Array(response.rawPayload));
    const [only] = Object.values(files);
    if (!only || Object.keys(files).length !== 1) throw new Error("the zip does not hold exactly one file");
    return JSON.parse(strFromU8(only));
  }
  return response.json();
}

export function parseDefinitionOrThrow(json: unknown): SurveyDefinition {
  const result = parseSurveyDefinition(json);
  if (!result.ok) throw new Error(result.problems.map(formatDefinitionProblem).join("\n"));
  return result.definition;
}

/** An answer that picks a choice of a question (select one, likert, a select multiple's choice). */
export function chosen(definition: SurveyDefinition, questionId: string, choiceId: string): AnswerEntry {
  const question = definition.questions[questionId];
  if (!question) throw new Error(`no question ${questionId}`);
  const entry = choiceEntry(question, choiceId);
  if (!entry) throw new Error(`no choice ${choiceId} in ${questionId}`);
  return entry;
}

/**
 * Records for the given answers, in the definition's order; introductions are recorded too, as
 * the flow does when the clinician passes them.
 */
export function recordsFor(
  definition: SurveyDefinition,
  answers: Record<string, AnswerEntry[]>,
  now = new Date(),
): AnswerRecord[] {
  return definition.order.flatMap((id) => {
    const question = definition.questions[id]!;
    if (question.type === "introduction") return [makeRecord(question, [], now)];
    const entries = answers[id];
    return entries === undefined ? [] : [makeRecord(question, entries, now)];
  });
}

export type PayloadOptions = {
  user: { id: number; username: string };
  instrumentId: number;
  instanceId?: number | string;
  instrumentInstanceId?: number;
  completion?: Date;
};

export function payloadFor(
  definition: SurveyDefinition,
  answers: Record<string, AnswerEntry[]>,
  options: PayloadOptions,
): SubmissionPayload {
  const completion = options.completion ?? new Date();
  return buildSubmission({
    definition,
    records: recordsFor(definition, answers, completion),
    user: options.user,
    startTime: new Date(completion.getTime() - 10 * 60 * 1000),
    completion,
    portalVersion: "3.75.1",
    instrumentId: options.instrumentId,
    browserInfo: "vitest",
    instanceId: options.instanceId,
    instrumentInstanceId: options.instrumentInstanceId,
  });
}
