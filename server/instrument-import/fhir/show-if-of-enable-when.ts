/**
 * FHIR enableWhen and enableBehavior as show-if logic, once every item has become a question
 * (a condition may name any item, so it is read after all of them). Each condition becomes one
 * term: exists → is_answered / is_not_answered; = and != on a Coding (or a boolean) →
 * is_selected / is_not_selected; comparisons of numbers, text, dates and times → the same
 * comparator; enableBehavior any → or. A condition the engine cannot hold (on an item that is
 * not imported, comes later, or compares in a way the question's type does not allow) is left
 * out and named in the report, and so is != on a number or text, which FHIR holds true while
 * the question is unanswered and the engine holds false.
 */
import type {
  ComparisonTerm,
  Question,
  QuestionLogic,
  ShowIfTerm,
} from "../../../core/contracts/survey-definition.ts";
import { choiceOf, subQuestionOf } from "../../../core/survey-engine/definition-lookup.ts";
import type { EnableWhen, QuestionnaireItem } from "../../study-export/fhir/fhir-resources.ts";
import type { ImportReportEntry } from "../imported-instrument.ts";

/** Where an item landed: a question, or a row or field of one. */
export type ItemTarget = { questionId: string; subQuestionId?: string };

export type LogicContext = {
  targetOf: (linkId: string) => ItemTarget | undefined;
  questionOf: (id: string) => Question | undefined;
  /** Each question's position in order. */
  position: (id: string) => number | undefined;
  report: (entry: ImportReportEntry) => void;
};

const ORDERING = new Set([">", ">=", "<", "<="]);
const NUMBER_TYPES = new Set(["integer", "decimal", "numeric_rating_scale"]);

function clockTime(time: string) {
  return time.replace(/^(\d{2}:\d{2}):00$/, "$1");
}

function termOf(condition: EnableWhen, target: ItemTarget, question: Question): ComparisonTerm | string {
  const base = {
    question: target.questionId,
    ...(target.subQuestionId === undefined ? {} : { sub_question: target.subQuestionId }),
  };
  const { operator } = condition;
  if (operator === "exists") {
    return { ...base, comparator: condition.answerBoolean === false ? "is_not_answered" : "is_answered" };
  }
  const coded =
    condition.answerCoding?.code ??
    (condition.answerBoolean === undefined ? undefined : String(condition.answerBoolean));
  if (coded !== undefined) {
    if (operator !== "=" && operator !== "!=") return `${operator} on a coded answer has no meaning here`;
    if (!choiceOf(question, coded)) return `"${coded}" is not a choice of the item`;
    return { ...base, comparator: operator === "=" ? "is_selected" : "is_not_selected", value: coded };
  }
  const sub = target.subQuestionId === undefined ? undefined : subQuestionOf(question, target.subQuestionId);
  const answerType = sub?.type ?? question.type;
  const number = condition.answerInteger ?? condition.answerDecimal;
  let value: string | number | undefined;
  if (number !== undefined) {
    if (!NUMBER_TYPES.has(answerType)) return `a number compared with a ${answerType} question`;
    value = number;
  } else if (condition.answerString !== undefined) {
    if (answerType !== "text") return `text compared with a ${answerType} question`;
    if (ORDERING.has(operator)) return `${operator} on text has no meaning here`;
    value = condition.answerString;
  } else if (condition.answerDate !== undefined && answerType === "date") {
    value = condition.answerDate;
  } else if (condition.answerDateTime !== undefined && answerType === "datetime") {
    value = condition.answerDateTime;
  } else if (condition.answerTime !== undefined && answerType === "time") {
    value = clockTime(condition.answerTime);
  } else {
    return "its answer type does not match the item";
  }
  if (operator === "!=") {
    return "!= holds in FHIR while the item is unanswered, and not in the portal";
  }
  return { ...base, comparator: operator, value };
}

/** The show-if logic of an item's enableWhen, or undefined when it has none that maps. */
export function showIfOfEnableWhen(
  item: QuestionnaireItem,
  ownQuestionId: string,
  context: LogicContext,
): QuestionLogic | undefined {
  const terms: ShowIfTerm[] = [];
  (item.enableWhen ?? []).forEach((condition, index) => {
    const source = `${item.linkId} enableWhen[${index}]`;
    const leftOut = (why: string) =>
      context.report({ source, problem: `condition on "${condition.question}" not imported: ${why}` });
    const target = context.targetOf(condition.question);
    const question = target === undefined ? undefined : context.questionOf(target.questionId);
    if (!target || !question) return leftOut("that item is not imported as a question");
    const theirs = context.position(target.questionId);
    const own = context.position(ownQuestionId);
    if (theirs === undefined || own === undefined || theirs >= own) {
      return leftOut("that item is not asked before this one");
    }
    const term = termOf(condition, target, question);
    if (typeof term === "string") return leftOut(term);
    terms.push(term);
  });
  if (terms.length === 0) return undefined;
  return { show_if: terms, operator: item.enableBehavior === "any" ? "or" : "and" };
}
