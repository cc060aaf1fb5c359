/**
 * Scores (spec 02 section 5): each score's formula evaluated with question values substituted.
 * The app computes them for the submission; the server recomputes them from what it received
 * and stores its own.
 */
import type { AnswerRecord } from "../contracts/survey-answers.ts";
import { type AnswerLookup } from "./answer-state.ts";
import type { Question, SurveyDefinition } from "../contracts/survey-definition.ts";
import { entryScore, questionOf, subQuestionOf } from "./definition-lookup.ts";
import {
  ExpressionError,
  evaluateExpression,
  parseExpression,
  roundTo,
  type Expression,
} from "./expression.ts";
import { numberOf } from "./show-if.ts";
import type { ScoredScore } from "../contracts/survey-submission.ts";

/** Score results keep at most this many decimals (spec 02 section 9). */
export const SCORE_DECIMALS = 2;

function sumOf(values: readonly (number | undefined)[]) {
  return values.reduce<number>((total, value) => total + (value ?? 0), 0);
}

/**
 * The number a question contributes to formulas:
 * - select one and likert: the selected choice's score_value;
 * - select multiple: the sum of the selected choices' score_values;
 * - matrix: the sum of the score_values of the choices picked in its rows;
 * - integer, decimal, numeric rating scale: the number;
 * - multiple field: the sum of its integer and decimal fields (text fields count nothing).
 * An unanswered question (no record, or a record that is not ANSWERED), a choice without a
 * score_value, and any other type count 0: a formula never fails for want of an answer.
 */
export function questionValue(question: Question, record: AnswerRecord | undefined): number {
  if (!record || record.state !== "ANSWERED") return 0;
  const entries = record.answer;
  switch (question.type) {
    case "select_one":
    case "likert":
      return entries[0] === undefined ? 0 : (entryScore(question, entries[0]) ?? 0);
    case "select_multiple":
    case "matrix":
      return sumOf(entries.map((entry) => entryScore(question, entry)));
    case "integer":
    case "decimal":
    case "numeric_rating_scale":
      return numberOf(entries[0]?.value) ?? 0;
    case "multiple_field":
      return sumOf(
        entries.map((entry) => {
          const field = entry.question === undefined ? undefined : subQuestionOf(question, entry.question);
          return field?.type === "integer" || field?.type === "decimal" ? numberOf(entry.value) : undefined;
        }),
      );
    default:
      return 0;
  }
}

/** A non-finite result is 0; any other is rounded to 2 decimals (spec 02 section 5). -0 is 0. */
export function finalScoreValue(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return roundTo(value, SCORE_DECIMALS);
}

const parsedFormulas = new Map<string, Expression | ExpressionError>();

function parseCached(formula: string): Expression | ExpressionError {
  let parsed = parsedFormulas.get(formula);
  if (parsed === undefined) {
    try {
      parsed = parseExpression(formula);
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      parsed = error;
    }
    if (parsedFormulas.size > 500) parsedFormulas.clear();
    parsedFormulas.set(formula, parsed);
  }
  return parsed;
}

/**
 * Computes every score of a definition, in the definition's order. A formula sees question
 * values (questionValue) and the final values of the scores before it; a reference to an
 * unknown question, or to a score not computed yet, is 0, and so is a formula that does not
 * parse (parseSurveyDefinition refuses such definitions; scoring never throws).
 */
export function scoreSurvey(definition: SurveyDefinition, answers: AnswerLookup): ScoredScore[] {
  const computed = new Map<string, number>();
  const scored: ScoredScore[] = [];
  for (const score of definition.scores) {
    const parsed = parseCached(score.formula);
    let value = 0;
    if (!(parsed instanceof ExpressionError)) {
      value = evaluateExpression(
        parsed,
        (ref) => {
          if (ref.kind === "score") return computed.get(ref.id) ?? 0;
          const question = questionOf(definition, ref.id);
          return question ? questionValue(question, answers(ref.id)) : 0;
        },
        { isAnswered: (questionId) => answers(questionId)?.state === "ANSWERED" },
      );
    }
    const finalValue = finalScoreValue(value);
    if (!computed.has(score.id)) computed.set(score.id, finalValue);
    scored.push({ ...score, final_value: finalValue });
  }
  return scored;
}
