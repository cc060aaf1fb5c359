/**
 * Questionnaire items as survey questions (the SDC subset LHC-Forms renders):
 * - choice → select one, or select multiple when it repeats; open-choice too, its free text
 *   reported as not kept; answerOption (Coding, string, integer, date, time) or a contained
 *   ValueSet (answerValueSet "#id", or the ValueSet's canonical url) → choices, with
 *   ordinalValue or itemWeight → score_value (an integer option scores its value);
 * - string, integer, date and time items with an answer list → select one (select multiple
 *   when they repeat) over that list, reported, as the answer is then the option chosen;
 * - boolean → select one Yes/No; string and text → text; integer, decimal, date, dateTime, time
 *   as themselves; integer with the slider item control → numeric rating scale; attachment →
 *   image capture; display → prompt;
 * - group with the "table" item control over choice items sharing their options → matrix; any
 *   other group whose items the engine may show together (SIBLING_TYPES) → a sibling group,
 *   else its items one after the other (reported); a repeating group is asked once (reported:
 *   the portal has no repeating groups);
 * - minValue, maxValue, questionnaire-unit, required; a question's "help" display → comments,
 *   "lower"/"upper" → a rating scale's end labels; prefix before the text.
 * The portal's own extensions (question-type, question-extras, show-if) restore what FHIR
 * cannot say, so an exported instrument comes back unchanged. Everything else an item holds is
 * named in the report. linkIds become question ids the formula language can name ([A-Za-z0-9_.-]);
 * a changed one is kept as the question's name.
 */
import {
  LIKERT_CHOICE_COUNTS,
  SIBLING_TYPES,
  type Choice,
  type Question,
  type QuestionAttributes,
  type QuestionLogic,
  type SubQuestion,
} from "../../../core/contracts/survey-definition.ts";
import {
  CALCULATED_EXPRESSION_URL,
  CLINRO_EXTENSION,
  HIDDEN_URL,
  ITEM_CONTROL_URL,
  ITEM_WEIGHT_URL,
  MAX_VALUE_URL,
  MIN_VALUE_URL,
  ORDINAL_VALUE_URL,
  SCORE_LINK_PREFIX,
  SLIDER_STEP_URL,
  UNIT_URL,
  VARIABLE_URL,
  extensionOf,
  itemControlOf,
  type AnswerOption,
  type Extension,
  type QuestionnaireItem,
  type ValueSet,
} from "../../study-export/fhir/fhir-resources.ts";
import { SIBLING_LINK_PREFIX } from "../../study-export/fhir/link-ids.ts";
import type { ImportReportEntry } from "../imported-instrument.ts";
import type { ItemTarget } from "./show-if-of-enable-when.ts";

/** A question read from an item, with what its logic will be read from. */
export type ReadQuestion = {
  question: Question;
  item: QuestionnaireItem;
  /** A group's conditions, which apply to each question read from inside it. */
  inherited: QuestionnaireItem[];
  /** The verbatim show-if of the portal's extension, when the item carries it. */
  verbatimLogic?: QuestionLogic | undefined;
};

/** A calculated item: a score, read once every question is known. */
export type ScoreItem = { item: QuestionnaireItem; ancestors: QuestionnaireItem[] };

export type ItemsReading = {
  questions: ReadQuestion[];
  siblings: Record<string, string[]>;
  scores: ScoreItem[];
  /** Where each linkId landed, for enableWhen and calculatedExpression. */
  targets: Map<string, ItemTarget>;
};

type Reader = {
  report: (entry: ImportReportEntry) => void;
  /** The contained ValueSets by id (answerValueSet "#id"). */
  valueSets: ReadonlyMap<string, ValueSet>;
  /** The same by their canonical url, with and without |version. */
  valueSetsByUrl: ReadonlyMap<string, ValueSet>;
  usedIds: Set<string>;
  reading: ItemsReading;
};

/** Extensions this module reads; any other on an item is reported. */
const READ_EXTENSIONS = new Set<string>([
  CLINRO_EXTENSION.questionType,
  CLINRO_EXTENSION.questionExtras,
  CLINRO_EXTENSION.showIf,
  CLINRO_EXTENSION.scoreFormula,
  CLINRO_EXTENSION.scoreDescription,
  ITEM_CONTROL_URL,
  MIN_VALUE_URL,
  MAX_VALUE_URL,
  UNIT_URL,
  SLIDER_STEP_URL,
  CALCULATED_EXPRESSION_URL,
  VARIABLE_URL,
]);
const CHOICE_ITEM_TYPES = new Set(["choice", "open-choice"]);
/** Item types whose answers R4 lets an answer list constrain, besides choice (answerOption[x]). */
const LISTED_VALUE_TYPES = new Set(["string", "integer", "date", "time"]);

/** Whether an item is answered by picking from its answerOption or answerValueSet. */
function hasAnswerList(item: QuestionnaireItem) {
  return (
    CHOICE_ITEM_TYPES.has(item.type) ||
    (LISTED_VALUE_TYPES.has(item.type) &&
      (item.answerOption !== undefined || item.answerValueSet !== undefined))
  );
}
const KNOWN_ITEM_FIELDS = new Set([
  "linkId",
  "text",
  "type",
  "prefix",
  "required",
  "repeats",
  "readOnly",
  "maxLength",
  "enableWhen",
  "enableBehavior",
  "answerOption",
  "answerValueSet",
  "extension",
  "item",
]);
const TEXT_LIMIT = 140;

/** A linkId as an id formulas can name: other characters become "_". */
export function idOf(linkId: string) {
  const id = linkId
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .replace(/^[_.-]+|_+$/g, "")
    .slice(0, 200);
  return id === "" ? "item" : id;
}

function uniqueId(wanted: string, used: Set<string>) {
  let id = wanted;
  for (let counter = 2; used.has(id); counter += 1) id = `${wanted}_${counter}`;
  used.add(id);
  return id;
}

function jsonExtension(item: { extension?: Extension[] }, url: string): unknown {
  const text = extensionOf(item, url)?.valueString;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function numberExtension(item: QuestionnaireItem, url: string) {
  const extension = extensionOf(item, url);
  return extension?.valueInteger ?? extension?.valueDecimal;
}

function isScoreItem(item: QuestionnaireItem) {
  return (
    extensionOf(item, CALCULATED_EXPRESSION_URL) !== undefined ||
    extensionOf(item, CLINRO_EXTENSION.scoreFormula) !== undefined ||
    (item.readOnly === true && item.linkId.startsWith(SCORE_LINK_PREFIX))
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Codings as a data manager reads them: http://loinc.org|44250-9. */
export function codesOf(codes: readonly { system?: string; code?: string }[] | undefined) {
  return (codes ?? []).map((coding) => [coding.system, coding.code].filter(Boolean).join("|")).join(", ");
}

function reportLeftovers(item: QuestionnaireItem, reader: Reader) {
  for (const extension of item.extension ?? []) {
    if (!READ_EXTENSIONS.has(extension.url)) {
      const problem =
        extension.url === HIDDEN_URL
          ? "hidden item: imported as a visible question"
          : `extension ${extension.url} not imported`;
      reader.report({ source: item.linkId, problem });
    }
  }
  for (const key of Object.keys(item)) {
    if (key === "code") {
      reader.report({ source: item.linkId, problem: `code ${codesOf(item.code)} not imported` });
    } else if (key.startsWith("_")) {
      // _text, _prefix...: extensions on a primitive, such as an XHTML rendering of the text.
      const element = (item as Record<string, unknown>)[key] as { extension?: Extension[] } | undefined;
      for (const extension of element?.extension ?? []) {
        reader.report({
          source: item.linkId,
          problem: `${key.slice(1)}: extension ${extension.url} not imported (the plain value is kept)`,
        });
      }
    } else if (!KNOWN_ITEM_FIELDS.has(key)) {
      reader.report({ source: item.linkId, problem: `${key} not imported` });
    }
  }
  const step = numberExtension(item, SLIDER_STEP_URL);
  if (step !== undefined && step !== 1) {
    reader.report({ source: item.linkId, problem: `slider step ${step} not imported: the scale moves by 1` });
  }
  if (item.readOnly && !isScoreItem(item)) {
    reader.report({ source: item.linkId, problem: "read-only: imported as a question that can be answered" });
  }
}

/** The choices of an item's answerOption or contained ValueSet, in their order. */
function choicesOf(item: QuestionnaireItem, reader: Reader) {
  const choices: Record<string, Choice> = {};
  const order: string[] = [];
  const add = (
    id: string | undefined,
    label: string,
    extensions: Extension[] | undefined,
    where: string,
    ownScore?: number,
  ) => {
    if (id === undefined || id === "") {
      reader.report({ source: where, problem: "answer option without a code or value: not imported" });
      return;
    }
    if (id === "__proto__") {
      reader.report({
        source: where,
        problem: "answer option __proto__ not imported: not a choice id the portal can hold",
      });
      return;
    }
    if (Object.hasOwn(choices, id)) {
      reader.report({
        source: where,
        problem: `second answer option "${id}": not imported (codes must differ)`,
      });
      return;
    }
    const scored = extensions?.find(
      (extension) => extension.url === ORDINAL_VALUE_URL || extension.url === ITEM_WEIGHT_URL,
    );
    const score = scored?.valueDecimal ?? scored?.valueInteger ?? ownScore;
    choices[id] = { label, ...(score === undefined ? {} : { score_value: score }) };
    order.push(id);
  };
  const options: AnswerOption[] = item.answerOption ?? [];
  options.forEach((option, index) => {
    const where = `${item.linkId} answerOption[${index}]`;
    if (option.valueCoding) {
      const { code, display } = option.valueCoding;
      add(code, display ?? code ?? "", option.extension, where);
    } else {
      const value = option.valueString ?? option.valueInteger ?? option.valueDate ?? option.valueTime;
      add(
        value === undefined ? undefined : String(value),
        value === undefined ? "" : String(value),
        option.extension,
        where,
        // An integer option keeps its number for formulas, as the integer answer would have.
        option.valueInteger,
      );
    }
    if (option.initialSelected)
      reader.report({ source: where, problem: "initialSelected not imported: nothing is preselected" });
  });
  if (item.answerValueSet !== undefined) {
    const valueSet = item.answerValueSet.startsWith("#")
      ? reader.valueSets.get(item.answerValueSet.slice(1))
      : // A canonical url, which may end in |version: the contained ValueSet of that url.
        (reader.valueSetsByUrl.get(item.answerValueSet) ??
        reader.valueSetsByUrl.get(item.answerValueSet.replace(/\|[^|]*$/, "")));
    if (!valueSet) {
      reader.report({
        source: item.linkId,
        problem: `answerValueSet ${item.answerValueSet} is not a ValueSet contained in the file: its answers are not imported`,
      });
    } else {
      // Read defensively: a contained resource is only checked to be a ValueSet.
      const listOf = <T>(value: T[] | undefined): T[] => (Array.isArray(value) ? value : []);
      const concepts = [
        ...listOf(valueSet.compose?.include).flatMap((include) => listOf(include.concept)),
        ...listOf(valueSet.expansion?.contains),
      ].filter((concept) => typeof concept === "object" && concept !== null);
      concepts.forEach((concept, index) =>
        add(
          concept.code,
          concept.display ?? concept.code,
          concept.extension,
          `${item.answerValueSet} concept[${index}]`,
        ),
      );
    }
  }
  return { choices, order };
}

function boundsOf(item: QuestionnaireItem): Partial<QuestionAttributes> {
  const min = numberExtension(item, MIN_VALUE_URL);
  const max = numberExtension(item, MAX_VALUE_URL);
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

/** What a question's display children say: help → comments, lower/upper → scale labels. */
function readChildren(item: QuestionnaireItem, question: Question, reader: Reader): QuestionnaireItem[] {
  const rest: QuestionnaireItem[] = [];
  for (const child of item.item ?? []) {
    const control = child.type === "display" ? itemControlOf(child) : undefined;
    if (control === "help" && child.text) question.comments = child.text;
    else if (control === "lower" && child.text) question.attributes.min_label = child.text;
    else if (control === "upper" && child.text) question.attributes.max_label = child.text;
    else rest.push(child);
  }
  if (rest.length > 0) {
    reader.report({
      source: item.linkId,
      problem: `${rest.length} item(s) nested under a question: asked after it, not inside its answer`,
    });
  }
  return rest;
}

function baseQuestion(item: QuestionnaireItem, type: string, reader: Reader): Question {
  const id = uniqueId(idOf(item.linkId), reader.usedIds);
  const label = [item.prefix, item.text].filter((part) => part !== undefined && part !== "").join(" ");
  return {
    id,
    ...(id === item.linkId ? {} : { name: item.linkId }),
    label,
    type,
    attributes: { required: item.required === true },
  };
}

/** The portal question type of a non-group item, from its FHIR type and item control. */
function questionTypeOf(
  item: QuestionnaireItem,
  hinted: string | undefined,
  reader: Reader,
): string | undefined {
  if (hinted) return hinted;
  if (!CHOICE_ITEM_TYPES.has(item.type) && hasAnswerList(item)) {
    reader.report({
      source: item.linkId,
      problem: `${item.type} item with an answer list: imported as a ${item.repeats ? "select multiple" : "select one"} question over the list, its answer recorded as the value chosen`,
    });
    return item.repeats ? "select_multiple" : "select_one";
  }
  switch (item.type) {
    case "display":
      return "prompt";
    case "choice":
    case "open-choice":
      if (item.type === "open-choice") {
        reader.report({
          source: item.linkId,
          problem: "open-choice: answers typed in are not kept, only the listed choices",
        });
      }
      return item.repeats ? "select_multiple" : "select_one";
    case "boolean":
      return "select_one";
    case "string":
    case "text":
      return "text";
    case "url":
      reader.report({ source: item.linkId, problem: "url item imported as a text question" });
      return "text";
    case "integer":
      return itemControlOf(item) === "slider" ? "numeric_rating_scale" : "integer";
    case "decimal":
      return "decimal";
    case "quantity":
      reader.report({
        source: item.linkId,
        problem: "quantity imported as a decimal: the unit is not asked",
      });
      return "decimal";
    case "date":
      return "date";
    case "dateTime":
      return "datetime";
    case "time":
      return "time";
    case "attachment":
      return "image_capture";
    default:
      reader.report({ source: item.linkId, problem: `item type ${item.type} not imported` });
      return undefined;
  }
}

/**
 * Copies a file's fields onto an object as its own properties. Object.assign would set
 * "__proto__" through the prototype's setter, letting a file change what the object inherits.
 */
function mergeInto(target: object, source: Record<string, unknown>) {
  for (const [key, value] of Object.entries(source)) {
    if (key === "__proto__") continue;
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }
}

/** Applies the portal's question-extras extension, which holds what FHIR has no element for. */
function applyExtras(question: Question, extras: unknown) {
  if (!isObject(extras)) return;
  const { attributes, choices, questions, ...rest } = extras;
  mergeInto(question, rest);
  if (isObject(attributes)) mergeInto(question.attributes, attributes);
  if (isObject(choices) && question.choices) {
    for (const [id, more] of Object.entries(choices)) {
      const choice = Object.hasOwn(question.choices, id) ? question.choices[id] : undefined;
      if (choice && isObject(more)) mergeInto(choice, more);
    }
  }
  if (isObject(questions) && question.questions) {
    for (const [id, more] of Object.entries(questions)) {
      const sub = Object.hasOwn(question.questions, id) ? question.questions[id] : undefined;
      if (!sub || !isObject(more)) continue;
      const { attributes: subAttributes, ...subRest } = more;
      mergeInto(sub, subRest);
      if (isObject(subAttributes)) mergeInto(sub.attributes, subAttributes);
    }
  }
}

function subIdOf(parent: QuestionnaireItem, child: QuestionnaireItem) {
  const prefix = `${parent.linkId}/`;
  return idOf(child.linkId.startsWith(prefix) ? child.linkId.slice(prefix.length) : child.linkId);
}

/** A group of choice items with the same options, shown as a table: a matrix. */
function matrixOf(
  item: QuestionnaireItem,
  hinted: string | undefined,
  reader: Reader,
  inherited: QuestionnaireItem[],
) {
  const rows = (item.item ?? []).filter(
    (child) => !(child.type === "display" && itemControlOf(child) === "help"),
  );
  if (hinted !== "matrix" && itemControlOf(item) !== "table" && itemControlOf(item) !== "gtable")
    return false;
  if (rows.length === 0 || !rows.every((row) => CHOICE_ITEM_TYPES.has(row.type) && !row.repeats))
    return false;
  const first = JSON.stringify(rows[0]!.answerOption ?? rows[0]!.answerValueSet);
  if (!rows.every((row) => JSON.stringify(row.answerOption ?? row.answerValueSet) === first)) return false;

  const { choices, order } = choicesOf(rows[0]!, reader);
  if (order.length === 0) return false;
  const question = baseQuestion(item, "matrix", reader);
  question.choices = choices;
  question.choices_order = order;
  const subs: Record<string, SubQuestion> = {};
  const subOrder: string[] = [];
  const used = new Set<string>();
  for (const row of rows) {
    const id = uniqueId(subIdOf(item, row), used);
    subs[id] = { id, label: row.text ?? "", attributes: { required: row.required === true } };
    subOrder.push(id);
    reader.reading.targets.set(row.linkId, { questionId: question.id, subQuestionId: id });
    reportLeftovers(row, reader);
    if (row.enableWhen)
      reader.report({
        source: row.linkId,
        problem: "enableWhen on a matrix row not imported: rows are always shown",
      });
  }
  question.questions = subs;
  question.questions_order = subOrder;
  readChildren(
    { ...item, item: (item.item ?? []).filter((child) => !rows.includes(child)) },
    question,
    reader,
  );
  finishQuestion(item, question, reader, inherited);
  return true;
}

const FIELD_TYPES: Record<string, SubQuestion["type"]> = {
  string: "text",
  text: "text",
  integer: "integer",
  decimal: "decimal",
};

/** A group of text and number fields: a multiple field (only when the portal's type says so). */
function multipleFieldOf(
  item: QuestionnaireItem,
  hinted: string | undefined,
  reader: Reader,
  inherited: QuestionnaireItem[],
) {
  const fields = (item.item ?? []).filter((child) => child.type !== "display");
  if (hinted !== "multiple_field" || fields.length === 0) return false;
  if (!fields.every((field) => FIELD_TYPES[field.type] !== undefined)) return false;
  const question = baseQuestion(item, "multiple_field", reader);
  const subs: Record<string, SubQuestion> = {};
  const order: string[] = [];
  const used = new Set<string>();
  for (const field of fields) {
    const id = uniqueId(subIdOf(item, field), used);
    subs[id] = {
      id,
      label: field.text ?? "",
      type: FIELD_TYPES[field.type],
      attributes: { required: field.required === true, ...boundsOf(field) },
    };
    order.push(id);
    reader.reading.targets.set(field.linkId, { questionId: question.id, subQuestionId: id });
    reportLeftovers(field, reader);
  }
  question.questions = subs;
  question.questions_order = order;
  readChildren(
    { ...item, item: (item.item ?? []).filter((child) => child.type === "display") },
    question,
    reader,
  );
  finishQuestion(item, question, reader, inherited);
  return true;
}

function finishQuestion(
  item: QuestionnaireItem,
  question: Question,
  reader: Reader,
  inherited: QuestionnaireItem[],
) {
  applyExtras(question, jsonExtension(item, CLINRO_EXTENSION.questionExtras));
  const verbatim = jsonExtension(item, CLINRO_EXTENSION.showIf);
  const verbatimLogic =
    isObject(verbatim) && Array.isArray(verbatim.show_if)
      ? ({ show_if: verbatim.show_if, operator: verbatim.operator === "or" ? "or" : "and" } as QuestionLogic)
      : undefined;
  reader.reading.targets.set(item.linkId, { questionId: question.id });
  reader.reading.questions.push({ question, item, inherited, verbatimLogic });
  reportLeftovers(item, reader);
}

function readQuestionItem(item: QuestionnaireItem, reader: Reader, inherited: QuestionnaireItem[]) {
  const hinted = extensionOf(item, CLINRO_EXTENSION.questionType)?.valueCode;
  const type = questionTypeOf(item, hinted, reader);
  if (type === undefined) return [];
  const question = baseQuestion(item, type, reader);
  if (item.type === "boolean") {
    question.choices = { true: { label: "Yes" }, false: { label: "No" } };
    question.choices_order = ["true", "false"];
  } else if (hasAnswerList(item)) {
    const { choices, order } = choicesOf(item, reader);
    if (order.length === 0) {
      reader.report({
        source: item.linkId,
        problem: "a choice item without answers the portal can read: imported as a text question",
      });
      question.type = "text";
    } else {
      question.choices = choices;
      question.choices_order = order;
      if (question.type === "likert" && !(LIKERT_CHOICE_COUNTS as readonly number[]).includes(order.length)) {
        reader.report({
          source: item.linkId,
          problem: `likert with ${order.length} choices: imported as select one`,
        });
        question.type = "select_one";
      }
    }
  }
  if (["integer", "decimal", "numeric_rating_scale"].includes(question.type)) {
    Object.assign(question.attributes, boundsOf(item));
    const unit = extensionOf(item, UNIT_URL)?.valueCoding;
    const unitText = unit?.display ?? unit?.code;
    if (unitText) question.attributes.unit = unitText;
  }
  if (
    question.type === "text" &&
    (item.maxLength === undefined ? item.type === "text" : item.maxLength > TEXT_LIMIT)
  ) {
    reader.report({
      source: item.linkId,
      problem: `text answers hold at most ${TEXT_LIMIT} characters here`,
    });
  }
  if (item.repeats && !hasAnswerList(item) && item.type !== "attachment") {
    reader.report({ source: item.linkId, problem: "repeats not imported: one answer is asked" });
  }
  const rest = readChildren(item, question, reader);
  finishQuestion(item, question, reader, inherited);
  return rest;
}

/** A group: a sibling group when the engine may show its questions together, else its items in turn. */
function readGroup(
  item: QuestionnaireItem,
  reader: Reader,
  inherited: QuestionnaireItem[],
  ancestors: QuestionnaireItem[],
) {
  const hinted = extensionOf(item, CLINRO_EXTENSION.questionType)?.valueCode;
  if (item.repeats) {
    reader.report({
      source: item.linkId,
      problem:
        "repeating group asked once: the portal has no repeating groups, so one occurrence of its questions is recorded",
    });
  }
  if (matrixOf(item, hinted, reader, inherited) || multipleFieldOf(item, hinted, reader, inherited)) return;
  reportLeftovers(item, reader);
  if (item.required)
    reader.report({
      source: item.linkId,
      problem: "required on a group not imported: its questions say whether they are required",
    });
  const conditions = item.enableWhen && item.enableWhen.length > 0 ? [...inherited, item] : inherited;
  const start = reader.reading.questions.length;
  const isOwnSiblingGroup = item.linkId.startsWith(SIBLING_LINK_PREFIX);
  if (item.text && !isOwnSiblingGroup) {
    const heading = baseQuestion(
      { linkId: `${item.linkId}_heading`, text: item.text, type: "display" },
      "prompt",
      reader,
    );
    reader.reading.questions.push({
      question: heading,
      item: { ...item, enableWhen: undefined },
      inherited: conditions,
    });
  }
  const firstMember = reader.reading.questions.length;
  readItems(item.item ?? [], reader, conditions, [...ancestors, item]);
  const members = reader.reading.questions.slice(firstMember);
  const nested = (item.item ?? []).some(
    (child) => child.type === "group" && !members.some((member) => member.item === child),
  );
  const siblingable =
    members.length > 0 &&
    !nested &&
    members.every((member) => (SIBLING_TYPES as readonly string[]).includes(member.question.type));
  if (siblingable) {
    const groupId = uniqueId(
      idOf(isOwnSiblingGroup ? item.linkId.slice(SIBLING_LINK_PREFIX.length) : item.linkId),
      reader.usedIds,
    );
    reader.reading.siblings[groupId] = members.map((member) => member.question.id);
    for (const member of members) member.question.sibling_id = groupId;
  } else if (reader.reading.questions.length > start) {
    reader.report({
      source: item.linkId,
      problem:
        "group imported as its questions one after the other: the portal shows together only select, text, datetime, matrix, rating scale and drawing questions",
    });
  }
}

function readItems(
  items: readonly QuestionnaireItem[],
  reader: Reader,
  inherited: QuestionnaireItem[],
  ancestors: QuestionnaireItem[],
) {
  for (const item of items) {
    if (isScoreItem(item)) {
      reader.reading.scores.push({ item, ancestors });
      continue;
    }
    if (item.type === "group") {
      readGroup(item, reader, inherited, ancestors);
      continue;
    }
    const rest = readQuestionItem(item, reader, inherited);
    if (rest.length > 0) readItems(rest, reader, inherited, [...ancestors, item]);
  }
}

/** Reads a Questionnaire's items into questions, sibling groups and score items. */
export function readQuestionnaireItems(
  items: readonly QuestionnaireItem[],
  containedValueSets: readonly ValueSet[],
  report: (entry: ImportReportEntry) => void,
): ItemsReading {
  const reading: ItemsReading = { questions: [], siblings: {}, scores: [], targets: new Map() };
  const valueSets = new Map<string, ValueSet>();
  const valueSetsByUrl = new Map<string, ValueSet>();
  for (const valueSet of containedValueSets) {
    if (typeof valueSet.id === "string") valueSets.set(valueSet.id, valueSet);
    if (typeof valueSet.url !== "string") continue;
    valueSetsByUrl.set(valueSet.url, valueSet);
    if (typeof valueSet.version === "string")
      valueSetsByUrl.set(`${valueSet.url}|${valueSet.version}`, valueSet);
  }
  readItems(items, { report, valueSets, valueSetsByUrl, usedIds: new Set(), reading }, [], []);
  return reading;
}
