/**
 * Show-if logic as FHIR enableWhen and enableBehavior, for the terms FHIR can express with the
 * same meaning:
 * - is_selected and is_not_selected on a choice question (or a matrix row): = and != on a Coding;
 * - is_answered and is_not_answered on a question, row or field: exists true or false;
 * - =, >, >=, <, <= with a number on an integer, decimal or rating scale question (or a numeric
 *   field of a multiple field): the same operator on an integer or decimal answer;
 * - several such terms joined by one operator at the top (and → all, or → any), including a
 *   single boolean_combine term holding them.
 * Anything else (a comparator on a choice's score, != on a number, which FHIR holds true when
 * unanswered while the engine holds it false, dates, nested and/or) is not expressed: the
 * caller keeps the whole logic verbatim in the portal's show-if extension instead.
 */
import type {
  Question,
  QuestionLogic,
  ShowIfTerm,
  SurveyDefinition,
} from "../../../core/contracts/survey-definition.ts";
import { questionOf, subQuestionOf } from "../../../core/survey-engine/definition-lookup.ts";
import type { EnableWhen, EnableWhenOperator } from "./fhir-resources.ts";
import { subItemLinkId } from "./link-ids.ts";

export type EnableWhenLogic = { enableWhen: EnableWhen[]; enableBehavior?: "all" | "any" };

const CODED_TYPES = new Set(["select_one", "select_multiple", "likert"]);
const NUMBER_TYPES = new Set(["integer", "decimal", "numeric_rating_scale"]);
const GROUP_TYPES = new Set(["matrix", "multiple_field"]);
const NUMBER_OPERATORS = new Set<string>(["=", ">", ">=", "<", "<="]);

/** The item type a term's target answers with: the question's, or its row's or field's. */
function targetKind(target: Question, subQuestionId: string | undefined) {
  if (subQuestionId === undefined) {
    if (GROUP_TYPES.has(target.type)) return undefined;
    if (CODED_TYPES.has(target.type)) return "coding";
    if (target.type === "decimal") return "decimal";
    return NUMBER_TYPES.has(target.type) ? "integer" : "other";
  }
  const sub = subQuestionOf(target, subQuestionId);
  if (!sub) return undefined;
  if (target.type === "matrix") return "coding";
  if (sub.type === "integer" || sub.type === "decimal") return sub.type;
  return "other";
}

function enableWhenOf(term: ShowIfTerm, definition: SurveyDefinition): EnableWhen | undefined {
  if (term.comparator === "boolean_combine") return undefined;
  const target = questionOf(definition, term.question);
  if (!target) return undefined;
  const kind = targetKind(target, term.sub_question);
  if (kind === undefined) return undefined;
  const question =
    term.sub_question === undefined ? term.question : subItemLinkId(term.question, term.sub_question);
  switch (term.comparator) {
    case "is_answered":
    case "is_not_answered":
      return { question, operator: "exists", answerBoolean: term.comparator === "is_answered" };
    case "is_selected":
    case "is_not_selected":
      if (kind !== "coding" || term.value === undefined) return undefined;
      return {
        question,
        operator: term.comparator === "is_selected" ? "=" : "!=",
        answerCoding: { code: String(term.value) },
      };
    default: {
      if (!NUMBER_OPERATORS.has(term.comparator) || typeof term.value !== "number") return undefined;
      const operator = term.comparator as EnableWhenOperator;
      if (kind === "integer" && Number.isInteger(term.value))
        return { question, operator, answerInteger: term.value };
      if (kind === "decimal") return { question, operator, answerDecimal: term.value };
      return undefined;
    }
  }
}

/** The enableWhen of a question's logic, or undefined when FHIR cannot express all of it. */
export function enableWhenLogicOf(
  logic: QuestionLogic | undefined,
  definition: SurveyDefinition,
): EnableWhenLogic | undefined {
  if (!logic || logic.show_if.length === 0) return { enableWhen: [] };
  let terms = logic.show_if;
  let operator = logic.operator;
  const [only] = terms;
  if (terms.length === 1 && only?.comparator === "boolean_combine") {
    terms = only.terms;
    operator = only.operator;
  }
  const enableWhen: EnableWhen[] = [];
  for (const term of terms) {
    const mapped = enableWhenOf(term, definition);
    if (!mapped) return undefined;
    enableWhen.push(mapped);
  }
  if (enableWhen.length < 2) return { enableWhen };
  return { enableWhen, enableBehavior: operator === "or" ? "any" : "all" };
}
