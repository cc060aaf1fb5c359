/**
 * A REDCap form as a survey definition: the data dictionary CSV or instrument zip in
 * (redcap-dictionary.ts), one form of it out as a clinician instrument, with a report of
 * everything the definition does not carry.
 *
 * How fields map (redcap-form-questions.ts builds the questions; the logic and the scores are
 * translated here, once every question's place in the order is known):
 * - text → text, or date / datetime / time / integer / decimal by its validation, with min/max;
 *   other validations (email, phone...) are reported and the field kept as text;
 * - notes → text (the portal holds 140 characters: reported);
 * - radio, dropdown, yesno, truefalse → select_one, the REDCap codes as choice ids and, when
 *   numeric, as score_value (what REDCap calculations use); checkbox → select_multiple;
 * - calc → a score, its equation translated (calc-formula.ts), else reported;
 * - descriptive → prompt; a section header → an introduction question before its field;
 * - slider → numeric_rating_scale (0 to 100 unless bounded), its end labels kept;
 * - file → image_capture (reported: only photos are taken), or scribble for a signature;
 * - a matrix group whose rows share their choices → one matrix question;
 * - branching logic → show_if (branching-logic.ts), else reported and the question kept
 *   without logic; Required Field? y → required.
 * A dictionary with several forms imports the one named (or the first) and reports the others;
 * a project dictionary's first field, the record id, is reported rather than asked.
 */
import type {
  Question,
  QuestionLogic,
  Score,
  SurveyDefinition,
} from "../../../core/contracts/survey-definition.ts";
import { parseSurveyDefinition } from "../../../core/survey-engine/validate-definition.ts";
import { ImportError, slugFrom } from "../../instruments/import-instrument.ts";
import type { ImportedInstrument, ImportReportEntry, InstrumentReader } from "../imported-instrument.ts";
import { translateBranchingLogic } from "./branching-logic.ts";
import { translateCalculation } from "./calc-formula.ts";
import { readDictionary, type DictionaryField } from "./redcap-dictionary.ts";
import type { FieldRef } from "./redcap-field-refs.ts";
import { FormReader, type BuiltQuestion } from "./redcap-form-questions.ts";

export type RedcapReadOptions = {
  /** The form to import from a dictionary holding several; default: the first. */
  form?: string | undefined;
};

function titleOf(form: string) {
  const words = form.replace(/_+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The field refs the logic and calc translators resolve names with. */
function fieldRefsOf(questions: BuiltQuestion[], calcs: DictionaryField[]): Map<string, FieldRef> {
  const refs = new Map<string, FieldRef>();
  questions.forEach((built, position) => {
    if (built.question.type === "matrix") {
      for (const row of built.fields) {
        refs.set(row.name, {
          kind: "matrix-row",
          questionId: built.question.id,
          rowId: row.name,
          choiceCodes: built.codes,
          position,
        });
      }
      return;
    }
    for (const field of built.fields) {
      refs.set(field.name, {
        kind: "question",
        questionId: built.question.id,
        valueKind: built.valueKind,
        choiceCodes: built.codes,
        numericChoices: built.numericChoices,
        position,
      });
    }
  });
  calcs.forEach((calc, position) => refs.set(calc.name, { kind: "score", scoreId: calc.name, position }));
  return refs;
}

/** REDCap writes datetimes in logic as 'YYYY-MM-DD HH:MM'; the engine wants an ISO instant. */
function isoDatetimes(logic: QuestionLogic, questions: Map<string, Question>): QuestionLogic {
  const fix = (term: QuestionLogic["show_if"][number]): QuestionLogic["show_if"][number] => {
    if (term.comparator === "boolean_combine") return { ...term, terms: term.terms.map(fix) };
    if (questions.get(term.question)?.type !== "datetime" || typeof term.value !== "string") return term;
    const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?$/.exec(term.value.trim());
    return match ? { ...term, value: `${match[1]}T${match[2]}${match[3] ?? ""}Z` } : term;
  };
  return { ...logic, show_if: logic.show_if.map(fix) };
}

/** Reads one form of a REDCap data dictionary or instrument zip (see the module header). */
export function readRedcapDictionary(
  bytes: Uint8Array,
  fileName: string,
  options: RedcapReadOptions = {},
): ImportedInstrument {
  const dictionary = readDictionary(bytes, fileName);
  const forms = [...new Set(dictionary.fields.map((field) => field.form))];
  const form = options.form ?? forms[0]!;
  if (!forms.includes(form)) {
    throw new ImportError(`${dictionary.source} has no form "${form}"; its forms are ${forms.join(", ")}`);
  }
  const report: ImportReportEntry[] = [];
  for (const other of forms) {
    if (other !== form) {
      report.push({
        source: `form ${other}`,
        problem: `not imported: one form is imported at a time (this import took ${form}; name another with --form)`,
      });
    }
  }
  let fields = dictionary.fields.filter((field) => field.form === form);
  // A project's data dictionary starts with the record id (a text field); the portal
  // identifies participants itself. An instrument zip holds one form, without it.
  const recordId = dictionary.fields[0]!;
  const isRecordId = !dictionary.isZip && recordId.type === "text" && recordId.validation === "";
  if (isRecordId && recordId.form === form && fields[0] === recordId && fields.length > 1) {
    report.push({
      source: recordId.name,
      problem:
        "the record id field (the project's first field) is not a question: the portal identifies participants itself",
    });
    fields = fields.slice(1);
  }

  const reader = new FormReader(fields);
  const { questions: built, calcs } = reader.build();
  report.push(...reader.report);
  if (built.length === 0) {
    throw new ImportError(`${dictionary.source}: the form ${form} has no field the portal can ask`);
  }
  const refs = fieldRefsOf(built, calcs);
  const questionsById = new Map(built.map((entry) => [entry.question.id, entry.question]));
  built.forEach((entry, position) => {
    if (!entry.branching) return;
    const result = translateBranchingLogic(entry.branching.source, refs, position);
    if (result.ok) {
      entry.question.logic = isoDatetimes(result.logic, questionsById);
    } else {
      report.push({
        source: entry.branching.field,
        problem: `branching logic "${entry.branching.source}" not imported (${result.reason}): the question is always shown`,
      });
    }
  });

  const scores: Score[] = [];
  calcs.forEach((calc, position) => {
    const result = translateCalculation(calc.choices, refs, position);
    if (!result.ok) {
      report.push({
        source: calc.name,
        problem: `calculation "${calc.choices.trim()}" not imported as a score (${result.reason})`,
      });
      return;
    }
    for (const note of result.notes) report.push({ source: calc.name, problem: note });
    if (calc.branching.trim() !== "") {
      report.push({
        source: calc.name,
        problem: `the branching logic of a calculated field is not carried: the score is always computed`,
      });
    }
    scores.push({ id: calc.name, name: reader.scoreName(calc), formula: result.formula });
  });
  // A calc the translation refused leaves later scores naming it: drop those too, reported.
  const kept = dropScoresNamingMissing(scores, calcs, report);

  const slug = slugFrom(form) || "redcap-instrument";
  const title = titleOf(form);
  const definition: SurveyDefinition = {
    id: slug,
    type: "CLINRO",
    title,
    order: built.map((entry) => entry.question.id),
    questions: Object.fromEntries(built.map((entry) => [entry.question.id, entry.question])),
    siblings: {},
    scores: kept,
  };
  const branchingSources = new Map(
    built.flatMap((entry) => (entry.branching ? [[entry.question.id, entry.branching.source] as const] : [])),
  );
  return {
    definition: checked(definition, report, dictionary.source, branchingSources),
    title,
    slug,
    report,
  };
}

function dropScoresNamingMissing(scores: Score[], calcs: DictionaryField[], report: ImportReportEntry[]) {
  const present = new Set<string>();
  const kept: Score[] = [];
  for (const score of scores) {
    const named = [...score.formula.matchAll(/\{score:([^}]+)\}/g)].map((match) => match[1]!);
    const missing = named.find((id) => !present.has(id));
    if (missing !== undefined && calcs.some((calc) => calc.name === missing)) {
      report.push({
        source: score.id,
        problem: `not imported as a score: it uses the calculated field ${missing}, which was not imported`,
      });
      continue;
    }
    present.add(score.id);
    kept.push(score);
  }
  return kept;
}

/**
 * The definition as the engine checks it. Logic the translator produced but the engine refuses
 * (a value the question cannot compare with) is taken off that question and reported; any other
 * problem means the file asked for something the portal cannot hold, and the file is refused.
 */
function checked(
  definition: SurveyDefinition,
  report: ImportReportEntry[],
  source: string,
  branchingSources: ReadonlyMap<string, string>,
): SurveyDefinition {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const result = parseSurveyDefinition(definition);
    if (result.ok) return definition;
    const logicProblems = result.problems.filter(
      (problem) =>
        problem.question !== undefined &&
        problem.field.startsWith("logic") &&
        definition.questions[problem.question]?.logic,
    );
    if (logicProblems.length === 0) {
      throw new ImportError(`${source} does not make a definition the portal accepts`, result.problems);
    }
    for (const problem of logicProblems) {
      const question = definition.questions[problem.question!]!;
      if (!question.logic) continue;
      delete question.logic;
      const logic = branchingSources.get(problem.question!);
      report.push({
        source: problem.question!,
        problem: `branching logic${logic === undefined ? "" : ` "${logic}"`} not imported (${problem.message}): the question is always shown`,
      });
    }
  }
  throw new ImportError(`${source} does not make a definition the portal accepts`);
}

export const readRedcapInstrument: InstrumentReader = (bytes, fileName) =>
  readRedcapDictionary(bytes, fileName);
