/**
 * Round trip: every demo instrument → FHIR R4 Questionnaire → the FHIR import gives
 * back the same questions (ids, types, labels), choices (ids, labels, scores), show-if logic and
 * scores, and the same score values on the same answers.
 *
 * Twice: as exported, with the portal's own extensions (nothing may be lost, and the import
 * reports nothing); and with those extensions removed, as another FHIR system would keep the
 * Questionnaire: what FHIR itself carries (ids, labels, choices and their ordinalValue scores,
 * enableWhen logic, calculatedExpression sums) must still come back with the same meaning, and
 * what it cannot carry is either named in the import report or listed here as the known loss.
 */
import { describe, expect, it } from "vitest";
import type { Question, SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { lookupOf } from "../../core/survey-engine/flow.ts";
import { scoreSurvey } from "../../core/survey-engine/scores.ts";
import { isShown } from "../../core/survey-engine/show-if.ts";
import { readFhirQuestionnaire } from "../../server/instrument-import/fhir/read-fhir-questionnaire.ts";
import { DEMO_INSTRUMENTS, readDemoDefinition } from "../../server/seed/demo-instruments.ts";
import {
  CALCULATED_EXPRESSION_URL,
  type Extension,
  type Questionnaire,
  type QuestionnaireItem,
} from "../../server/study-export/fhir/fhir-resources.ts";
import { questionnaireOfDefinition } from "../../server/study-export/fhir/questionnaire-of.ts";
import { answerSet } from "../support/fhir-answer-sets.ts";
import { fhirSchemaErrors } from "../support/fhir-schema.ts";
import { parseDefinitionOrThrow } from "../support/submissions.ts";

const DEMO_SLUGS = DEMO_INSTRUMENTS.filter((instrument) => instrument.definition !== undefined).map(
  (instrument) => instrument.slug,
);
const SEEDS = [0, 1, 2, 3, 4, 5];

function exported(slug: string) {
  const definition = parseDefinitionOrThrow(readDemoDefinition(slug));
  const questionnaire = questionnaireOfDefinition(definition, {
    url: `urn:clinro:study-101:questionnaire:${slug}`,
    version: 1,
    name: slug,
  });
  return { definition, questionnaire };
}

function imported(questionnaire: Questionnaire, slug: string) {
  return readFhirQuestionnaire(new TextEncoder().encode(JSON.stringify(questionnaire)), `${slug}.json`);
}

/** The scores of `definition` on the answer set `seed` made for `answered` (the original). */
function scoreValues(definition: SurveyDefinition, seed: number, answered = definition) {
  const lookup = lookupOf(answerSet(answered, seed, new Date("2026-11-27T10:00:00Z")));
  return Object.fromEntries(scoreSurvey(definition, lookup).map((score) => [score.id, score.final_value]));
}

function choicesOf(question: Question | undefined) {
  return (question?.choices_order ?? []).map((id) => ({
    id,
    label: question?.choices?.[id]?.label,
    score: question?.choices?.[id]?.score_value,
  }));
}

/** The Questionnaire as a system that drops extensions it does not know would keep it. */
function withoutPortalExtensions<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutPortalExtensions) as T;
  if (typeof value !== "object" || value === null) return value;
  const kept = Object.entries(value).flatMap(([key, inner]) => {
    if (key !== "extension") return [[key, withoutPortalExtensions(inner)]];
    const standard = (inner as Extension[]).filter((extension) => !extension.url.startsWith("urn:clinro:"));
    return standard.length > 0 ? [[key, standard]] : [];
  });
  return Object.fromEntries(kept) as T;
}

function itemsOf(items: readonly QuestionnaireItem[] | undefined): QuestionnaireItem[] {
  return (items ?? []).flatMap((item) => [item, ...itemsOf(item.item)]);
}

describe("FHIR round trip of the demo instruments, as exported", () => {
  it.each(DEMO_SLUGS)("%s comes back unchanged, with the same score values", (slug) => {
    const { definition, questionnaire } = exported(slug);
    expect(fhirSchemaErrors(questionnaire)).toEqual([]);

    const back = imported(questionnaire, slug);
    expect(back.report).toEqual([]);
    expect(back.slug).toBe(slug);
    expect(back.title).toBe(definition.title);
    // Questions, choices, logic, siblings and every other field as they were; a score's formula
    // may come back written differently (a sum as sum(...)), so its values are compared below.
    expect(back.definition).toEqual({
      ...definition,
      scores: definition.scores.map((score) => ({ ...score, formula: expect.any(String) })),
    });
    for (const seed of SEEDS) {
      expect(scoreValues(back.definition, seed, definition), `answer set ${seed}`).toEqual(
        scoreValues(definition, seed),
      );
    }
  });

  it("the answer sets give the scores non-trivial values (the comparison above can fail)", () => {
    const { definition } = exported("ham-d-17");
    const totals = new Set(SEEDS.map((seed) => scoreValues(definition, seed).total));
    expect(totals.size).toBeGreaterThan(1);
    const kitchen = exported("kitchen-sink").definition;
    expect(SEEDS.map((seed) => scoreValues(kitchen, seed).wellbeing).some((value) => value! > 0)).toBe(true);
  });
});

/** What FHIR itself cannot carry for the demo instruments, without the portal's extensions. */
const KNOWN_TYPE_LOSS: Record<string, string> = {
  introduction: "prompt",
  pdf: "prompt",
  likert: "select_one",
  scribble: "image_capture",
};

describe("FHIR round trip of the demo instruments, as another FHIR system keeps them", () => {
  it.each(DEMO_SLUGS)("%s keeps its questions, choices, enableWhen logic and summed scores", (slug) => {
    const { definition, questionnaire } = exported(slug);
    const standard = withoutPortalExtensions(questionnaire);
    expect(fhirSchemaErrors(standard)).toEqual([]);
    const back = imported(standard, `${slug}-standard`);
    const items = new Map(itemsOf(questionnaire.item).map((item) => [item.linkId, item]));

    for (const id of definition.order) {
      const original = definition.questions[id]!;
      if (original.type === "multiple_field") {
        // FHIR has no multiple field: a group of fields, read back as separate questions, and
        // the report says so.
        expect(back.report).toContainEqual({
          source: id,
          problem: expect.stringContaining("one after the other"),
        });
        for (const field of original.questions_order ?? []) {
          expect(back.definition.questions[`${id}_${field}`]?.type).toBe(original.questions?.[field]?.type);
        }
        continue;
      }
      const copy = back.definition.questions[id];
      expect(copy, id).toBeDefined();
      expect(copy!.label).toBe(original.label);
      expect(copy!.type).toBe(KNOWN_TYPE_LOSS[original.type] ?? original.type);
      expect(choicesOf(copy)).toEqual(choicesOf(original));
      expect(copy!.attributes.required).toBe(original.attributes.required);
      if (original.type === "matrix") expect(copy!.questions_order).toEqual(original.questions_order);
      // Logic FHIR could say (enableWhen) comes back with the same meaning; logic it could not
      // say was only in the portal's extension, so the question is then always shown.
      if ((items.get(id)?.enableWhen ?? []).length > 0) {
        for (const seed of SEEDS) {
          const lookup = lookupOf(answerSet(definition, seed));
          expect(isShown(copy!, lookup, back.definition), `${id}, answer set ${seed}`).toBe(
            isShown(original, lookup, definition),
          );
        }
      } else {
        expect(copy!.logic, id).toBeUndefined();
      }
    }

    // Scores written as a calculatedExpression come back with the same values; the others
    // were only in the portal's extension and are not there.
    const summed = definition.scores.filter((score) =>
      items
        .get(`score:${score.id}`)
        ?.extension?.some((extension) => extension.url === CALCULATED_EXPRESSION_URL),
    );
    expect(back.definition.scores.map((score) => score.id)).toEqual(summed.map((score) => score.id));
    for (const seed of SEEDS) {
      const original = scoreValues(definition, seed);
      const copy = scoreValues(back.definition, seed, definition);
      for (const score of summed)
        expect(copy[score.id], `${score.id}, answer set ${seed}`).toBe(original[score.id]);
    }
  });

  it("every demo score is a plain sum FHIR can calculate, and most show-if logic is enableWhen", () => {
    for (const slug of DEMO_SLUGS) {
      const { definition, questionnaire } = exported(slug);
      const items = new Map(itemsOf(questionnaire.item).map((item) => [item.linkId, item]));
      for (const score of definition.scores) {
        const expression = items
          .get(`score:${score.id}`)
          ?.extension?.find((extension) => extension.url === CALCULATED_EXPRESSION_URL);
        expect(expression?.valueExpression?.expression, `${slug} ${score.id}`).toMatch(/\.sum\(\)$/);
      }
    }
    const kitchen = exported("kitchen-sink").questionnaire;
    const withLogic = itemsOf(kitchen.item).filter((item) => (item.enableWhen ?? []).length > 0);
    expect(withLogic.map((item) => item.linkId)).toEqual(
      expect.arrayContaining(["symptoms", "red_note", "notes_missing", "wake_time", "pain_severe", "vitals"]),
    );
  });
});
