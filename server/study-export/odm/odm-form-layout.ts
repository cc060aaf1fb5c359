/**
 * How one survey definition (an instrument version or a consent version) is laid out in CDISC
 * ODM 1.3.2: its item groups, items, code lists, conditions and methods, and how each item's
 * value is read from a submission's answers. The metadata writer (odm-metadata-xml.ts) and the
 * clinical data writer (odm-clinical-xml.ts) both work from this one layout, so an ItemData
 * always names an ItemDef the MetaDataVersion declares.
 *
 * Choices made where ODM leaves room (docs: README, "Data out"):
 * - Item groups follow the screens: a sibling group is one ItemGroupDef, a matrix is one
 *   ItemGroupDef (its label as Description, one item per row, sharing the matrix's CodeList),
 *   and the other questions in a row of the order share one ItemGroupDef. The scores are one
 *   last ItemGroupDef.
 * - A select-one, likert or matrix answer is the chosen choice's id (CodedValue), its score the
 *   CodeListItem's Rank. A select-multiple question is one item per choice coded 1 (chosen; the
 *   Rank is the choice's score) or 0 (not chosen), as REDCap exports checkboxes; a multiple
 *   field is one item per field. Such an item names its question and type in Aliases (and
 *   carries the question's label as Description), so the ODM reader rebuilds the question.
 * - Where ODM's DataType does not tell the portal's type (likert, numeric rating scale, photos,
 *   drawings), an Alias names it; a sibling group's ItemGroupDef names the group in an Alias.
 * - Introductions, prompts, PDFs and the submission step collect nothing and have no item.
 * - A consent signature is a text item holding the signer's printed name; the signature itself
 *   is an ODM Signature on that ItemData (odm-clinical-xml.ts).
 * - Show-if logic is a ConditionDef (CollectionExceptionConditionOID: the item is not collected
 *   when the logic does not hold), and each score a MethodDef, both in the portal's own
 *   notation (odm-conventions.ts); ODM has no standard expression language.
 */
import type { AnswerEntry, AnswerRecord } from "../../../core/contracts/survey-answers.ts";
import type { Question, SurveyDefinition } from "../../../core/contracts/survey-definition.ts";
import { subQuestionIds } from "../../../core/survey-engine/answer-state.ts";
import {
  entryChoiceId,
  orderedChoices,
  orderedSubQuestions,
} from "../../../core/survey-engine/answer-values.ts";
import {
  codeListOid,
  conditionOid,
  itemGroupOid,
  itemOid,
  measurementUnitOid,
  methodOid,
  scoreItemOid,
} from "./odm-conventions.ts";

export type OdmDataType = "text" | "integer" | "float" | "date" | "datetime" | "time" | "boolean";

export type OdmCodeList = {
  oid: string;
  name: string;
  dataType: "integer" | "text";
  items: { codedValue: string; label: string; rank: number | undefined }[];
};

export type OdmCondition = { oid: string; questionId: string; description: string; logicJson: string };

export type OdmMethod = { oid: string; name: string; description: string; formula: string };

/** What an item's value is read from: a submission's answer records and its final scores. */
export type OdmAnswers = { records: ReadonlyMap<string, AnswerRecord>; scores: ReadonlyMap<string, number> };

export type OdmItem = {
  oid: string;
  /** The question id (or `question.row`, `question.choice`, `question.field`, the score id). */
  name: string;
  dataType: OdmDataType;
  label: string;
  description: string | undefined;
  mandatory: boolean;
  length: number | undefined;
  codeListOid: string | undefined;
  unitOid: string | undefined;
  min: number | undefined;
  max: number | undefined;
  methodOid: string | undefined;
  conditionOid: string | undefined;
  /** The portal's question type, written as an Alias where the DataType does not tell it. */
  questionType: string | undefined;
  /** A matrix row's, select-multiple choice's or multiple-field field's question (an Alias). */
  partOf: string | undefined;
  /** The question whose consent signature this item holds. */
  signatureQuestionId: string | undefined;
  /** The value as ODM writes it, or undefined when the submission holds none. */
  read: (answers: OdmAnswers) => string | undefined;
};

export type OdmItemGroup = {
  oid: string;
  name: string;
  description: string | undefined;
  /** The sibling group the item group holds (an Alias), when it holds one. */
  siblingId: string | undefined;
  items: OdmItem[];
};

export type OdmFormLayout = {
  formKey: string;
  groups: OdmItemGroup[];
  codeLists: OdmCodeList[];
  conditions: OdmCondition[];
  methods: OdmMethod[];
  /** Every unit named by an item (BasicDefinitions declares them once for the study). */
  units: string[];
};

/** Text answers hold at most 140 characters: the ItemDef's Length. */
const TEXT_LENGTH = 140;

const TYPES_WITHOUT_ITEM = new Set(["introduction", "prompt", "pdf", "submission"]);

export function layoutForm(formKey: string, definition: SurveyDefinition): OdmFormLayout {
  const usedOids = new Set<string>();
  /** OIDs are unique in a MetaDataVersion; ids that collide once escaped get a numbered suffix. */
  const unique = (oid: string) => {
    let candidate = oid;
    for (let suffix = 2; usedOids.has(candidate); suffix += 1) candidate = `${oid}.${suffix}`;
    usedOids.add(candidate);
    return candidate;
  };
  const layout: OdmFormLayout = {
    formKey,
    groups: [],
    codeLists: [],
    conditions: [],
    methods: [],
    units: [],
  };
  let openGroup: OdmItemGroup | undefined;
  const groupsBySibling = new Map<string, OdmItemGroup>();
  const startGroup = (key: string, description?: string, siblingId?: string) => {
    const group: OdmItemGroup = {
      oid: unique(itemGroupOid(formKey, key)),
      name: key,
      description,
      siblingId,
      items: [],
    };
    layout.groups.push(group);
    return group;
  };

  for (const questionId of definition.order) {
    const question = definition.questions[questionId];
    if (!question || TYPES_WITHOUT_ITEM.has(question.type)) continue;
    const items = itemsOf(formKey, question, layout, unique);
    if (items.length === 0) continue;
    if (question.sibling_id !== undefined) {
      const sibling = question.sibling_id;
      let group = groupsBySibling.get(sibling);
      if (!group) {
        group = startGroup(sibling, undefined, sibling);
        groupsBySibling.set(sibling, group);
      }
      group.items.push(...items);
      openGroup = undefined;
    } else if (question.type === "matrix") {
      startGroup(questionId, question.label).items.push(...items);
      openGroup = undefined;
    } else {
      openGroup ??= startGroup(questionId);
      openGroup.items.push(...items);
    }
  }

  if (definition.scores.length > 0) {
    const scores = startGroup("SCORES", "Scores");
    for (const score of definition.scores) {
      const method: OdmMethod = {
        oid: unique(methodOid(formKey, score.id)),
        name: score.name || score.id,
        description: score.description ?? `${score.name || score.id}, computed by the portal`,
        formula: score.formula,
      };
      layout.methods.push(method);
      scores.items.push({
        ...blankItem(unique(scoreItemOid(formKey, score.id)), score.id, "float", score.name || score.id),
        description: score.description,
        methodOid: method.oid,
        read: ({ scores: finalValues }) => {
          const value = finalValues.get(score.id);
          return value === undefined ? undefined : String(value);
        },
      });
    }
  }
  return layout;
}

function blankItem(oid: string, name: string, dataType: OdmDataType, label: string): OdmItem {
  return {
    oid,
    name,
    dataType,
    label,
    description: undefined,
    mandatory: false,
    length: undefined,
    codeListOid: undefined,
    unitOid: undefined,
    min: undefined,
    max: undefined,
    methodOid: undefined,
    conditionOid: undefined,
    questionType: undefined,
    partOf: undefined,
    signatureQuestionId: undefined,
    read: () => undefined,
  };
}

/** The answered record of a question, or undefined: a skipped question has no value in ODM. */
function answeredEntries(answers: OdmAnswers, questionId: string): AnswerEntry[] | undefined {
  const record = answers.records.get(questionId);
  if (!record || record.state !== "ANSWERED" || record.answer.length === 0) return undefined;
  return record.answer;
}

function itemsOf(
  formKey: string,
  question: Question,
  layout: OdmFormLayout,
  unique: (oid: string) => string,
): OdmItem[] {
  const attributes = question.attributes;
  const mandatory = attributes.required;
  const condition = conditionOf(formKey, question, unique);
  if (condition) layout.conditions.push(condition);
  const common = { mandatory, conditionOid: condition?.oid };
  const id = question.id;
  const item = (dataType: OdmDataType, read: OdmItem["read"]): OdmItem => ({
    ...blankItem(unique(itemOid(formKey, id)), id, dataType, question.label),
    ...common,
    // Instructions shown under the label: the ItemDef's Description, which the reader reads back.
    description: question.comments,
    read,
  });

  switch (question.type) {
    case "select_one":
    case "likert": {
      const codeList = codeListOf(formKey, question, unique);
      layout.codeLists.push(codeList);
      return [
        {
          ...item(codeList.dataType, (answers) => entryChoiceId(answeredEntries(answers, id)?.[0])),
          codeListOid: codeList.oid,
          questionType: question.type === "likert" ? "likert" : undefined,
        },
      ];
    }
    case "select_multiple":
      // One item per choice, coded 1 (chosen, its Rank the choice's score) or 0 (not chosen).
      return orderedChoices(question).map(({ id: choiceId, choice }) => {
        const codeList: OdmCodeList = {
          oid: unique(codeListOid(formKey, `${id}.${choiceId}`)),
          name: `${id}.${choiceId}`,
          dataType: "integer",
          items: [
            { codedValue: "1", label: choice.label, rank: choice.score_value },
            { codedValue: "0", label: "Not chosen", rank: undefined },
          ],
        };
        layout.codeLists.push(codeList);
        return {
          ...blankItem(
            unique(itemOid(formKey, id, choiceId)),
            `${id}.${choiceId}`,
            "integer",
            `${question.label}: ${choice.label}`,
          ),
          ...common,
          ...partOfQuestion(question),
          codeListOid: codeList.oid,
          read: (answers: OdmAnswers) => {
            const entries = answeredEntries(answers, id);
            if (!entries) return undefined;
            return entries.some((entry) => entryChoiceId(entry) === choiceId) ? "1" : "0";
          },
        };
      });
    case "matrix": {
      const codeList = codeListOf(formKey, question, unique);
      layout.codeLists.push(codeList);
      return orderedSubQuestions(question).map((row) => ({
        ...blankItem(unique(itemOid(formKey, id, row.id)), `${id}.${row.id}`, codeList.dataType, row.label),
        ...common,
        ...partOfQuestion(question),
        codeListOid: codeList.oid,
        read: (answers: OdmAnswers) =>
          entryChoiceId(answeredEntries(answers, id)?.find((entry) => entry.question === row.id)),
      }));
    }
    case "multiple_field":
      return subQuestionIds(question).map((fieldId) => {
        const field = question.questions?.[fieldId];
        const dataType: OdmDataType =
          field?.type === "integer" ? "integer" : field?.type === "decimal" ? "float" : "text";
        return {
          ...blankItem(
            unique(itemOid(formKey, id, fieldId)),
            `${id}.${fieldId}`,
            dataType,
            field?.label ?? fieldId,
          ),
          ...common,
          ...partOfQuestion(question),
          min: field?.attributes.min,
          max: field?.attributes.max,
          length: dataType === "text" ? TEXT_LENGTH : undefined,
          unitOid: unitOf(field?.attributes.unit, layout),
          read: (answers: OdmAnswers) => {
            const entry = answeredEntries(answers, id)?.find((candidate) => candidate.question === fieldId);
            return entry === undefined || entry.value === null ? undefined : String(entry.value);
          },
        };
      });
    case "integer":
    case "decimal":
    case "numeric_rating_scale": {
      const isRatingScale = question.type === "numeric_rating_scale";
      return [
        {
          ...item(question.type === "decimal" ? "float" : "integer", (answers) => firstValue(answers, id)),
          min: attributes.min ?? (isRatingScale ? 0 : undefined),
          max: attributes.max ?? (isRatingScale ? 10 : undefined),
          unitOid: unitOf(attributes.unit, layout),
          questionType: isRatingScale ? "numeric_rating_scale" : undefined,
        },
      ];
    }
    case "text":
      return [{ ...item("text", (answers) => firstValue(answers, id)), length: TEXT_LENGTH }];
    case "date":
      return [item("date", (answers) => firstValue(answers, id)?.slice(0, 10))];
    case "datetime":
      return [item("datetime", (answers) => firstValue(answers, id))];
    case "time":
      // Stored as today's date, the time and the tablet's offset: ODM's time keeps the last two.
      return [item("time", (answers) => firstValue(answers, id)?.replace(/^[^T]*T/, ""))];
    case "consent_signature":
      return [
        {
          ...item("text", (answers) => answeredEntries(answers, id)?.[0]?.label),
          description: "The signer's printed name; the signature is the Signature on this item's data",
          signatureQuestionId: id,
        },
      ];
    default:
      // image capture (uploaded file names), scribble (a PNG data URL), and types the portal
      // does not know: the values as text, so nothing collected is left out; the type as an Alias.
      return [
        {
          ...item("text", (answers) => {
            const entries = answeredEntries(answers, id);
            if (!entries) return undefined;
            return entries
              .map((entry) => entry.value)
              .filter((value) => value !== null)
              .map(String)
              .join(" ");
          }),
          questionType: question.type,
        },
      ];
  }
}

/** A sub-item names its question and the question's type (Aliases), its label as Description. */
function partOfQuestion(question: Question) {
  return { partOf: question.id, questionType: question.type, description: question.label };
}

function firstValue(answers: OdmAnswers, questionId: string): string | undefined {
  const value = answeredEntries(answers, questionId)?.[0]?.value;
  return value === undefined || value === null ? undefined : String(value);
}

function unitOf(unit: string | undefined, layout: OdmFormLayout): string | undefined {
  if (unit === undefined || unit.trim() === "") return undefined;
  if (!layout.units.includes(unit)) layout.units.push(unit);
  return measurementUnitOid(unit);
}

function codeListOf(formKey: string, question: Question, unique: (oid: string) => string): OdmCodeList {
  const choices = orderedChoices(question);
  const allWholeNumbers = choices.length > 0 && choices.every(({ id }) => /^-?\d+$/.test(id));
  return {
    oid: unique(codeListOid(formKey, question.id)),
    name: question.id,
    dataType: allWholeNumbers ? "integer" : "text",
    items: choices.map(({ id, choice }) => ({
      codedValue: id,
      label: choice.label,
      rank: choice.score_value,
    })),
  };
}

function conditionOf(
  formKey: string,
  question: Question,
  unique: (oid: string) => string,
): OdmCondition | undefined {
  const logic = question.logic;
  if (!logic || logic.show_if.length === 0) return undefined;
  return {
    oid: unique(conditionOid(formKey, question.id)),
    questionId: question.id,
    description: `${question.id} is not collected when its show-if logic does not hold`,
    logicJson: JSON.stringify({ show_if: logic.show_if, operator: logic.operator }),
  };
}
