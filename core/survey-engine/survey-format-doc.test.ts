import { describe, expect, it } from "vitest";
import { submissionRequest } from "../contracts/instrument-schemas.ts";
import doc from "../../docs/survey-format.md?raw";
import { surveyDefinitionJsonSchema } from "./definition-json-schema.ts";
import { QUESTION_TYPES } from "../contracts/survey-definition.ts";
import { formatDefinitionProblem, parseSurveyDefinition } from "./validate-definition.ts";

/** The ```json blocks of a part of the document, parsed. */
function jsonBlocks(text: string): unknown[] {
  return [...text.matchAll(/```json\n([\s\S]*?)\n```/g)].map((match) => JSON.parse(match[1]!) as unknown);
}

function section(heading: string): string {
  const start = doc.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/survey-format.md has no section "${heading}"`);
  const end = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

function problemsOf(json: unknown) {
  const parsed = parseSurveyDefinition(json);
  return parsed.ok ? [] : parsed.problems.map(formatDefinitionProblem);
}

describe("docs/survey-format.md", () => {
  it("embeds the JSON Schema generated from the definition schema (run scripts/print-survey-schema.ts)", () => {
    const [appendix] = jsonBlocks(section("Appendix: JSON Schema"));
    expect(appendix).toEqual(surveyDefinitionJsonSchema());
  });

  it("opens with an example that is a valid definition", () => {
    expect(problemsOf(jsonBlocks(section("A first example"))[0])).toEqual([]);
  });

  it("shows an example of every question type that a definition accepts", () => {
    const questions = jsonBlocks(section("Question types"))[0] as Record<string, { type: string }>;
    expect(problemsOf({ id: "doc", type: "CLINRO", order: Object.keys(questions), questions })).toEqual([]);
    expect(new Set(Object.values(questions).map((question) => question.type))).toEqual(
      new Set(QUESTION_TYPES),
    );
  });

  it("shows a submission body the submission call accepts", () => {
    expect(submissionRequest.safeParse(jsonBlocks(section("The submission"))[0]).success).toBe(true);
  });
});
