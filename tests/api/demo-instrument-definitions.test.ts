/**
 * The definition files the demo seeds (server/seed/instruments/*.json) are valid survey
 * definitions, and the kitchen sink really does use every question type and every comparator.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  COMPARATORS,
  QUESTION_TYPES,
  type ShowIfTerm,
  type SurveyDefinition,
} from "../../core/contracts/survey-definition.ts";
import {
  formatDefinitionProblem,
  parseSurveyDefinition,
} from "../../core/survey-engine/validate-definition.ts";

const directory = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../server/seed/instruments");
const files = readdirSync(directory).filter((name) => name.endsWith(".json"));

function parseFile(name: string): SurveyDefinition {
  const result = parseSurveyDefinition(JSON.parse(readFileSync(path.join(directory, name), "utf8")));
  if (!result.ok) throw new Error(`${name}:\n${result.problems.map(formatDefinitionProblem).join("\n")}`);
  return result.definition;
}

function comparatorsOf(terms: readonly ShowIfTerm[], depth = 0): { comparator: string; depth: number }[] {
  return terms.flatMap((term) =>
    term.comparator === "boolean_combine"
      ? [{ comparator: term.comparator, depth }, ...comparatorsOf(term.terms, depth + 1)]
      : [{ comparator: term.comparator, depth }],
  );
}

describe("the demo instrument definitions", () => {
  it("include HAM-D 17, CGI-S, the kitchen sink and the two reviews", () => {
    expect(files.sort()).toEqual([
      "adverse-events-review.json",
      "cgi-s.json",
      "ham-d-17.json",
      "kitchen-sink.json",
      "sleep-diary-review.json",
    ]);
  });

  it.each(files)("%s passes parseSurveyDefinition", (name) => {
    expect(parseFile(name).order.length).toBeGreaterThan(0);
  });

  it("HAM-D 17 has an introduction, then 17 required single-choice items scored 0-4 or 0-2, and a total", () => {
    const hamd = parseFile("ham-d-17.json");
    expect(hamd.questions[hamd.order[0]!]?.type).toBe("introduction");
    const items = hamd.order.slice(1).map((id) => hamd.questions[id]!);
    expect(items).toHaveLength(17);
    const maxima = items.map((item) => {
      expect(item.type).toBe("select_one");
      expect(item.attributes.required).toBe(true);
      return Math.max(...Object.values(item.choices ?? {}).map((choice) => choice.score_value ?? Number.NaN));
    });
    expect(maxima).toEqual([4, 4, 4, 2, 2, 2, 4, 4, 4, 4, 4, 2, 2, 2, 4, 2, 2]);
    expect(hamd.scores.map((score) => score.id)).toEqual(["total"]);
  });

  it("the kitchen sink uses every question type but consent_signature, every comparator and a nested boolean_combine", () => {
    const sink = parseFile("kitchen-sink.json");
    const questions = Object.values(sink.questions);
    const types = new Set(questions.map((question) => question.type));
    const expected = QUESTION_TYPES.filter((type) => type !== "consent_signature" && type !== "submission");
    expect([...types].sort()).toEqual([...expected].sort());
    const used = questions.flatMap((question) => comparatorsOf(question.logic?.show_if ?? []));
    for (const comparator of COMPARATORS) expect(used.map((term) => term.comparator)).toContain(comparator);
    expect(used.some((term) => term.comparator === "boolean_combine" && term.depth > 0)).toBe(true);
    const timeFormats = questions.filter((q) => q.type === "time").map((q) => q.attributes.time_format);
    expect(timeFormats.sort()).toEqual(["12h", "24h"]);
    const likertSizes = questions
      .filter((q) => q.type === "likert")
      .map((q) => Object.keys(q.choices ?? {}).length);
    expect(likertSizes.sort()).toEqual([5, 7]);
    expect(Object.keys(sink.siblings)).toHaveLength(1);
    expect(questions.some((q) => Object.values(q.choices ?? {}).some((choice) => choice.imageSrc))).toBe(
      true,
    );
    expect(sink.scores.length).toBeGreaterThan(0);
    expect(typeof (sink as Record<string, unknown>)._test_notes).toBe("string");
  });
});
