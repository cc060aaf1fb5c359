/**
 * The FHIR R4 Questionnaire reader of `clinro instrument import --from fhir`: a Questionnaire,
 * or a Bundle holding one, as JSON, in the SDC subset LHC-Forms renders (questions-of-items.ts
 * says what maps to what). enableWhen becomes show-if (show-if-of-enable-when.ts), and each
 * calculated item whose calculatedExpression is a plain sum of item values becomes a score
 * (fhirpath-sum.ts). What does not map is named in the report, never dropped silently; a file
 * that is not a Questionnaire is refused with the reason.
 */
import { SLUG_PATTERN, ImportError, slugFrom } from "../../instruments/import-instrument.ts";
import type {
  Question,
  QuestionLogic,
  Score,
  ShowIfTerm,
  SurveyDefinition,
} from "../../../core/contracts/survey-definition.ts";
import { parseSurveyDefinition } from "../../../core/survey-engine/validate-definition.ts";
import {
  CALCULATED_EXPRESSION_URL,
  CLINRO_EXTENSION,
  SCORE_LINK_PREFIX,
  VARIABLE_URL,
  extensionOf,
  type Extension,
  type Questionnaire,
  type QuestionnaireItem,
  type ValueSet,
} from "../../study-export/fhir/fhir-resources.ts";
import type { ImportReportEntry, InstrumentReader } from "../imported-instrument.ts";
import { readFhirPathSum, type SumTerm } from "./fhirpath-sum.ts";
import {
  codesOf,
  idOf,
  readQuestionnaireItems,
  type ItemsReading,
  type ScoreItem,
} from "./questions-of-items.ts";
import { showIfOfEnableWhen, type LogicContext } from "./show-if-of-enable-when.ts";

const CHOICE_TYPES = new Set(["select_one", "select_multiple", "likert"]);
const NUMBER_TYPES = new Set(["integer", "decimal", "numeric_rating_scale"]);
/** Questionnaire elements that are metadata the portal has no place for, but loses nothing by. */
const QUIET_ELEMENTS = new Set([
  "resourceType",
  "id",
  "meta",
  "text",
  "language",
  "url",
  "identifier",
  "version",
  "name",
  "title",
  "status",
  "experimental",
  "subjectType",
  "date",
  "publisher",
  "contact",
  "jurisdiction",
  "lastReviewDate",
  "approvalDate",
  "extension",
  "contained",
  "item",
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseJson(bytes: Uint8Array, fileName: string): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ImportError(`${fileName} is not UTF-8 text`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new ImportError(`${fileName} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The Questionnaire of the file: itself, or the first one of a Bundle (the others reported). */
function questionnaireOfJson(json: unknown, fileName: string, report: (entry: ImportReportEntry) => void) {
  if (!isObject(json)) throw new ImportError(`${fileName} is not a FHIR resource: it is not a JSON object`);
  if (json.resourceType === "Questionnaire") return json;
  if (json.resourceType !== "Bundle") {
    throw new ImportError(
      `${fileName} is not a Questionnaire: its resourceType is ${JSON.stringify(json.resourceType ?? null)}`,
    );
  }
  const entries = Array.isArray(json.entry) ? json.entry : [];
  let found: Record<string, unknown> | undefined;
  entries.forEach((entry, index) => {
    const resource = isObject(entry) && isObject(entry.resource) ? entry.resource : undefined;
    const type = String(resource?.resourceType ?? "an entry without a resource");
    if (resource?.resourceType === "Questionnaire" && !found) found = resource;
    else
      report({
        source: `Bundle entry[${index}]`,
        problem: `${type} not imported: one Questionnaire is read`,
      });
  });
  if (!found) throw new ImportError(`${fileName} is a Bundle without a Questionnaire`);
  return found;
}

/** A list of objects, each with the string fields named, or an ImportError saying where not. */
function checkObjects(list: unknown, where: string, strings: readonly string[]) {
  if (list === undefined) return;
  if (!Array.isArray(list)) throw new ImportError(`${where} must be a list`);
  list.forEach((entry, index) => {
    if (!isObject(entry)) throw new ImportError(`${where}[${index}] is not an object`);
    for (const field of strings) {
      if (typeof entry[field] !== "string") throw new ImportError(`${where}[${index}].${field} must be text`);
    }
  });
}

/** Checks the shape the reader relies on; a Questionnaire that lacks it is refused. */
function checkItems(items: unknown, path: string) {
  if (!Array.isArray(items)) throw new ImportError(`${path} must be a list of items`);
  items.forEach((item, index) => {
    const where = `${path}[${index}]`;
    if (!isObject(item)) throw new ImportError(`${where} is not an item`);
    if (typeof item.linkId !== "string" || item.linkId === "")
      throw new ImportError(`${where}.linkId is missing`);
    if (typeof item.type !== "string") throw new ImportError(`${where} (${item.linkId}) has no type`);
    for (const text of ["text", "prefix", "answerValueSet"]) {
      if (item[text] !== undefined && typeof item[text] !== "string") {
        throw new ImportError(`${where}.${text} (${item.linkId}) must be text`);
      }
    }
    checkObjects(item.enableWhen, `${where}.enableWhen`, ["question", "operator"]);
    checkObjects(item.answerOption, `${where}.answerOption`, []);
    checkObjects(item.extension, `${where}.extension`, ["url"]);
    if (item.item !== undefined) checkItems(item.item, `${where}.item`);
  });
}

function jsonOfExtension(
  holder: { extension?: Extension[] },
  url: string,
): Record<string, unknown> | undefined {
  const text = extensionOf(holder, url)?.valueString;
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function asTerm(logic: QuestionLogic): ShowIfTerm {
  const [only] = logic.show_if;
  return logic.show_if.length === 1 && only
    ? only
    : { comparator: "boolean_combine", operator: logic.operator, terms: logic.show_if };
}

/** Each question's show-if: the portal's verbatim extension, else its and its groups' enableWhen. */
function applyLogic(reading: ItemsReading, report: (entry: ImportReportEntry) => void) {
  const questions = new Map(reading.questions.map(({ question }) => [question.id, question]));
  const positions = new Map(reading.questions.map(({ question }, index) => [question.id, index]));
  const context: LogicContext = {
    targetOf: (linkId) => reading.targets.get(linkId),
    questionOf: (id) => questions.get(id),
    position: (id) => positions.get(id),
    report,
  };
  for (const { question, item, inherited, verbatimLogic } of reading.questions) {
    if (verbatimLogic) {
      question.logic = verbatimLogic;
      continue;
    }
    const parts = [...inherited, item]
      .map((source) => showIfOfEnableWhen(source, question.id, context))
      .filter((logic) => logic !== undefined);
    if (parts.length === 1) question.logic = parts[0];
    else if (parts.length > 1) question.logic = { show_if: parts.map(asTerm), operator: "and" };
  }
}

function variablesOf(holders: readonly { extension?: Extension[] }[]) {
  return (name: string) => {
    for (const holder of [...holders].reverse()) {
      const found = (holder.extension ?? []).find(
        (extension) => extension.url === VARIABLE_URL && extension.valueExpression?.name === name,
      );
      if (found) return found.valueExpression?.expression;
    }
    return undefined;
  };
}

/** A sum's terms as a formula over the imported questions, or why it cannot be one. */
function formulaOf(
  terms: SumTerm[],
  reading: ItemsReading,
  questions: ReadonlyMap<string, Question>,
  earlierScores: ReadonlyMap<string, string>,
): string {
  const parts = terms.map((term) => {
    if (term.kind === "number") return String(term.value);
    const score = earlierScores.get(term.linkId);
    if (score !== undefined) return `{score:${score}}`;
    const target = reading.targets.get(term.linkId);
    const question =
      target && target.subQuestionId === undefined ? questions.get(target.questionId) : undefined;
    if (!question) throw new Error(`"${term.linkId}" is not an imported question or an earlier score`);
    const fits =
      (term.weighted && !term.rows && CHOICE_TYPES.has(question.type)) ||
      (term.weighted && term.rows && question.type === "matrix") ||
      (!term.weighted && !term.rows && NUMBER_TYPES.has(question.type));
    if (!fits)
      throw new Error(
        `the value of "${term.linkId}" is not read the way its ${question.type} question scores`,
      );
    return `{${question.id}}`;
  });
  return parts.length === 1 ? parts[0]! : `sum(${parts.join(", ")})`;
}

function readScores(
  reading: ItemsReading,
  questionnaire: Questionnaire,
  report: (entry: ImportReportEntry) => void,
): Score[] {
  const questions = new Map(reading.questions.map(({ question }) => [question.id, question]));
  const scoreIds = new Map<string, string>();
  const used = new Set<string>();
  const scores: Score[] = [];
  for (const { item, ancestors } of reading.scores as ScoreItem[]) {
    const wanted = idOf(
      item.linkId.startsWith(SCORE_LINK_PREFIX) ? item.linkId.slice(SCORE_LINK_PREFIX.length) : item.linkId,
    );
    let id = wanted;
    for (let counter = 2; used.has(id); counter += 1) id = `${wanted}_${counter}`;
    let formula = extensionOf(item, CLINRO_EXTENSION.scoreFormula)?.valueString;
    const expression = extensionOf(item, CALCULATED_EXPRESSION_URL)?.valueExpression;
    if (formula === undefined && expression) {
      const sum = readFhirPathSum(expression.expression, variablesOf([questionnaire, ...ancestors, item]));
      try {
        if (!sum.ok) throw new Error(sum.reason);
        formula = formulaOf(sum.terms, reading, questions, scoreIds);
        if (sum.guarded) {
          report({
            source: item.linkId,
            problem:
              "the source shows no total until an item is answered; the portal's score counts unanswered items 0",
          });
        }
      } catch (error) {
        report({
          source: item.linkId,
          problem: `calculatedExpression not a plain sum (${(error as Error).message}): not imported as a score`,
        });
        continue;
      }
    }
    if (formula === undefined) {
      report({
        source: item.linkId,
        problem: "calculated item without a calculatedExpression: not imported",
      });
      continue;
    }
    used.add(id);
    scoreIds.set(item.linkId, id);
    const description = extensionOf(item, CLINRO_EXTENSION.scoreDescription)?.valueString;
    scores.push({ id, name: item.text ?? id, ...(description ? { description } : {}), formula });
  }
  return scores;
}

function reportQuestionnaireLeftovers(
  questionnaire: Record<string, unknown>,
  report: (entry: ImportReportEntry) => void,
) {
  for (const key of Object.keys(questionnaire)) {
    if (key === "code") {
      const codes = codesOf(questionnaire.code as Questionnaire["code"]);
      report({ source: "Questionnaire", problem: `code ${codes} not imported` });
    } else if (!QUIET_ELEMENTS.has(key) && !key.startsWith("_")) {
      report({ source: "Questionnaire", problem: `${key} not imported` });
    }
  }
  for (const extension of (questionnaire.extension as Extension[] | undefined) ?? []) {
    if (extension.url !== CLINRO_EXTENSION.definitionExtras && extension.url !== VARIABLE_URL) {
      report({ source: "Questionnaire", problem: `extension ${extension.url} not imported` });
    }
  }
}

function versionOf(version: unknown, report: (entry: ImportReportEntry) => void) {
  if (typeof version !== "string" || version === "") return undefined;
  if (/^\d+$/.test(version)) return Number(version);
  report({
    source: "Questionnaire.version",
    problem: `version "${version}" not imported: the portal numbers versions itself`,
  });
  return undefined;
}

export const readFhirQuestionnaire: InstrumentReader = (bytes, fileName) => {
  const report: ImportReportEntry[] = [];
  const add = (entry: ImportReportEntry) => report.push(entry);
  const json = questionnaireOfJson(parseJson(bytes, fileName), fileName, add);
  if (json.item === undefined) throw new ImportError(`${fileName}: the Questionnaire has no items`);
  checkItems(json.item, "item");
  checkObjects(json.contained, "contained", ["resourceType"]);
  checkObjects(json.extension, "extension", ["url"]);
  const questionnaire = json as Questionnaire;

  const valueSets: ValueSet[] = [];
  for (const [index, resource] of (questionnaire.contained ?? []).entries()) {
    const named = typeof resource.id === "string" || typeof (resource as ValueSet).url === "string";
    if (resource.resourceType === "ValueSet" && named) valueSets.push(resource as ValueSet);
    else add({ source: `contained[${index}]`, problem: `${resource.resourceType} not imported` });
  }
  reportQuestionnaireLeftovers(json, add);

  const reading = readQuestionnaireItems(questionnaire.item as QuestionnaireItem[], valueSets, add);
  if (reading.questions.length === 0) {
    throw new ImportError(`${fileName}: the Questionnaire has no item the portal can ask`);
  }
  applyLogic(reading, add);
  const scores = readScores(reading, questionnaire, add);

  const extras = jsonOfExtension(questionnaire, CLINRO_EXTENSION.definitionExtras) ?? {};
  const title = questionnaire.title ?? questionnaire.name ?? fileName.replace(/\.[^.]*$/, "");
  const fromExtras = typeof extras.id === "string" && SLUG_PATTERN.test(extras.id) ? extras.id : undefined;
  const slug = fromExtras ?? (slugFrom(questionnaire.name ?? title) || "questionnaire");
  const version = versionOf(questionnaire.version, add);
  const definition = {
    id: slug,
    type: "CLINRO",
    title,
    ...(version === undefined ? {} : { version }),
    ...extras,
    order: reading.questions.map(({ question }) => question.id),
    questions: Object.fromEntries(reading.questions.map(({ question }) => [question.id, question])),
    siblings: reading.siblings,
    scores,
  } as SurveyDefinition;

  const parsed = parseSurveyDefinition(definition);
  if (!parsed.ok) {
    throw new ImportError(
      `${fileName}: the Questionnaire does not make a definition the portal accepts`,
      parsed.problems,
    );
  }
  return { definition: parsed.definition, title, slug, report };
};
