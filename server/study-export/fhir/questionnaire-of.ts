/**
 * One definition version of an instrument as a FHIR R4 Questionnaire, in the SDC subset
 * LHC-Forms renders:
 * - select one → choice; select multiple → choice that repeats; likert → choice (its type kept
 *   in the portal's question-type extension); choices are answerOption Codings (code = choice
 *   id, display = label) with their score as ordinalValue;
 * - text → string (maxLength 140); integer, decimal, date, datetime → dateTime, time;
 *   numeric rating scale → integer with the slider item control, minValue and maxValue, and its
 *   end labels as "lower" and "upper" display items;
 * - introduction, prompt, pdf → display; matrix → a group with the "table" item control whose
 *   rows are choice items; multiple field → a group of typed fields; image capture → attachment
 *   that repeats; scribble and consent signature → attachment;
 * - a sibling group → a group holding its questions; a question's comments → a "help" display
 *   (FHIR forbids items under a display item: an introduction's or prompt's comments travel in
 *   the question-extras extension instead);
 * - show-if → enableWhen and enableBehavior where FHIR can say the same (enable-when-of.ts),
 *   otherwise verbatim in the show-if extension; each score → a read-only decimal item at the
 *   end with its calculatedExpression where the formula is a plain sum
 *   (calculated-expression-of.ts), otherwise the formula verbatim in the score-formula extension.
 * Whatever else a question holds (its name, time format, images, a pdf's url...) travels in the
 * question-extras extension, so that the import restores the definition unchanged.
 */
import type {
  Question,
  QuestionAttributes,
  Score,
  SubQuestion,
  SurveyDefinition,
} from "../../../core/contracts/survey-definition.ts";
import { TEXT_MAX_CHARACTERS } from "../../../core/contracts/survey-definition.ts";
import { orderedChoices, orderedSubQuestions } from "../../../core/survey-engine/answer-values.ts";
import { questionOf } from "../../../core/survey-engine/definition-lookup.ts";
import type { ExportConsentVersion, ExportInstrumentVersion } from "../export-source.ts";
import { calculatedExpressionOf } from "./calculated-expression-of.ts";
import { consentQuestionnaireSlug, fhirId, questionnaireCanonicalUrl } from "./canonical-url.ts";
import { enableWhenLogicOf } from "./enable-when-of.ts";
import {
  CALCULATED_EXPRESSION_URL,
  CLINRO_EXTENSION,
  FHIRPATH_LANGUAGE,
  MAX_VALUE_URL,
  MIN_VALUE_URL,
  ORDINAL_VALUE_URL,
  SLIDER_STEP_URL,
  UNIT_URL,
  itemControlExtension,
  type AnswerOption,
  type Extension,
  type ItemType,
  type Questionnaire,
  type QuestionnaireItem,
} from "./fhir-resources.ts";
import { helpLinkId, scoreLinkId, siblingGroupLinkId, subItemLinkId } from "./link-ids.ts";

/** The FHIR item type of each question type, and whether the type must be named beside it. */
const ITEM_TYPE_OF: Record<string, { type: ItemType; named?: true }> = {
  introduction: { type: "display", named: true },
  prompt: { type: "display", named: true },
  pdf: { type: "display", named: true },
  submission: { type: "display", named: true },
  select_one: { type: "choice" },
  select_multiple: { type: "choice" },
  likert: { type: "choice", named: true },
  text: { type: "string" },
  integer: { type: "integer" },
  decimal: { type: "decimal" },
  date: { type: "date" },
  datetime: { type: "dateTime" },
  time: { type: "time" },
  numeric_rating_scale: { type: "integer" },
  matrix: { type: "group" },
  multiple_field: { type: "group", named: true },
  image_capture: { type: "attachment" },
  scribble: { type: "attachment", named: true },
  consent_signature: { type: "attachment", named: true },
};

/** The FHIR item type answers of a question type take; undefined for display and group items. */
export function answerItemType(questionType: string): ItemType | undefined {
  const type = ITEM_TYPE_OF[questionType]?.type;
  return type === "display" || type === "group" ? undefined : type;
}

const FIELD_ITEM_TYPE: Record<string, ItemType> = { text: "string", integer: "integer", decimal: "decimal" };

/** The question fields this module writes as FHIR elements; every other one goes to extras. */
const WRITTEN_QUESTION_FIELDS = new Set([
  "id",
  "label",
  "type",
  "attributes",
  "choices",
  "choices_order",
  "questions",
  "questions_order",
  "comments",
  "sibling_id",
  "logic",
]);
const WRITTEN_DEFINITION_FIELDS = new Set(["title", "version", "order", "questions", "siblings", "scores"]);
const NUMBER_TYPES = new Set(["integer", "decimal", "numeric_rating_scale"]);

function stringExtension(url: string, value: string): Extension {
  return { url, valueString: value };
}

/** FHIR strings may not be empty: an empty label is left out rather than written as "". */
function textOf(text: string | undefined) {
  return text === undefined || text.trim() === "" ? {} : { text };
}

function withoutKeys(record: Record<string, unknown>, keys: ReadonlySet<string>) {
  return Object.fromEntries(
    Object.entries(record).filter(([key, value]) => !keys.has(key) && value !== undefined),
  );
}

function boundExtensions(attributes: QuestionAttributes, integer: boolean): Extension[] {
  const bound = (url: string, value: number | undefined): Extension[] => {
    if (value === undefined) return [];
    return [integer && Number.isInteger(value) ? { url, valueInteger: value } : { url, valueDecimal: value }];
  };
  return [...bound(MIN_VALUE_URL, attributes.min), ...bound(MAX_VALUE_URL, attributes.max)];
}

/** The attributes written as FHIR elements for this question type; the rest go to extras. */
function writtenAttributes(questionType: string): Set<string> {
  const written = new Set(["required"]);
  if (NUMBER_TYPES.has(questionType)) {
    written.add("min").add("max").add("unit");
  }
  if (questionType === "numeric_rating_scale") written.add("min_label").add("max_label");
  return written;
}

/** What a question holds that no FHIR element carries, or undefined when nothing. */
function questionExtras(
  question: Question,
  written: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  const extras: Record<string, unknown> = withoutKeys(question, written);
  const attributes = withoutKeys(question.attributes, writtenAttributes(question.type));
  if (Object.keys(attributes).length > 0) extras.attributes = attributes;
  const choices: Record<string, unknown> = {};
  for (const { id, choice } of orderedChoices(question)) {
    const rest = withoutKeys(choice, new Set(["label", "score_value"]));
    if (Object.keys(rest).length > 0) choices[id] = rest;
  }
  if (Object.keys(choices).length > 0) extras.choices = choices;
  const fields: Record<string, unknown> = {};
  for (const sub of orderedSubQuestions(question)) {
    const rest = withoutKeys(sub, new Set(["id", "label", "type", "attributes"]));
    const subAttributes = withoutKeys(sub.attributes, new Set(["required", "min", "max"]));
    if (Object.keys(subAttributes).length > 0) rest.attributes = subAttributes;
    if (Object.keys(rest).length > 0) fields[sub.id] = rest;
  }
  if (Object.keys(fields).length > 0) extras.questions = fields;
  return Object.keys(extras).length > 0 ? extras : undefined;
}

function answerOptionsOf(question: Question): AnswerOption[] {
  return orderedChoices(question).map(({ id, choice }) => ({
    valueCoding: { code: id, ...(choice.label.trim() === "" ? {} : { display: choice.label }) },
    ...(choice.score_value === undefined
      ? {}
      : { extension: [{ url: ORDINAL_VALUE_URL, valueDecimal: choice.score_value }] }),
  }));
}

function displayItem(linkId: string, text: string, control: string): QuestionnaireItem {
  return { linkId, text, type: "display", extension: [itemControlExtension(control)] };
}

function subItemOf(question: Question, sub: SubQuestion): QuestionnaireItem {
  const linkId = subItemLinkId(question.id, sub.id);
  const required = sub.attributes.required ? { required: true } : {};
  if (question.type === "matrix") {
    return {
      linkId,
      ...textOf(sub.label),
      type: "choice",
      ...required,
      answerOption: answerOptionsOf(question),
    };
  }
  const type = FIELD_ITEM_TYPE[sub.type ?? "text"] ?? "string";
  const bounds = type === "string" ? [] : boundExtensions(sub.attributes, type === "integer");
  return {
    linkId,
    ...textOf(sub.label),
    type,
    ...required,
    ...(type === "string" ? { maxLength: TEXT_MAX_CHARACTERS } : {}),
    ...(bounds.length > 0 ? { extension: bounds } : {}),
  };
}

function questionItem(question: Question, definition: SurveyDefinition): QuestionnaireItem {
  const mapping = ITEM_TYPE_OF[question.type];
  const extension: Extension[] = [];
  const children: QuestionnaireItem[] = [];
  const item: QuestionnaireItem = {
    linkId: question.id,
    ...textOf(question.label),
    type: mapping?.type ?? "display",
  };
  if (!mapping || mapping.named)
    extension.push({ url: CLINRO_EXTENSION.questionType, valueCode: question.type });
  if (item.type !== "display" && question.attributes.required) item.required = true;

  switch (question.type) {
    case "select_one":
    case "likert":
      item.answerOption = answerOptionsOf(question);
      break;
    case "select_multiple":
      item.repeats = true;
      item.answerOption = answerOptionsOf(question);
      break;
    case "text":
      item.maxLength = TEXT_MAX_CHARACTERS;
      break;
    case "integer":
    case "decimal":
      extension.push(...boundExtensions(question.attributes, question.type === "integer"));
      if (question.attributes.unit)
        extension.push({ url: UNIT_URL, valueCoding: { display: question.attributes.unit } });
      break;
    case "numeric_rating_scale":
      extension.push(itemControlExtension("slider"), { url: SLIDER_STEP_URL, valueInteger: 1 });
      extension.push(...boundExtensions(question.attributes, true));
      if (question.attributes.unit)
        extension.push({ url: UNIT_URL, valueCoding: { display: question.attributes.unit } });
      if (question.attributes.min_label)
        children.push(
          displayItem(subItemLinkId(question.id, "lower"), question.attributes.min_label, "lower"),
        );
      if (question.attributes.max_label)
        children.push(
          displayItem(subItemLinkId(question.id, "upper"), question.attributes.max_label, "upper"),
        );
      break;
    case "matrix":
      extension.push(itemControlExtension("table"));
      children.push(...orderedSubQuestions(question).map((sub) => subItemOf(question, sub)));
      break;
    case "multiple_field":
      children.push(...orderedSubQuestions(question).map((sub) => subItemOf(question, sub)));
      break;
    case "image_capture":
      item.repeats = true;
      break;
  }

  const isDisplay = item.type === "display";
  if (question.comments && !isDisplay) {
    children.unshift(displayItem(helpLinkId(question.id), question.comments, "help"));
  }
  const logic = enableWhenLogicOf(question.logic, definition);
  if (logic === undefined) {
    const verbatim = { show_if: question.logic?.show_if, operator: question.logic?.operator };
    extension.push(stringExtension(CLINRO_EXTENSION.showIf, JSON.stringify(verbatim)));
  } else if (logic.enableWhen.length > 0) {
    item.enableWhen = logic.enableWhen;
    if (logic.enableBehavior) item.enableBehavior = logic.enableBehavior;
  }
  const written = new Set(WRITTEN_QUESTION_FIELDS);
  if (isDisplay) written.delete("comments");
  const extras = questionExtras(question, written);
  if (extras) extension.push(stringExtension(CLINRO_EXTENSION.questionExtras, JSON.stringify(extras)));
  if (extension.length > 0) item.extension = extension;
  if (children.length > 0) item.item = children;
  return item;
}

function scoreItem(score: Score, definition: SurveyDefinition): QuestionnaireItem {
  const expression = calculatedExpressionOf(score.formula, definition);
  const extension: Extension[] = [
    expression === undefined
      ? stringExtension(CLINRO_EXTENSION.scoreFormula, score.formula)
      : { url: CALCULATED_EXPRESSION_URL, valueExpression: { language: FHIRPATH_LANGUAGE, expression } },
  ];
  if (score.description)
    extension.push(stringExtension(CLINRO_EXTENSION.scoreDescription, score.description));
  return { linkId: scoreLinkId(score.id), ...textOf(score.name), type: "decimal", readOnly: true, extension };
}

/** The items of a definition: questions in order, sibling groups as groups, then the scores. */
export function questionnaireItemsOf(definition: SurveyDefinition): QuestionnaireItem[] {
  const items: QuestionnaireItem[] = [];
  const groupsDone = new Set<string>();
  for (const id of definition.order) {
    const question = questionOf(definition, id);
    if (!question) continue;
    const groupId = question.sibling_id;
    const members = groupId === undefined ? undefined : definition.siblings[groupId];
    if (groupId === undefined || members === undefined) {
      items.push(questionItem(question, definition));
      continue;
    }
    if (groupsDone.has(groupId)) continue;
    groupsDone.add(groupId);
    items.push({
      linkId: siblingGroupLinkId(groupId),
      type: "group",
      item: members.flatMap((memberId) => {
        const member = questionOf(definition, memberId);
        return member ? [questionItem(member, definition)] : [];
      }),
    });
  }
  items.push(...definition.scores.map((score) => scoreItem(score, definition)));
  return items;
}

/** Questionnaire.name as FHIR wants it (que-0): ham-d-17 → HamD17. */
function machineName(id: string) {
  const words = id.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
  const name = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");
  return /^[A-Z]/.test(name) ? name : `Q${name}`;
}

export type QuestionnaireIdentity = {
  url: string;
  version: number | string;
  /** The resource id in an export. */
  id?: string;
  /** The instrument's display name, when the definition has no title. */
  name: string;
};

/** A definition as a Questionnaire, under the given canonical URL and version. */
export function questionnaireOfDefinition(
  definition: SurveyDefinition,
  identity: QuestionnaireIdentity,
): Questionnaire {
  const extras = withoutKeys(definition, WRITTEN_DEFINITION_FIELDS);
  return {
    resourceType: "Questionnaire",
    ...(identity.id === undefined ? {} : { id: identity.id }),
    extension: [stringExtension(CLINRO_EXTENSION.definitionExtras, JSON.stringify(extras))],
    url: identity.url,
    version: String(identity.version),
    name: machineName(String(definition.id)),
    title: definition.title?.trim() || identity.name,
    status: "active",
    subjectType: ["Patient"],
    item: questionnaireItemsOf(definition),
  };
}

/** One instrument version of a study's export as a Questionnaire. */
export function questionnaireOf(
  studyId: number,
  version: ExportInstrumentVersion,
  publicUrl: string | undefined,
): Questionnaire {
  return questionnaireOfDefinition(version.definition, {
    url: questionnaireCanonicalUrl(studyId, version.slug, publicUrl),
    version: version.versionNumber,
    id: fhirId("study", studyId, version.slug, "v", version.versionNumber),
    name: version.name,
  });
}

/** One published consent version as a Questionnaire. */
export function consentQuestionnaireOf(
  studyId: number,
  version: ExportConsentVersion,
  publicUrl: string | undefined,
): Questionnaire {
  const slug = consentQuestionnaireSlug(version.consentId);
  return questionnaireOfDefinition(version.definition, {
    url: questionnaireCanonicalUrl(studyId, slug, publicUrl),
    version: version.version,
    id: fhirId("study", studyId, slug, "v", version.version),
    name: version.title,
  });
}
