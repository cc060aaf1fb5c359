/**
 * A score formula as an SDC calculatedExpression (FHIRPath), when the formula is a plain sum:
 * question values, earlier scores and constants joined by + or sum(...). Each question
 * contributes what the engine's questionValue gives it: a choice's score is its ordinalValue,
 * read with FHIRPath's weight(); a number is the answer itself; a matrix sums its rows.
 *
 * The terms are combined into one collection and summed, `(a).combine(b).sum()`, rather than
 * added with +, because FHIRPath's + gives an empty result when one side is unanswered, while
 * the engine counts an unanswered question 0; sum() of the collection does the same.
 * Anything else (products, conditionals, min, round, a text or multiple-field question) is not
 * a plain sum: the caller keeps the formula verbatim in the portal's score-formula extension.
 */
import type { SurveyDefinition } from "../../../core/contracts/survey-definition.ts";
import { questionOf } from "../../../core/survey-engine/definition-lookup.ts";
import { ExpressionError, parseExpression, type Expression } from "../../../core/survey-engine/expression.ts";
import { scoreLinkId } from "./link-ids.ts";

const CHOICE_TYPES = new Set(["select_one", "select_multiple", "likert"]);
const NUMBER_TYPES = new Set(["integer", "decimal", "numeric_rating_scale"]);

/** A FHIRPath string literal. */
export function fhirPathString(text: string) {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

function itemPath(linkId: string) {
  return `%resource.repeat(item).where(linkId=${fhirPathString(linkId)})`;
}

/** The summands of a plain sum, or undefined when the expression is something else. */
function summandsOf(node: Expression): Expression[] | undefined {
  if (node.kind === "binary" && node.operator === "+") {
    const left = summandsOf(node.left);
    const right = summandsOf(node.right);
    return left && right ? [...left, ...right] : undefined;
  }
  if (node.kind === "call" && node.name === "sum") {
    const parts = node.args.map(summandsOf);
    return parts.every((part) => part !== undefined) ? parts.flat() : undefined;
  }
  return node.kind === "reference" || node.kind === "number" ? [node] : undefined;
}

function fhirPathOf(node: Expression, definition: SurveyDefinition): string | undefined {
  if (node.kind === "number") return String(node.value);
  if (node.kind !== "reference") return undefined;
  if (node.ref.kind === "score") return `${itemPath(scoreLinkId(node.ref.id))}.answer.value`;
  const question = questionOf(definition, node.ref.id);
  if (!question) return undefined;
  if (CHOICE_TYPES.has(question.type)) return `${itemPath(question.id)}.answer.value.weight()`;
  if (question.type === "matrix") return `${itemPath(question.id)}.item.answer.value.weight()`;
  if (NUMBER_TYPES.has(question.type)) return `${itemPath(question.id)}.answer.value`;
  return undefined;
}

/** The FHIRPath of a score formula, or undefined when it is not a plain sum. */
export function calculatedExpressionOf(formula: string, definition: SurveyDefinition): string | undefined {
  let parsed: Expression;
  try {
    parsed = parseExpression(formula);
  } catch (error) {
    if (error instanceof ExpressionError) return undefined;
    throw error;
  }
  const summands = summandsOf(parsed);
  if (!summands) return undefined;
  const paths = summands.map((summand) => fhirPathOf(summand, definition));
  if (paths.some((path) => path === undefined)) return undefined;
  const [first, ...rest] = paths as string[];
  return `(${first}).${rest.map((path) => `combine(${path}).`).join("")}sum()`;
}
