/**
 * The REDCap reader (server/instrument-import/redcap/): data dictionaries and instrument zips
 * into survey definitions the engine accepts, every field type, branching logic into show_if,
 * calculations into scores, matrix groups, and the report of what is not carried. The fixtures
 * are PHQ-9, GAD-7 and HAM-A written from their public definitions.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { AnswerEntry, AnswerRecord } from "../../core/contracts/survey-answers.ts";
import { MAX_DECIMALS, type SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { readNumberField } from "../../core/survey-engine/answer-values.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import { scoreSurvey } from "../../core/survey-engine/scores.ts";
import { isShown } from "../../core/survey-engine/show-if.ts";
import { parseSurveyDefinition } from "../../core/survey-engine/validate-definition.ts";
import { IMPORT_FORMATS } from "../../server/instrument-import/imported-instrument.ts";
import { readStandardInstrumentBytes } from "../../server/instrument-import/import-standard-instrument.ts";
import { INSTRUMENT_READERS } from "../../server/instrument-import/instrument-readers.ts";
import {
  readRedcapDictionary,
  readRedcapInstrument,
} from "../../server/instrument-import/redcap/read-redcap-instrument.ts";
import { ImportError } from "../../server/instruments/import-instrument.ts";
import { chosen } from "../support/submissions.ts";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/standards/redcap");
const thirdParty = path.resolve(fixtures, "../../third-party");
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(fixtures, name)));

const HEADER = [
  "Variable / Field Name",
  "Form Name",
  "Section Header",
  "Field Type",
  "Field Label",
  "Choices, Calculations, OR Slider Labels",
  "Field Note",
  "Text Validation Type OR Show Slider Number",
  "Text Validation Min",
  "Text Validation Max",
  "Identifier?",
  "Branching Logic (Show field only if...)",
  "Required Field?",
  "Custom Alignment",
  "Question Number (surveys only)",
  "Matrix Group Name",
  "Matrix Ranking?",
  "Field Annotation",
];
type Column =
  | "section"
  | "choices"
  | "note"
  | "validation"
  | "min"
  | "max"
  | "identifier"
  | "branching"
  | "required"
  | "alignment"
  | "number"
  | "matrix"
  | "ranking"
  | "annotation";
const COLUMN_INDEX: Record<Column, number> = {
  section: 2,
  choices: 5,
  note: 6,
  validation: 7,
  min: 8,
  max: 9,
  identifier: 10,
  branching: 11,
  required: 12,
  alignment: 13,
  number: 14,
  matrix: 15,
  ranking: 16,
  annotation: 17,
};
type FieldRow = { name: string; type: string; label?: string; form?: string } & Partial<
  Record<Column, string>
>;

const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/** A dictionary CSV of the given fields (form "test" unless said), starting with a record id. */
function dictionary(fields: FieldRow[], withRecordId = true): Uint8Array {
  const rows = [
    ...(withRecordId ? [{ name: "record_id", type: "text", label: "Record ID" }] : []),
    ...fields,
  ].map((field) => {
    const cells = Array<string>(HEADER.length).fill("");
    cells[0] = field.name;
    cells[1] = field.form ?? "test";
    cells[3] = field.type;
    cells[4] = field.label ?? field.name;
    for (const [column, index] of Object.entries(COLUMN_INDEX)) cells[index] = field[column as Column] ?? "";
    return cells.map(quote).join(",");
  });
  return strToU8([HEADER.map(quote).join(","), ...rows].join("\r\n") + "\r\n");
}

const FREQUENCY = "0, Not at all | 1, Several days | 2, More than half the days | 3, Nearly every day";

function read(fields: FieldRow[], form?: string) {
  return readRedcapDictionary(dictionary(fields), "test.csv", { form });
}

function problemsOf(report: { source: string; problem: string }[], source: string) {
  return report.filter((entry) => entry.source === source).map((entry) => entry.problem);
}

function expectAccepted(definition: SurveyDefinition) {
  const result = parseSurveyDefinition(definition);
  expect(result.ok ? [] : result.problems).toEqual([]);
}

/** An answer lookup from entries by question id, records made as the app makes them. */
function answersOf(definition: SurveyDefinition, entries: Record<string, AnswerEntry[]>) {
  const records = new Map<string, AnswerRecord>();
  for (const [id, answer] of Object.entries(entries)) {
    records.set(id, makeRecord(definition.questions[id]!, answer, new Date("2026-11-22T10:00:00Z")));
  }
  return (id: string) => records.get(id);
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return (error as Error).message;
  }
  throw new Error("the file was not refused");
}

describe("REDCap fixtures", () => {
  it("reads PHQ-9: nine required items scored 0 to 3, the difficulty question behind any item above 0, total and severity", () => {
    const { definition, slug, report } = readRedcapInstrument(
      fixture("phq9-data-dictionary.csv"),
      "phq9.csv",
    );
    expectAccepted(definition);
    expect(slug).toBe("phq9");
    expect(definition.order).toEqual([
      "phq9_date",
      "phq9_1_section",
      ...Array.from({ length: 9 }, (_, index) => `phq9_${index + 1}`),
      "phq9_difficulty",
    ]);
    expect(definition.questions.phq9_date).toMatchObject({ type: "date", attributes: { required: true } });
    expect(definition.questions.phq9_1_section).toMatchObject({ type: "introduction" });
    expect(definition.questions.phq9_9).toMatchObject({
      type: "select_one",
      label: "Thoughts that you would be better off dead or of hurting yourself in some way",
      attributes: { required: true },
      choices_order: ["0", "1", "2", "3"],
      choices: {
        "0": { label: "Not at all", score_value: 0 },
        "3": { label: "Nearly every day", score_value: 3 },
      },
    });
    expect(definition.questions.phq9_difficulty!.logic).toEqual({
      operator: "or",
      show_if: Array.from({ length: 9 }, (_, index) => ({
        comparator: ">",
        question: `phq9_${index + 1}`,
        value: 0,
      })),
    });
    expect(definition.scores.map((score) => score.id)).toEqual(["phq9_total", "phq9_severity"]);
    // The record id is the only thing not carried.
    expect(report).toEqual([{ source: "record_id", problem: expect.stringContaining("record id") }]);
  });

  it("scores an imported PHQ-9 on known answers as the instrument does", () => {
    const { definition } = readRedcapInstrument(fixture("phq9-data-dictionary.csv"), "phq9.csv");
    const parsed = parseSurveyDefinition(definition);
    if (!parsed.ok) throw new Error("PHQ-9 does not parse");
    const items = [3, 2, 2, 1, 0, 1, 2, 1, 0]; // total 12: moderate (band 2)
    const entries = Object.fromEntries(
      items.map((value, index) => [
        `phq9_${index + 1}`,
        [chosen(parsed.definition, `phq9_${index + 1}`, String(value))],
      ]),
    );
    const scores = scoreSurvey(parsed.definition, answersOf(parsed.definition, entries));
    expect(scores.map((score) => [score.id, score.final_value])).toEqual([
      ["phq9_total", 12],
      ["phq9_severity", 2],
    ]);

    const allZero = Object.fromEntries(
      items.map((_, index) => [`phq9_${index + 1}`, [chosen(parsed.definition, `phq9_${index + 1}`, "0")]]),
    );
    const difficulty = parsed.definition.questions.phq9_difficulty!;
    expect(isShown(difficulty, answersOf(parsed.definition, allZero), parsed.definition)).toBe(false);
    expect(isShown(difficulty, answersOf(parsed.definition, entries), parsed.definition)).toBe(true);
    expect(
      scoreSurvey(parsed.definition, answersOf(parsed.definition, allZero)).map((s) => s.final_value),
    ).toEqual([0, 0]);
  });

  it("reads GAD-7's matrix group as one matrix question, its total as the matrix's sum", () => {
    const { definition, report } = readRedcapInstrument(fixture("gad7-data-dictionary.csv"), "gad7.csv");
    expectAccepted(definition);
    expect(report).toEqual([]);
    expect(definition.order).toEqual(["gad7_items", "gad7_difficulty"]);
    const matrix = definition.questions.gad7_items!;
    expect(matrix).toMatchObject({
      type: "matrix",
      label: "Over the last 2 weeks, how often have you been bothered by the following problems?",
      attributes: { required: true },
      choices_order: ["0", "1", "2", "3"],
      questions_order: Array.from({ length: 7 }, (_, index) => `gad7_${index + 1}`),
    });
    expect(matrix.questions!.gad7_4!.label).toBe("Trouble relaxing");
    expect(definition.scores).toEqual([
      { id: "gad7_total", name: "GAD-7 total score (0-21)", formula: "sum({gad7_items})" },
    ]);
    expect(definition.questions.gad7_difficulty!.logic!.show_if[0]).toEqual({
      comparator: "is_not_selected",
      question: "gad7_items",
      sub_question: "gad7_1",
      value: "0",
    });

    const parsed = parseSurveyDefinition(definition);
    if (!parsed.ok) throw new Error("GAD-7 does not parse");
    const rows = [1, 2, 3, 0, 1, 2, 3];
    const answer = rows.map((value, index) => ({
      ...chosen(parsed.definition, "gad7_items", String(value)),
      question: `gad7_${index + 1}`,
    }));
    const scores = scoreSurvey(parsed.definition, answersOf(parsed.definition, { gad7_items: answer }));
    expect(scores[0]!.final_value).toBe(12);
  });

  it("reads GAD-7 from a REDCap instrument zip (instrument.csv and OriginID.txt) as from its dictionary", () => {
    const csv = fixture("gad7-data-dictionary.csv");
    const zip = zipSync({ "instrument.csv": csv, "OriginID.txt": strToU8("redcap.example.org") });
    const fromZip = readRedcapInstrument(zip, "GAD7.zip");
    expect(fromZip.definition).toEqual(readRedcapInstrument(csv, "gad7.csv").definition);
    expect(fromZip.slug).toBe("gad7");
  });

  it("reads HAM-A: 14 clinician-rated items 0 to 4, a total out of 56 and the two subscales", () => {
    const { definition, report } = readRedcapInstrument(fixture("hama-data-dictionary.csv"), "hama.csv");
    expectAccepted(definition);
    const items = Array.from({ length: 14 }, (_, index) => `hama_${index + 1}`);
    for (const id of items) {
      expect(definition.questions[id]).toMatchObject({
        type: "select_one",
        choices_order: ["0", "1", "2", "3", "4"],
      });
    }
    expect(definition.questions.hama_1!.comments).toBe(
      "Worries, anticipation of the worst, fearful anticipation, irritability.",
    );
    expect(definition.questions.hama_instructions).toMatchObject({
      type: "prompt",
      label: "Rate each item from 0 (not present) to 4 (very severe), from the interview.",
    });
    expect(problemsOf(report, "hama_instructions")).toEqual(["HTML formatting removed from the label"]);
    expect(problemsOf(report, "hama_severe_notes")).toEqual([expect.stringContaining("140 characters")]);
    expect(definition.questions.hama_severe_notes!.logic).toEqual({
      operator: "or",
      show_if: [
        { comparator: ">=", question: "hama_1", value: 3 },
        { comparator: ">=", question: "hama_2", value: 3 },
      ],
    });

    const parsed = parseSurveyDefinition(definition);
    if (!parsed.ok) throw new Error("HAM-A does not parse");
    const entries = Object.fromEntries(items.map((id) => [id, [chosen(parsed.definition, id, "4")]]));
    const scores = scoreSurvey(parsed.definition, answersOf(parsed.definition, entries));
    expect(scores.map((score) => [score.id, score.final_value])).toEqual([
      ["hama_total", 56],
      ["hama_psychic", 28],
      ["hama_somatic", 28],
    ]);
  });
});

describe("REDCap field types", () => {
  it("maps every field type and text validation, reporting what the portal does not hold", () => {
    const { definition, report } = read([
      { name: "visit_date", type: "text", validation: "date_mdy", min: "2020-01-01" },
      { name: "seen_at", type: "text", validation: "datetime_seconds_ymd" },
      { name: "woke", type: "text", validation: "time" },
      { name: "age", type: "text", validation: "integer", min: "18", max: "99", required: "y" },
      { name: "weight", type: "text", validation: "number_2dp", min: "30", max: "250" },
      { name: "email", type: "text", validation: "email" },
      { name: "comment", type: "notes", note: "In your own words" },
      { name: "site", type: "dropdown", choices: "a, Site A | b, Site B" },
      { name: "symptoms", type: "checkbox", choices: "1, Headache | 2, Nausea | 3, Fatigue" },
      { name: "smoker", type: "yesno" },
      { name: "consented", type: "truefalse" },
      { name: "info", type: "descriptive", label: "Read this first" },
      { name: "pain", type: "slider", choices: "No pain | Some | Worst pain" },
      { name: "photo", type: "file" },
      { name: "signature", type: "file", validation: "signature" },
      { name: "flagged", type: "text", identifier: "y", alignment: "RH", number: "7", annotation: "@HIDDEN" },
    ]);
    expectAccepted(definition);
    const type = (id: string) => definition.questions[id]!.type;
    expect(Object.fromEntries(definition.order.map((id) => [id, type(id)]))).toEqual({
      visit_date: "date",
      seen_at: "datetime",
      woke: "time",
      age: "integer",
      weight: "decimal",
      email: "text",
      comment: "text",
      site: "select_one",
      symptoms: "select_multiple",
      smoker: "select_one",
      consented: "select_one",
      info: "prompt",
      pain: "numeric_rating_scale",
      photo: "image_capture",
      signature: "scribble",
      flagged: "text",
    });
    expect(definition.questions.age!.attributes).toEqual({ required: true, min: 18, max: 99 });
    expect(definition.questions.weight!.attributes).toMatchObject({ min: 30, max: 250, decimals: 2 });
    expect(definition.questions.comment!.comments).toBe("In your own words");
    // Codes that are not numbers are choice ids without a score.
    expect(definition.questions.site!.choices).toEqual({ a: { label: "Site A" }, b: { label: "Site B" } });
    expect(definition.questions.smoker).toMatchObject({
      choices_order: ["1", "0"],
      choices: { "1": { label: "Yes", score_value: 1 }, "0": { label: "No", score_value: 0 } },
    });
    expect(definition.questions.consented!.choices).toEqual({
      "1": { label: "True", score_value: 1 },
      "0": { label: "False", score_value: 0 },
    });
    expect(definition.questions.pain!.attributes).toMatchObject({
      min: 0,
      max: 100,
      min_label: "No pain",
      max_label: "Worst pain",
    });

    expect(problemsOf(report, "visit_date")).toEqual([expect.stringContaining("date bounds")]);
    expect(problemsOf(report, "seen_at")).toEqual([expect.stringContaining("seconds")]);
    expect(problemsOf(report, "weight")).toEqual([]);
    expect(problemsOf(report, "email")).toEqual([expect.stringContaining('"email" is not checked')]);
    expect(problemsOf(report, "comment")).toEqual([expect.stringContaining("140 characters")]);
    expect(problemsOf(report, "pain")).toEqual([expect.stringContaining('middle label "Some"')]);
    expect(problemsOf(report, "photo")).toEqual([
      expect.stringContaining("documents and other files are not taken"),
    ]);
    expect(problemsOf(report, "flagged")).toEqual([
      expect.stringContaining("identifier"),
      expect.stringContaining('alignment "RH"'),
      expect.stringContaining('question number "7"'),
      expect.stringContaining('annotation "@HIDDEN"'),
    ]);
    expect(problemsOf(report, "record_id")).toHaveLength(1);
  });

  it("keeps the precision of REDCap number fields: REDCapR's validation types, 2.25 stays 2.25", () => {
    const bytes = new Uint8Array(
      readFileSync(path.join(thirdParty, "redcapr/validation-types-1-dictionary.csv")),
    );
    const { definition, report } = readRedcapInstrument(bytes, "validation-types-1-dictionary.csv");
    const decimalsOf = (id: string) => definition.questions[id]!.attributes.decimals;
    expect(definition.questions.v_number!.type).toBe("decimal");
    expect(decimalsOf("v_number")).toBe(MAX_DECIMALS);
    expect(decimalsOf("v_number_1dp")).toBeUndefined();
    expect(decimalsOf("v_number_2dp")).toBe(2);
    expect(decimalsOf("v_number_3dp")).toBe(3);
    expect(decimalsOf("v_number_4dp")).toBe(4);
    expect(decimalsOf("v_number_2dp_comma_decimal")).toBe(2);
    expect(report.filter((entry) => entry.source.startsWith("v_number"))).toEqual([]);
    const answer = (id: string, text: string) =>
      readNumberField("decimal", text, definition.questions[id]!.attributes).value;
    expect(answer("v_number", "2.25")).toBe(2.25);
    expect(answer("v_number_2dp", "2.25")).toBe(2.25);
    expect(answer("v_number_2dp", "2.255")).toBe(2.26);
    expect(answer("v_number_1dp", "2.25")).toBe(2.3);
  });

  it("reports a field of an unknown type or with unreadable choices, and imports the rest", () => {
    const { definition, report } = read([
      { name: "ok", type: "text" },
      { name: "query", type: "sql", choices: "select 1" },
      { name: "odd", type: "barcode" },
      { name: "broken", type: "radio", choices: "1, One | Two" },
      { name: "twice", type: "radio", choices: "1, One | 1, Uno" },
    ]);
    expectAccepted(definition);
    expect(definition.order).toEqual(["ok"]);
    expect(problemsOf(report, "query")).toEqual([expect.stringContaining("not imported")]);
    expect(problemsOf(report, "odd")).toEqual([expect.stringContaining('"barcode"')]);
    expect(problemsOf(report, "broken")).toEqual([
      expect.stringContaining('"Two" is not written "code, label"'),
    ]);
    expect(problemsOf(report, "twice")).toEqual([expect.stringContaining('"1" is empty or written twice')]);
  });

  it("turns a section header into an introduction before its field", () => {
    const { definition } = read([{ name: "mood", type: "text", section: "<i>Part 2</i>: mood" }]);
    expect(definition.order).toEqual(["mood_section", "mood"]);
    expect(definition.questions.mood_section).toMatchObject({ type: "introduction", label: "Part 2: mood" });
  });
});

describe("REDCap branching logic", () => {
  const base: FieldRow[] = [
    { name: "sex", type: "radio", choices: "1, Female | 2, Male" },
    { name: "age", type: "text", validation: "integer" },
    { name: "symptoms", type: "checkbox", choices: "1, Headache | 2, Nausea" },
    { name: "note", type: "text" },
    { name: "total", type: "calc", choices: "[age] * 2" },
  ];
  const logicOf = (branching: string) => {
    const { definition, report } = read([...base, { name: "target", type: "text", branching }]);
    expectAccepted(definition);
    return { logic: definition.questions.target!.logic, report: problemsOf(report, "target") };
  };

  it("translates comparisons, and/or with parentheses, checkbox options and blanks", () => {
    expect(logicOf("[sex] = '1'").logic).toEqual({
      operator: "and",
      show_if: [{ comparator: "is_selected", question: "sex", value: "1" }],
    });
    expect(logicOf("[age] >= 18 and ([sex] = \"2\" or [symptoms(2)] = '1')").logic).toEqual({
      operator: "and",
      show_if: [
        { comparator: ">=", question: "age", value: 18 },
        {
          comparator: "boolean_combine",
          operator: "or",
          terms: [
            { comparator: "is_selected", question: "sex", value: "2" },
            { comparator: "is_selected", question: "symptoms", value: "2" },
          ],
        },
      ],
    });
    expect(logicOf("[symptoms(1)] = '0' AND 65 < [age]").logic!.show_if).toEqual([
      { comparator: "is_not_selected", question: "symptoms", value: "1" },
      { comparator: ">", question: "age", value: 65 },
    ]);
    expect(logicOf("[note] <> ''").logic!.show_if).toEqual([{ comparator: "is_answered", question: "note" }]);
    expect(logicOf("[note] = ''").logic!.show_if).toEqual([
      { comparator: "is_not_answered", question: "note" },
    ]);
    // REDCap's <> also holds for a blank field.
    expect(logicOf("[age] <> 40").logic).toEqual({
      operator: "or",
      show_if: [
        { comparator: "is_not_answered", question: "age" },
        { comparator: "!=", question: "age", value: 40 },
      ],
    });
    expect(logicOf("[sex] != '2'").logic!.show_if).toEqual([
      { comparator: "is_not_selected", question: "sex", value: "2" },
    ]);
  });

  it("reports logic it cannot express and keeps the question, always shown", () => {
    const cases: [string, string][] = [
      ["[age] > 18 and (", "ends too early"],
      ["[age] >", "ends too early"],
      ["[age] = 1 ]", "not understood"],
      ["[weight] > 80", "[weight] is not a field of this form"],
      ["[total] > 10", "calculated field"],
      ["[later] = '1'", "not asked before"],
      ["[age] + 2 > 20", "a comparison must set a field against a value"],
      ["datediff([note], 'today', 'y') > 1", "a comparison must set a field against a value"],
      ["[age]", "only comparisons"],
      ["[symptoms] = '1'", "name the option"],
      ["[sex] = 'x'", "'x' is not a choice of sex"],
      ["[age] = 'old'", "age holds numbers"],
      ["[baseline_arm_1][age] > 3", "another event"],
    ];
    for (const [branching, reason] of cases) {
      const { definition, report } = read([
        ...base,
        { name: "target", type: "text", branching },
        { name: "later", type: "radio", choices: "1, Yes" },
      ]);
      expectAccepted(definition);
      expect(definition.questions.target!.logic, branching).toBeUndefined();
      expect(problemsOf(report, "target"), branching).toEqual([
        expect.stringContaining(`branching logic "${branching}" not imported`),
      ]);
      expect(problemsOf(report, "target")[0], branching).toContain(reason);
    }
  });
});

describe("REDCap branching logic the engine refuses", () => {
  it("takes the logic off the question and reports it with the engine's reason", () => {
    const { definition, report } = read([
      { name: "visit", type: "text", validation: "date_ymd" },
      { name: "seen", type: "text", validation: "datetime_ymd" },
      { name: "late", type: "text", branching: "[visit] > 'today'" },
      { name: "after", type: "text", branching: "[seen] >= '2026-01-31 10:00'" },
    ]);
    expectAccepted(definition);
    expect(definition.questions.late!.logic).toBeUndefined();
    expect(problemsOf(report, "late")).toEqual([
      expect.stringMatching(
        /^branching logic "\[visit\] > 'today'" not imported \(.*is not a date.*\): the question is always shown$/,
      ),
    ]);
    // REDCap writes datetimes 'YYYY-MM-DD HH:MM'; the engine reads ISO instants.
    expect(definition.questions.after!.logic!.show_if).toEqual([
      { comparator: ">=", question: "seen", value: "2026-01-31T10:00Z" },
    ]);
  });
});

describe("REDCap calculations", () => {
  const items: FieldRow[] = [
    { name: "a", type: "radio", choices: FREQUENCY },
    { name: "b", type: "radio", choices: FREQUENCY },
    { name: "weight", type: "text", validation: "number" },
    { name: "who", type: "text" },
    { name: "sym", type: "checkbox", choices: "1, One | 2, Two" },
  ];
  const scoresOf = (calcs: [string, string][]) => {
    const { definition, report } = read([
      ...items,
      ...calcs.map(([name, equation]): FieldRow => ({ name, type: "calc", choices: equation })),
    ]);
    expectAccepted(definition);
    return {
      scores: Object.fromEntries(definition.scores.map((score) => [score.id, score.formula])),
      report,
    };
  };

  it("translates sums, arithmetic, functions, if() and earlier calc fields", () => {
    const { scores, report } = scoresOf([
      ["plus", "[a] + [b]"],
      ["total", "sum([a], [b])"],
      ["mean_ab", "mean([a],[b])"],
      ["bmi", "round([weight] / (1.8 * 1.8), 1)"],
      ["down", "rounddown([weight] / 3)"],
      ["band", "if([total] >= 4, 2, if([total] >= 2, 1, 0))"],
      ["both", "[a] = 3 and [b] <> 0"],
    ]);
    expect(scores).toEqual({
      plus: "({a} + {b})",
      total: "sum({a}, {b})",
      mean_ab: "avg({a}, {b})",
      bmi: "round(({weight} / (1.8 * 1.8)), 1)",
      down: "floor(({weight} / 3))",
      band: "(({score:total} >= 4) ? 2 : (({score:total} >= 2) ? 1 : 0))",
      both: "(({a} == 3) && ({b} != 0))",
    });
    expect(problemsOf(report, "mean_ab")).toEqual([
      expect.stringContaining("mean() leaves blank fields out"),
    ]);
  });

  it("reports calculations the formula language cannot say, and the scores built on them", () => {
    const { scores, report } = scoresOf([
      ["power", "[weight] ^ 2"],
      ["days", "datediff([who], 'today', 'd')"],
      ["text", "[who] + 1"],
      ["option", "[sym(1)] + 1"],
      ["ahead", "[later_calc] + 1"],
      ["later_calc", "[a] * 2"],
      ["on_power", "[power] + 1"],
    ]);
    expect(scores).toEqual({ later_calc: "({a} * 2)" });
    expect(problemsOf(report, "power")).toEqual([expect.stringContaining("the operator ^")]);
    expect(problemsOf(report, "days")).toEqual([expect.stringContaining("datediff()")]);
    expect(problemsOf(report, "text")).toEqual([expect.stringContaining("[who] does not hold a number")]);
    expect(problemsOf(report, "option")).toEqual([expect.stringContaining("checkbox option")]);
    expect(problemsOf(report, "ahead")).toEqual([expect.stringContaining("computed after this one")]);
    expect(problemsOf(report, "on_power")).toEqual([
      expect.stringContaining("power, which was not imported"),
    ]);
  });
});

describe("REDCap matrix groups", () => {
  it("keeps rows as separate questions when they do not share their choices, and reports it", () => {
    const { definition, report } = read([
      { name: "m1", type: "radio", choices: FREQUENCY, matrix: "grid" },
      { name: "m2", type: "radio", choices: "0, No | 1, Yes", matrix: "grid" },
    ]);
    expectAccepted(definition);
    expect(definition.order).toEqual(["m1", "m2"]);
    expect(problemsOf(report, "matrix group grid")).toEqual([
      expect.stringContaining("do not share the same choices"),
    ]);
  });

  it("names a matrix row in logic as the matrix's sub-question", () => {
    const { definition } = read([
      { name: "m1", type: "radio", choices: "0, No | 1, Yes", matrix: "grid", section: "Symptoms" },
      { name: "m2", type: "radio", choices: "0, No | 1, Yes", matrix: "grid" },
      { name: "blank", type: "text", branching: "[m1] = ''" },
      { name: "not_yes", type: "text", branching: "[m2] <> '1'" },
      { name: "above", type: "text", branching: "[m1] > 0" },
    ]);
    expectAccepted(definition);
    expect(definition.questions.grid).toMatchObject({ type: "matrix", label: "Symptoms" });
    expect(definition.questions.blank!.logic!.show_if).toEqual([
      { comparator: "is_not_answered", question: "grid", sub_question: "m1" },
    ]);
    expect(definition.questions.not_yes!.logic!.show_if).toEqual([
      { comparator: "is_not_selected", question: "grid", sub_question: "m2", value: "1" },
    ]);
    expect(definition.questions.above!.logic!.show_if).toEqual([
      { comparator: ">", question: "grid", sub_question: "m1", value: 0 },
    ]);
  });

  it("reports that a score over some rows of a matrix cannot be imported", () => {
    const { definition, report } = read([
      { name: "m1", type: "radio", choices: FREQUENCY, matrix: "grid", branching: "" },
      { name: "m2", type: "radio", choices: FREQUENCY, matrix: "grid" },
      { name: "m3", type: "radio", choices: FREQUENCY, matrix: "grid" },
      { name: "part", type: "calc", choices: "[m1] + [m2]" },
      { name: "all", type: "calc", choices: "[m1] + [m2] + [m3]" },
    ]);
    expectAccepted(definition);
    expect(definition.questions.grid).toMatchObject({ type: "matrix", questions_order: ["m1", "m2", "m3"] });
    expect(definition.scores).toEqual([{ id: "all", name: "all", formula: "{grid}" }]);
    expect(problemsOf(report, "part")).toEqual([expect.stringContaining("one row of the matrix grid")]);
  });
});

describe("REDCap dictionaries with several forms", () => {
  const fields: FieldRow[] = [
    { name: "q1", type: "text", form: "baseline" },
    { name: "q2", type: "text", form: "follow_up" },
  ];

  const readForm = (form?: string) => readRedcapDictionary(dictionary(fields, false), "forms.csv", { form });

  it("imports the first form and reports the others, or the form named", () => {
    const first = readForm();
    expect(first.slug).toBe("baseline");
    expect(first.definition.order).toEqual(["q1"]);
    expect(problemsOf(first.report, "form follow_up")).toEqual([expect.stringContaining("--form")]);
    const named = readForm("follow_up");
    expect(named.slug).toBe("follow_up");
    expect(named.definition.order).toEqual(["q2"]);
  });

  it("refuses a form the dictionary does not have, naming its forms", () => {
    expect(refusal(() => readForm("exit"))).toContain(
      'has no form "exit"; its forms are baseline, follow_up',
    );
  });
});

describe("unreadable REDCap files", () => {
  it("refuses what is not a data dictionary, saying why", () => {
    expect(refusal(() => readRedcapInstrument(new Uint8Array([0xff, 0xfe, 0x00, 0x01]), "x.csv"))).toContain(
      "not a text file",
    );
    expect(refusal(() => readRedcapInstrument(strToU8("name,type\nq1,text\n"), "x.csv"))).toContain(
      'lacks the columns "Variable / Field Name", "Form Name", "Field Type", "Field Label", "Choices, Calculations, OR Slider Labels"',
    );
    expect(refusal(() => readRedcapInstrument(strToU8(""), "x.csv"))).toContain("is empty");
    expect(refusal(() => readRedcapInstrument(strToU8(`${HEADER.join(",")}\n`), "x.csv"))).toContain(
      "lists no fields",
    );
    expect(refusal(() => readRedcapInstrument(strToU8('a,"b\n'), "x.csv"))).toContain("not readable as CSV");
    expect(refusal(() => readRedcapInstrument(zipSync({ "OriginID.txt": strToU8("x") }), "x.zip"))).toContain(
      "holds no instrument.csv",
    );
    expect(refusal(() => readRedcapInstrument(strToU8("not a zip"), "x.zip"))).toContain(
      "not a readable zip",
    );
  });

  it("refuses a dictionary whose last row is cut short (a failed download), naming the line", () => {
    // REDCapR's longitudinal test project, its download cut off after the last field's label.
    const whole = readFileSync(path.join(thirdParty, "redcapr/longitudinal-dictionary.csv"), "utf8");
    const cut = whole.slice(0, whole.lastIndexOf(',"0, not open'));
    const lines = cut.split("\n").length;
    expect(refusal(() => readRedcapInstrument(strToU8(cut), "longitudinal.csv"))).toBe(
      `longitudinal.csv, line ${lines}: the row has 5 of the header's 18 columns; the file looks cut short (download it again)`,
    );
    expect(readRedcapInstrument(strToU8(whole), "longitudinal.csv").definition.order).toHaveLength(27);
  });

  it("refuses a form with nothing the portal can ask", () => {
    expect(refusal(() => read([{ name: "total", type: "calc", choices: "1 + 1" }]))).toContain(
      "has no field the portal can ask",
    );
  });
});

describe("readers by format", () => {
  it("registers the REDCap reader", () => {
    expect(INSTRUMENT_READERS.redcap).toBe(readRedcapInstrument);
  });

  it("refuses a format whose reader is not registered by name, not half-read", () => {
    for (const format of IMPORT_FORMATS) {
      const reader = INSTRUMENT_READERS[format];
      delete INSTRUMENT_READERS[format];
      try {
        expect(refusal(() => readStandardInstrumentBytes(format, strToU8("{}"), "x"))).toBe(
          `The format ${format} cannot be imported yet`,
        );
      } finally {
        INSTRUMENT_READERS[format] = reader;
      }
    }
  });
});
