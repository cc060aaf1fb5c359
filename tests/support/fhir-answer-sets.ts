/**
 * Answer sets for the FHIR tests: for any definition, deterministic answers to every question
 * type (choices, rows, numbers within their bounds, texts, dates, times, fields, drawings,
 * photos), some optional questions skipped, varied by a seed, as the engine records them.
 */
import type { AnswerEntry, AnswerRecord } from "../../core/contracts/survey-answers.ts";
import type { Question, SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import {
  choiceEntry,
  orderedChoices,
  orderedSubQuestions,
  valueEntry,
} from "../../core/survey-engine/answer-values.ts";

/** A tiny PNG, as a drawing's data URL. */
export const DRAWING =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function numberIn(question: Pick<Question, "attributes">, seed: number, index: number) {
  const min = question.attributes.min ?? 0;
  const max = question.attributes.max ?? 10;
  return min + ((seed * 3 + index) % (Math.floor(max - min) + 1));
}

function pick(question: Question, position: number) {
  const choices = orderedChoices(question);
  return choices[position % choices.length]!.id;
}

function entriesFor(question: Question, seed: number, index: number): AnswerEntry[] | undefined {
  const day = String(10 + ((seed + index) % 18)).padStart(2, "0");
  switch (question.type) {
    case "select_one":
    case "likert":
      return [choiceEntry(question, pick(question, seed * 7 + index))!];
    case "select_multiple":
      return orderedChoices(question)
        .filter((_, position) => (position + seed) % 2 === 0)
        .map(({ id }) => choiceEntry(question, id)!);
    case "matrix":
      return orderedSubQuestions(question).map((row, position) => ({
        ...choiceEntry(question, pick(question, seed + position))!,
        question: row.id,
      }));
    case "integer":
    case "numeric_rating_scale":
      return [valueEntry(numberIn(question, seed, index))];
    case "decimal":
      return [
        valueEntry(Math.min(numberIn(question, seed, index) + 0.5, question.attributes.max ?? Infinity)),
      ];
    case "text":
      return [valueEntry(`note ${seed}`)];
    case "date":
      return [valueEntry(`2026-11-${day}T00:00:00.000Z`)];
    case "datetime":
      return [valueEntry(`2026-11-${day}T14:30:00.000Z`)];
    case "time":
      return [valueEntry(`2026-11-${day}T0${seed % 10}:30:00+01:00`)];
    case "multiple_field":
      return orderedSubQuestions(question).map((field, position) => ({
        ...(field.type === "text"
          ? valueEntry(`120/${80 + seed}`)
          : valueEntry(numberIn(field, seed, position) + (field.type === "decimal" ? 0.5 : 0))),
        question: field.id,
      }));
    case "scribble":
      return [valueEntry(DRAWING, "drawing")];
    case "image_capture":
      return [valueEntry(`101_1_1_${question.id}_${seed}.jpeg`)];
    default:
      return undefined;
  }
}

/** Records for one answer set: optional questions skipped now and then, by the seed. */
export function answerSet(definition: SurveyDefinition, seed: number, now = new Date()): AnswerRecord[] {
  return definition.order.flatMap((id, index) => {
    const question = definition.questions[id]!;
    if (question.type === "introduction") return [makeRecord(question, [], now)];
    if (!question.attributes.required && (index + seed) % 4 === 0) return [];
    const entries = entriesFor(question, seed, index);
    return entries === undefined ? [] : [makeRecord(question, entries, now)];
  });
}
