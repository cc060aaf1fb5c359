/**
 * The FHIR R4 Questionnaire import (server/instrument-import/fhir/): the PHQ-9, GAD-7 and HAM-A
 * fixtures (LHC-Forms style, each valid against the FHIR R4 schema) read into definitions the
 * engine accepts, with the scores they define on the same answers; everything not mapped named
 * in the report; unreadable files refused with the reason. Then `clinro instrument import
 * --from fhir` on PGlite and PostgreSQL: stored as an instrument, submitted and scored by the
 * server, a refused file storing nothing, and a Questionnaire of the study's own FHIR export
 * imported back as the same instrument.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AnswerEntry } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import { lookupOf } from "../../core/survey-engine/flow.ts";
import { scoreSurvey } from "../../core/survey-engine/scores.ts";
import { isShown } from "../../core/survey-engine/show-if.ts";
import { parseSurveyDefinition } from "../../core/survey-engine/validate-definition.ts";
import { readFhirQuestionnaire } from "../../server/instrument-import/fhir/read-fhir-questionnaire.ts";
import { studies } from "../../server/db/schema.ts";
import { ImportError } from "../../server/instruments/import-instrument.ts";
import type { Bundle, Questionnaire } from "../../server/study-export/fhir/fhir-resources.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import {
  definitionVersions,
  importedInstrument,
  importInstrument,
  temporaryFolder,
} from "../support/cli-runs.ts";
import { fhirSchemaErrors } from "../support/fhir-schema.ts";
import { rowCounts } from "../support/row-counts.ts";
import { chosen, parseDefinitionOrThrow } from "../support/submissions.ts";
import {
  newParticipant,
  postSubmissionAsDemoCoordinator,
  servedDefinition,
} from "../support/submitted-study.ts";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/standards/fhir");
const FIXTURES = ["phq-9", "gad-7", "ham-a"] as const;

const fixturePath = (name: string) => path.join(fixtures, `${name}.questionnaire.json`);

async function fixture(name: (typeof FIXTURES)[number]) {
  return new Uint8Array(await readFile(fixturePath(name)));
}

async function importFixture(name: (typeof FIXTURES)[number]) {
  return readFhirQuestionnaire(await fixture(name), `${name}.questionnaire.json`);
}

function readJson(json: unknown, fileName = "questionnaire.json") {
  return readFhirQuestionnaire(new TextEncoder().encode(JSON.stringify(json)), fileName);
}

/** Picks, for each listed select question, the choice at that position of its choices_order. */
function scoresFor(definition: SurveyDefinition, positions: Record<string, number>) {
  const now = new Date("2026-11-27T10:00:00Z");
  const records = Object.entries(positions).map(([id, position]) => {
    const question = definition.questions[id]!;
    const choiceId = question.choices_order![position]!;
    return makeRecord(question, [chosen(definition, id, choiceId)], now);
  });
  return Object.fromEntries(
    scoreSurvey(definition, lookupOf(records)).map((score) => [score.id, score.final_value]),
  );
}

const itemIds = (definition: SurveyDefinition) =>
  definition.order.filter((id) => definition.questions[id]!.type === "select_one");

describe("FHIR Questionnaire fixtures (PHQ-9, GAD-7, HAM-A)", () => {
  it.each(FIXTURES)("%s validates against the FHIR R4 schema", async (name) => {
    expect(fhirSchemaErrors(JSON.parse(await readFile(fixturePath(name), "utf8")))).toEqual([]);
  });

  it.each(FIXTURES)("%s reads into a definition the engine accepts", async (name) => {
    const imported = await importFixture(name);
    expect(parseSurveyDefinition(imported.definition).ok).toBe(true);
  });

  it("PHQ-9: nine scored items 0 to 3, the total as a score, the difficulty item's enableWhen as show-if", async () => {
    const { definition, title, slug, report } = await importFixture("phq-9");
    expect(title).toBe("PHQ-9 quick depression assessment panel");
    expect(slug).toBe("phq_9");
    const items = itemIds(definition).slice(0, 9);
    expect(items).toHaveLength(9);
    const first = definition.questions[items[0]!]!;
    expect(first).toMatchObject({
      label: "1. Little interest or pleasure in doing things",
      name: "/44250-9",
      attributes: { required: true },
    });
    expect(first.choices_order!.map((id) => first.choices![id])).toEqual([
      { label: "Not at all", score_value: 0 },
      { label: "Several days", score_value: 1 },
      { label: "More than half the days", score_value: 2 },
      { label: "Nearly every day", score_value: 3 },
    ]);
    expect(definition.scores).toHaveLength(1);
    const total = definition.scores[0]!.id;
    expect(scoresFor(definition, Object.fromEntries(items.map((id) => [id, 3])))[total]).toBe(27);
    expect(scoresFor(definition, Object.fromEntries(items.map((id, index) => [id, index % 4])))[total]).toBe(
      0 + 1 + 2 + 3 + 0 + 1 + 2 + 3 + 0,
    );
    // Unanswered items count 0 here; the source shows no total then, and the report says so.
    expect(scoresFor(definition, { [items[0]!]: 2 })[total]).toBe(2);
    expect(report).toContainEqual({
      source: "/44261-6",
      problem:
        "the source shows no total until an item is answered; the portal's score counts unanswered items 0",
    });
    // Its LOINC codes have no place in a definition: named, never dropped silently.
    expect(report).toContainEqual({
      source: "/44250-9",
      problem: "code http://loinc.org|44250-9 not imported",
    });

    const difficulty = definition.questions["69722-7"]!;
    expect(difficulty.logic?.operator).toBe("or");
    const allNo = lookupOf(
      items.map((id) =>
        makeRecord(definition.questions[id]!, [chosen(definition, id, "LA6568-5")], new Date()),
      ),
    );
    expect(isShown(difficulty, allNo, definition)).toBe(false);
    const oneYes = lookupOf([
      makeRecord(definition.questions[items[4]!]!, [chosen(definition, items[4]!, "LA6570-1")], new Date()),
    ]);
    expect(isShown(difficulty, oneYes, definition)).toBe(true);
  });

  it("GAD-7: its group is a sibling group, the contained ValueSet's itemWeight the scores, total 0 to 21", async () => {
    const { definition, report } = await importFixture("gad-7");
    const items = itemIds(definition);
    expect(items).toHaveLength(7);
    expect(Object.values(definition.siblings)).toEqual([items]);
    // The group's text is kept, as a prompt before the group.
    expect(definition.questions[definition.order[0]!]).toMatchObject({
      type: "prompt",
      label: "Over the last 2 weeks, how often have you been bothered by the following problems?",
    });
    const question = definition.questions[items[0]!]!;
    expect(question.choices_order!.map((id) => question.choices![id]!.score_value)).toEqual([0, 1, 2, 3]);
    const total = definition.scores[0]!.id;
    expect(scoresFor(definition, Object.fromEntries(items.map((id) => [id, 3])))[total]).toBe(21);
    expect(scoresFor(definition, Object.fromEntries(items.map((id) => [id, 1])))[total]).toBe(7);
    expect(report.map((entry) => entry.problem).every((problem) => problem.startsWith("code "))).toBe(true);
  });

  it("HAM-A: fourteen clinician-rated items 0 to 4 with their descriptions, total 0 to 56, everything mapped", async () => {
    const { definition, report } = await importFixture("ham-a");
    expect(report).toEqual([]);
    const items = itemIds(definition);
    expect(items).toHaveLength(14);
    expect(definition.questions["hama_01"]).toMatchObject({
      label: "1. Anxious mood",
      comments: "Worries, anticipation of the worst, fearful anticipation, irritability.",
    });
    expect(definition.scores.map((score) => score.id)).toEqual(["hama_total"]);
    expect(scoresFor(definition, Object.fromEntries(items.map((id) => [id, 4]))).hama_total).toBe(56);
    expect(
      scoresFor(definition, Object.fromEntries(items.map((id, index) => [id, index % 5]))).hama_total,
    ).toBe((0 + 1 + 2 + 3 + 4) * 2 + 0 + 1 + 2 + 3);
  });
});

const minimal = (items: unknown[], extra: Record<string, unknown> = {}) => ({
  resourceType: "Questionnaire",
  status: "active",
  name: "Minimal",
  item: items,
  ...extra,
});

describe("FHIR Questionnaire import: what it reports and what it refuses", () => {
  it("reads a Questionnaire from a Bundle and names the other entries", async () => {
    const questionnaire = JSON.parse(await readFile(fixturePath("ham-a"), "utf8")) as Questionnaire;
    const bundle = {
      resourceType: "Bundle",
      type: "collection",
      entry: [
        { resource: { resourceType: "Patient" } },
        { resource: questionnaire },
        { resource: questionnaire },
      ],
    } as unknown as Bundle;
    const imported = readJson(bundle);
    expect(imported.slug).toBe("ham_a");
    expect(imported.report).toEqual([
      { source: "Bundle entry[0]", problem: "Patient not imported: one Questionnaire is read" },
      { source: "Bundle entry[2]", problem: "Questionnaire not imported: one Questionnaire is read" },
    ]);
  });

  it("names every item, condition, expression and element it cannot map", () => {
    const imported = readJson(
      minimal(
        [
          { linkId: "weight", text: "Weight", type: "quantity" },
          {
            linkId: "later",
            text: "Later",
            type: "string",
            enableWhen: [{ question: "last", operator: "exists", answerBoolean: true }],
          },
          { linkId: "who", text: "Who", type: "reference" },
          {
            linkId: "pick",
            text: "Pick",
            type: "open-choice",
            answerOption: [{ valueString: "a" }, { valueString: "b" }],
          },
          { linkId: "coded", text: "Coded", type: "choice", answerValueSet: "http://loinc.org/vs/LL358-3" },
          {
            linkId: "long",
            text: "Long",
            type: "text",
            _text: {
              extension: [
                {
                  url: "http://hl7.org/fhir/StructureDefinition/rendering-xhtml",
                  valueString: '<div xmlns="http://www.w3.org/1999/xhtml"><b>Long</b></div>',
                },
              ],
            },
          },
          {
            linkId: "count",
            text: "Count",
            type: "integer",
            initial: [{ valueInteger: 1 }],
            extension: [{ url: "http://example.org/odd", valueString: "x" }],
          },
          {
            linkId: "ratio",
            text: "Ratio",
            type: "decimal",
            readOnly: true,
            extension: [
              {
                url: "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
                valueExpression: {
                  language: "text/fhirpath",
                  expression: "%resource.item.where(linkId='count').answer.value * 2",
                },
              },
            ],
          },
          { linkId: "last", text: "Last", type: "boolean" },
        ],
        { copyright: "(c) someone", contained: [{ resourceType: "Patient", id: "p" }] },
      ),
    );
    const problems = imported.report.map((entry) => `${entry.source}: ${entry.problem}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        "contained[0]: Patient not imported",
        "Questionnaire: copyright not imported",
        "weight: quantity imported as a decimal: the unit is not asked",
        'later enableWhen[0]: condition on "last" not imported: that item is not asked before this one',
        "who: item type reference not imported",
        "pick: open-choice: answers typed in are not kept, only the listed choices",
        "coded: answerValueSet http://loinc.org/vs/LL358-3 is not a ValueSet contained in the file: its answers are not imported",
        "coded: a choice item without answers the portal can read: imported as a text question",
        "long: text answers hold at most 140 characters here",
        "long: text: extension http://hl7.org/fhir/StructureDefinition/rendering-xhtml not imported (the plain value is kept)",
        "count: initial not imported",
        "count: extension http://example.org/odd not imported",
        expect.stringMatching(
          /^ratio: calculatedExpression not a plain sum \(.*\): not imported as a score$/,
        ),
      ]),
    );
    const { definition } = imported;
    expect(definition.order).toEqual(["weight", "later", "pick", "coded", "long", "count", "last"]);
    expect(definition.questions["later"]!.logic).toBeUndefined();
    expect(definition.questions["pick"]!.choices_order).toEqual(["a", "b"]);
    expect(definition.questions["last"]!.choices_order).toEqual(["true", "false"]);
    expect(definition.scores).toEqual([]);
  });

  it("maps enableWhen on numbers, text, booleans and enableBehavior, and a group's condition onto its questions", () => {
    const { definition, report } = readJson(
      minimal([
        {
          linkId: "age",
          text: "Age",
          type: "integer",
          extension: [{ url: "http://hl7.org/fhir/StructureDefinition/minValue", valueInteger: 0 }],
        },
        { linkId: "smoker", text: "Smoker", type: "boolean" },
        { linkId: "name", text: "Name", type: "string" },
        {
          linkId: "adult",
          text: "Adult smoker",
          type: "display",
          enableWhen: [
            { question: "age", operator: ">=", answerInteger: 18 },
            { question: "smoker", operator: "=", answerBoolean: true },
          ],
          enableBehavior: "all",
        },
        {
          linkId: "extra",
          type: "group",
          enableWhen: [{ question: "name", operator: "=", answerString: "Ada" }],
          item: [
            {
              linkId: "q1",
              text: "One",
              type: "string",
              enableWhen: [{ question: "age", operator: "!=", answerInteger: 3 }],
            },
            { linkId: "q2", text: "Two", type: "choice", answerOption: [{ valueCoding: { code: "x" } }] },
          ],
        },
      ]),
    );
    expect(definition.questions["age"]!.attributes.min).toBe(0);
    expect(definition.questions["adult"]!.logic).toEqual({
      show_if: [
        { comparator: ">=", question: "age", value: 18 },
        { comparator: "is_selected", question: "smoker", value: "true" },
      ],
      operator: "and",
    });
    expect(definition.questions["q2"]!.logic).toEqual({
      show_if: [{ comparator: "=", question: "name", value: "Ada" }],
      operator: "and",
    });
    expect(definition.siblings).toEqual({ extra: ["q1", "q2"] });
    expect(report).toEqual([
      {
        source: "q1 enableWhen[0]",
        problem:
          'condition on "age" not imported: != holds in FHIR while the item is unanswered, and not in the portal',
      },
    ]);
  });

  it("reads a group shown as a table, whose rows share their options, as a matrix", () => {
    const options = [
      {
        valueCoding: { code: "no", display: "No" },
        extension: [{ url: "http://hl7.org/fhir/StructureDefinition/ordinalValue", valueDecimal: 0 }],
      },
      {
        valueCoding: { code: "yes", display: "Yes" },
        extension: [{ url: "http://hl7.org/fhir/StructureDefinition/ordinalValue", valueDecimal: 1 }],
      },
    ];
    const { definition, report } = readJson(
      minimal([
        {
          linkId: "sleep",
          text: "In the past week, did you...",
          type: "group",
          extension: [
            {
              url: "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl",
              valueCodeableConcept: {
                coding: [{ system: "http://hl7.org/fhir/questionnaire-item-control", code: "table" }],
              },
            },
          ],
          item: [
            {
              linkId: "sleep/late",
              text: "...sleep late?",
              type: "choice",
              required: true,
              answerOption: options,
            },
            {
              linkId: "sleep/wake",
              text: "...wake at night?",
              type: "choice",
              answerOption: options,
              code: [{ system: "http://example.org", code: "W" }],
            },
          ],
        },
        {
          linkId: "total",
          text: "Total",
          type: "integer",
          readOnly: true,
          extension: [
            {
              url: "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
              valueExpression: {
                language: "text/fhirpath",
                expression: "%resource.repeat(item).where(linkId='sleep').item.answer.value.weight().sum()",
              },
            },
          ],
        },
      ]),
    );
    expect(definition.questions["sleep"]).toMatchObject({
      type: "matrix",
      label: "In the past week, did you...",
      choices_order: ["no", "yes"],
      questions_order: ["late", "wake"],
      questions: { late: { label: "...sleep late?", attributes: { required: true } } },
    });
    expect(report).toEqual([{ source: "sleep/wake", problem: "code http://example.org|W not imported" }]);
    const now = new Date();
    const records = [
      makeRecord(
        definition.questions["sleep"]!,
        [
          { ...chosen(definition, "sleep", "yes"), question: "late" },
          { ...chosen(definition, "sleep", "yes"), question: "wake" },
        ],
        now,
      ),
    ];
    expect(scoreSurvey(definition, lookupOf(records)).map((score) => score.final_value)).toEqual([2]);
  });

  it("a file cannot change what the questions inherit through __proto__", () => {
    const { definition, report } = readJson(
      minimal([
        {
          linkId: "pick",
          text: "Pick",
          type: "choice",
          answerOption: [{ valueCoding: { code: "__proto__" } }, { valueCoding: { code: "a" } }],
          extension: [
            {
              url: "urn:clinro:fhir:extension:question-extras",
              valueString:
                '{"__proto__": {"polluted": true}, "attributes": {"__proto__": {"polluted": true}}}',
            },
          ],
        },
      ]),
    );
    const question = definition.questions["pick"]!;
    expect(question.choices_order).toEqual(["a"]);
    expect(Object.getPrototypeOf(question)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(question.attributes)).toBe(Object.prototype);
    expect((question as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(report).toEqual([
      {
        source: "pick answerOption[0]",
        problem: "answer option __proto__ not imported: not a choice id the portal can hold",
      },
    ]);
  });

  it("refuses a file that is not a Questionnaire, with the reason", () => {
    const refusals: [Uint8Array, string][] = [
      [new TextEncoder().encode("<Questionnaire/>"), "q.json is not valid JSON"],
      [new Uint8Array([0xff, 0xfe, 0x00]), "q.json is not UTF-8 text"],
      [new TextEncoder().encode("[1, 2]"), "q.json is not a FHIR resource: it is not a JSON object"],
      [
        new TextEncoder().encode('{"resourceType": "Patient"}'),
        'q.json is not a Questionnaire: its resourceType is "Patient"',
      ],
      [
        new TextEncoder().encode('{"resourceType": "Bundle", "type": "collection"}'),
        "q.json is a Bundle without a Questionnaire",
      ],
      [
        new TextEncoder().encode('{"resourceType": "Questionnaire", "status": "active"}'),
        "q.json: the Questionnaire has no items",
      ],
      [
        new TextEncoder().encode(JSON.stringify(minimal([{ text: "No link", type: "string" }]))),
        "item[0].linkId is missing",
      ],
      [
        new TextEncoder().encode(
          JSON.stringify(minimal([{ linkId: "a", type: "string", enableWhen: ["a"] }])),
        ),
        "item[0].enableWhen[0] is not an object",
      ],
      [
        new TextEncoder().encode(JSON.stringify(minimal([{ linkId: "a", type: "string", text: 3 }]))),
        "item[0].text (a) must be text",
      ],
      [
        new TextEncoder().encode(JSON.stringify(minimal([{ linkId: "r", type: "reference" }]))),
        "q.json: the Questionnaire has no item the portal can ask",
      ],
    ];
    for (const [bytes, reason] of refusals) {
      expect(() => readFhirQuestionnaire(bytes, "q.json"), reason).toThrow(ImportError);
      expect(() => readFhirQuestionnaire(bytes, "q.json"), reason).toThrow(reason);
    }
  });
});

const inWorkDir = temporaryFolder("clinro-fhir-import-");

/** LHC-Forms' own R4 test Questionnaires (tests/fixtures/third-party/README.md). */
const lforms = path.resolve(fixtures, "../../third-party/lforms");
async function readLforms(name: string) {
  return readFhirQuestionnaire(new Uint8Array(await readFile(path.join(lforms, name))), name);
}

describe("FHIR Questionnaires of LHC-Forms' test data", () => {
  it("resolves a contained ValueSet named by its canonical url: the Argonaut PHQ-9's ninth item keeps its 0-3 scale", async () => {
    const { definition, report } = await readLforms("argonaut-phq9-ish.json");
    const first = definition.questions["g1.q1"]!;
    const ninth = definition.questions["g1.q9"]!;
    expect(ninth.type).toBe("select_one");
    expect(ninth.choices_order).toHaveLength(4);
    expect(ninth.choices).toEqual(first.choices);
    expect(Object.values(ninth.choices!).map((choice) => choice.score_value)).toEqual([0, 1, 2, 3]);
    expect(report.filter((entry) => entry.source === "g1.q9").map((entry) => entry.problem)).toEqual([
      "code http://loinc.org|44260-8 not imported",
    ]);
  });

  it("carries the answer lists of string, integer, date and time items as choices, naming each in the report", async () => {
    const cases = [
      ["String", ["a", "b", "c"]],
      ["Integer", ["12", "34", "56"]],
      ["Date", ["2022", "2022-09", "2022-09-20"]],
      ["Time", ["10:30:00", "13:30:00", "23:59:59"]],
    ] as const;
    for (const [type, values] of cases) {
      const { definition, report } = await readLforms(`answerOption-value${type}.R4.json`);
      const once = definition.questions[`value${type}-group1-item1`]!;
      const repeating = definition.questions[`value${type}-group1-item2`]!;
      expect(once, type).toMatchObject({ type: "select_one", choices_order: values });
      expect(repeating, type).toMatchObject({ type: "select_multiple", choices_order: values });
      if (type === "Integer") {
        expect(Object.values(once.choices!).map((choice) => choice.score_value)).toEqual([12, 34, 56]);
      }
      const listed = report.filter((entry) => entry.problem.includes("item with an answer list"));
      // Twelve items a file, each named: six groups of one item asked once and one repeating.
      expect(listed, type).toHaveLength(12);
      expect(listed[0], type).toEqual({
        source: `value${type}-group1-item1`,
        problem: `${type.toLowerCase()} item with an answer list: imported as a select one question over the list, its answer recorded as the value chosen`,
      });
      expect(parseSurveyDefinition(definition).ok, type).toBe(true);
    }
  });

  it("names a repeating group in the report: it is asked once", async () => {
    const { definition, report } = await readLforms("date-in-repeating-group.json");
    expect(definition.order).toEqual(["X1_heading", "X11", "X12", "X13"]);
    expect(report).toContainEqual({
      source: "X1",
      problem:
        "repeating group asked once: the portal has no repeating groups, so one occurrence of its questions is recorded",
    });
  });
});

describeOnEachDatabase("clinro instrument import --from fhir", (api) => {
  const fhirImport = (file: string, options: string[] = []) =>
    importInstrument(api, { from: "fhir", file, studyId: 101, options });
  const instrumentOf = (slug: string) => importedInstrument(api, 101, slug);
  const storedDefinition = async (instrumentId: number) =>
    (await definitionVersions(api, instrumentId)).at(-1)!.definition;

  it("imports the three fixtures as clinician instruments, printing each report", async () => {
    for (const name of FIXTURES) {
      const result = await fhirImport(fixturePath(name));
      expect(result.err, name).toBe("");
      expect(result.code, name).toBe(0);
      expect(result.out, name).toMatch(/^Created instrument \d+ /);
    }
    const hama = await instrumentOf("ham_a");
    expect(hama).toMatchObject({ instrumentType: "CLINRO" });
    expect(parseSurveyDefinition(await storedDefinition(hama.id)).ok).toBe(true);
    const phq = await fhirImport(fixturePath("phq-9"), ["--slug", "phq-9-fhir"]);
    expect(phq.out).toContain("/44261-6: the source shows no total until an item is answered");
  });

  it("takes a submission of the imported HAM-A, the server scoring it as the scale does", async () => {
    const imported = await fhirImport(fixturePath("ham-a"), ["--slug", "ham-a-scored"]);
    expect(imported.code).toBe(0);
    const instrument = await instrumentOf("ham-a-scored");
    const definition = await servedDefinition(
      api,
      await api.signIn("staff3@demo.test"),
      instrument.id,
      "ham-a-scored",
    );
    const participantId = await newParticipant(api, { fname: "Hama", lname: "Imported" });
    const ratings = [3, 2, 2, 1, 0, 1, 2, 1, 0, 4, 4, 0, 1, 2]; // 23
    const answers: Record<string, AnswerEntry[]> = Object.fromEntries(
      ratings.map((rating, index) => {
        const id = `hama_${String(index + 1).padStart(2, "0")}`;
        return [id, [chosen(definition, id, String(rating))]];
      }),
    );
    const receipt = await postSubmissionAsDemoCoordinator(api, {
      participantId,
      instrumentId: instrument.id,
      form: definition,
      answers,
    });
    expect(receipt.scores).toEqual([expect.objectContaining({ id: "hama_total", final_value: 23 })]);
  });

  it("imports the Argonaut PHQ-9 into a site's own study with its ninth item scored 0 to 3", async () => {
    await api.db.insert(studies).values({ id: 7204, name: "Site study" });
    const result = await importInstrument(api, {
      from: "fhir",
      file: path.join(lforms, "argonaut-phq9-ish.json"),
      studyId: 7204,
      options: ["--slug", "phq-9"],
    });
    expect(result.code).toBe(0);
    expect(result.out).not.toContain("is not a ValueSet contained in the file");
    const stored = await storedDefinition((await importedInstrument(api, 7204, "phq-9")).id);
    expect(stored).toMatchObject({ questions: { "g1.q9": { type: "select_one" } } });
  });

  it("refuses a file that is not a Questionnaire with the reason, storing nothing", async () => {
    const patient = inWorkDir("patient.json");
    await writeFile(patient, JSON.stringify({ resourceType: "Patient" }));
    const before = await rowCounts(api.db);
    const result = await fhirImport(patient);
    expect(result.code).toBe(1);
    expect(result.err).toContain('is not a Questionnaire: its resourceType is "Patient"');
    expect(result.err).toContain("nothing was imported");
    expect(await rowCounts(api.db)).toEqual(before);
  });

  it("imports a Questionnaire of the study's own FHIR export back as the same instrument", async () => {
    const exported = await api.request("GET", "/control/studies/101/export?format=fhir", {
      token: await api.signIn("coordinator@demo.test"),
    });
    expect(exported.statusCode).toBe(200);
    const questionnaire = (exported.json() as Bundle).entry!.find(
      (entry) =>
        entry.resource.resourceType === "Questionnaire" &&
        entry.resource.url?.endsWith(":questionnaire:kitchen-sink"),
    )!.resource;
    const file = inWorkDir("kitchen-sink-questionnaire.json");
    await writeFile(file, JSON.stringify(questionnaire));
    const result = await fhirImport(file, ["--slug", "kitchen-sink-again"]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toContain("Import report: everything mapped.");
    const original = parseDefinitionOrThrow(await storedDefinition((await instrumentOf("kitchen-sink")).id));
    const copy = parseDefinitionOrThrow(
      await storedDefinition((await instrumentOf("kitchen-sink-again")).id),
    );
    expect({ ...copy, scores: [] }).toEqual({ ...original, scores: [] });
    expect(copy.scores.map((score) => [score.id, score.name])).toEqual(
      original.scores.map((score) => [score.id, score.name]),
    );
  });
});
