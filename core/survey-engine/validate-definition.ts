/**
 * Reads a survey definition from JSON: the zod schema of definition.ts first, then the checks a
 * schema cannot express (ids that must refer to each other, show-if terms that the flow can
 * evaluate, sibling groups, formulas). Every problem names the question and the field, so an
 * author can find it: `Question "q3", field "choices_order[2]": "c9" is not one of its choices`.
 *
 * A question type the engine does not know is not a problem here: the flow reports it as
 * parsingFailed when it reaches it (spec 02 section 4).
 */
import type * as z from "zod/mini";
import "../contracts/zod-messages.ts";
import {
  LIKERT_CHOICE_COUNTS,
  SIBLING_TYPES,
  surveyDefinition,
  type Comparator,
  type Question,
  type QuestionAttributes,
  type ShowIfTerm,
  type SurveyDefinition,
} from "../contracts/survey-definition.ts";
import { choiceOf, questionOf, subQuestionOf } from "./definition-lookup.ts";
import { ExpressionError, describeExpressionError, parseExpression, referencedIds } from "./expression.ts";
import { dateOf, instantOf, numberOf, secondOfDay } from "./show-if.ts";

/** One thing wrong with a definition: the question (when it is about one), the field, what. */
export type DefinitionProblem = { question?: string; field: string; message: string };

export type DefinitionParseResult =
  { ok: true; definition: SurveyDefinition } | { ok: false; problems: DefinitionProblem[] };

/** `Question "q3", field "choices_order[2]": message`, or `Field "order[1]": message`. */
export function formatDefinitionProblem(problem: DefinitionProblem): string {
  const where = [
    problem.question === undefined ? undefined : `Question "${problem.question}"`,
    problem.field === "" ? undefined : `field "${problem.field}"`,
  ].filter((part) => part !== undefined);
  if (where.length === 0) return `Definition: ${problem.message}`;
  const text = where.join(", ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}: ${problem.message}`;
}

/**
 * Parses and checks a survey definition. On success the definition has its defaults filled in
 * (required false, operator and, empty siblings and scores); on failure every problem found is
 * listed, each naming the question and field.
 */
export function parseSurveyDefinition(json: unknown): DefinitionParseResult {
  const parsed = surveyDefinition.safeParse(json);
  if (!parsed.success)
    return { ok: false, problems: parsed.error.issues.flatMap((issue) => problemsOf(issue, [])) };
  const problems = crossCheck(parsed.data);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, definition: parsed.data };
}

// ---------------------------------------------------------------------------------------------
// zod issues to problems

type Path = readonly PropertyKey[];

/** order[3].name, attributes.min, logic.show_if[0].terms[1]: as an author reads a path. */
export function formatPath(path: Path): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text === "" ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

function problemAt(path: Path, message: string): DefinitionProblem {
  if (path[0] === "questions" && path.length >= 2) {
    return { question: String(path[1]), field: formatPath(path.slice(2)), message };
  }
  return { field: formatPath(path), message };
}

/**
 * A union issue (a show-if term is a comparison or a boolean_combine) holds the issues of each
 * alternative. Report the alternative the author meant: the one whose comparator matched, then
 * the one with the fewest issues.
 */
function problemsOf(issue: z.core.$ZodIssue, base: Path): DefinitionProblem[] {
  const path = [...base, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const rank = (branch: readonly z.core.$ZodIssue[]) =>
      (branch.some((inner) => inner.path.length === 1 && inner.path[0] === "comparator") ? 1000 : 0) +
      branch.length;
    const best = issue.errors.reduce((chosen, branch) => (rank(branch) < rank(chosen) ? branch : chosen));
    return best.flatMap((inner) => problemsOf(inner, path));
  }
  return [problemAt(path, issue.message)];
}

// ---------------------------------------------------------------------------------------------
// cross-checks

const CHOICE_TYPES = new Set(["select_one", "select_multiple", "likert", "matrix"]);
const SUB_QUESTION_TYPES = new Set(["matrix", "multiple_field"]);
const COMPARATORS_WITHOUT_VALUE = new Set(["is_answered", "is_not_answered"]);
const ORDERING_COMPARATORS = new Set([">", ">=", "<", "<="]);

type Report = (problem: DefinitionProblem) => void;

function crossCheck(definition: SurveyDefinition): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const report: Report = (problem) => problems.push(problem);
  const position = checkOrder(definition, report);
  for (const [key, question] of Object.entries(definition.questions)) {
    if (question.id !== key) {
      report({
        question: key,
        field: "id",
        message: `the id "${question.id}" differs from its key "${key}"`,
      });
    }
    checkQuestion(key, question, report);
    checkLogic(definition, key, question, position, report);
  }
  checkSiblings(definition, position, report);
  checkScores(definition, report);
  checkVersion(definition, report);
  return problems;
}

/** Each id of order is a question, once; returns each question's position in order. */
function checkOrder(definition: SurveyDefinition, report: Report): Map<string, number> {
  const position = new Map<string, number>();
  definition.order.forEach((id, index) => {
    const field = `order[${index}]`;
    if (!questionOf(definition, id)) report({ field, message: `"${id}" is not a question of this survey` });
    else if (position.has(id)) report({ field, message: `"${id}" appears more than once` });
    else position.set(id, index);
  });
  return position;
}

/** An order list (choices_order, questions_order) lists exactly the ids of its map. */
function checkListsExactly(
  questionId: string,
  field: string,
  listed: readonly string[],
  ids: readonly string[],
  noun: string,
  report: Report,
) {
  const known = new Set(ids);
  const seen = new Set<string>();
  listed.forEach((id, index) => {
    if (!known.has(id)) {
      report({
        question: questionId,
        field: `${field}[${index}]`,
        message: `"${id}" is not one of its ${noun}`,
      });
    } else if (seen.has(id)) {
      report({
        question: questionId,
        field: `${field}[${index}]`,
        message: `"${id}" appears more than once`,
      });
    }
    seen.add(id);
  });
  for (const id of ids) {
    if (!seen.has(id)) {
      report({
        question: questionId,
        field,
        message: `"${id}" is missing: it must list every one of its ${noun}`,
      });
    }
  }
}

function checkBounds(questionId: string, prefix: string, attributes: QuestionAttributes, report: Report) {
  if (attributes.min !== undefined && attributes.max !== undefined && attributes.min > attributes.max) {
    report({
      question: questionId,
      field: `${prefix}attributes.min`,
      message: `min (${attributes.min}) is greater than max (${attributes.max})`,
    });
  }
}

function checkQuestion(id: string, question: Question, report: Report) {
  const choiceIds = Object.keys(question.choices ?? {});
  const subIds = Object.keys(question.questions ?? {});
  if (question.choices_order) {
    checkListsExactly(id, "choices_order", question.choices_order, choiceIds, "choices", report);
  }
  if (question.questions_order) {
    const noun = question.type === "matrix" ? "rows" : "sub-questions";
    checkListsExactly(id, "questions_order", question.questions_order, subIds, noun, report);
  }
  if (CHOICE_TYPES.has(question.type) && choiceIds.length === 0) {
    report({ question: id, field: "choices", message: `a ${question.type} question needs choices` });
  }
  if (
    question.type === "likert" &&
    choiceIds.length > 0 &&
    !(LIKERT_CHOICE_COUNTS as readonly number[]).includes(choiceIds.length)
  ) {
    report({
      question: id,
      field: "choices",
      message: `a likert question has 5 or 7 choices, not ${choiceIds.length}`,
    });
  }
  if (question.type === "matrix" && subIds.length === 0) {
    report({ question: id, field: "questions", message: "a matrix needs rows" });
  }
  if (question.type === "multiple_field") {
    if (subIds.length === 0)
      report({ question: id, field: "questions", message: "a multiple field needs fields" });
    for (const [fieldId, field] of Object.entries(question.questions ?? {})) {
      if (field.type === undefined) {
        report({
          question: id,
          field: `questions.${fieldId}.type`,
          message: "a field of a multiple field needs a type: text, integer or decimal",
        });
      }
    }
  }
  for (const [subId, sub] of Object.entries(question.questions ?? {})) {
    if (sub.id !== subId) {
      report({
        question: id,
        field: `questions.${subId}.id`,
        message: `the id "${sub.id}" differs from its key "${subId}"`,
      });
    }
    checkBounds(id, `questions.${subId}.`, sub.attributes, report);
  }
  checkBounds(id, "", question.attributes, report);
}

function checkLogic(
  definition: SurveyDefinition,
  id: string,
  question: Question,
  position: ReadonlyMap<string, number>,
  report: Report,
) {
  question.logic?.show_if.forEach((term, index) =>
    checkTerm(definition, id, term, `logic.show_if[${index}]`, position, report),
  );
}

function checkTerm(
  definition: SurveyDefinition,
  questionId: string,
  term: ShowIfTerm,
  field: string,
  position: ReadonlyMap<string, number>,
  report: Report,
) {
  if (term.comparator === "boolean_combine") {
    term.terms.forEach((inner, index) =>
      checkTerm(definition, questionId, inner, `${field}.terms[${index}]`, position, report),
    );
    return;
  }
  const at = (name: string, message: string) =>
    report({ question: questionId, field: `${field}.${name}`, message });
  const target = questionOf(definition, term.question);
  if (!target) {
    at("question", `"${term.question}" is not a question of this survey`);
    return;
  }
  const own = position.get(questionId);
  const theirs = position.get(term.question);
  if (own !== undefined) {
    if (theirs === undefined) {
      at("question", `"${term.question}" is not in order, so it is never answered`);
    } else if (theirs >= own) {
      at(
        "question",
        theirs === own
          ? "a question cannot depend on its own answer"
          : `"${term.question}" comes later in order, so its answer is not known when this question is reached`,
      );
    }
  }
  if (term.sub_question !== undefined) {
    if (!SUB_QUESTION_TYPES.has(target.type)) {
      at("sub_question", `"${term.question}" is a ${target.type} question: it has no rows or fields`);
    } else if (!subQuestionOf(target, term.sub_question)) {
      at("sub_question", `"${term.sub_question}" is not a row or field of "${term.question}"`);
    }
  }
  if (COMPARATORS_WITHOUT_VALUE.has(term.comparator)) return;
  if (term.value === undefined) {
    at("value", `the comparator "${term.comparator}" needs a value`);
    return;
  }
  const problem = valueProblem(target, term.sub_question, term.comparator, term.value);
  if (problem) at("value", problem);
}

/** What is wrong with a term's value for the question it names, if anything. */
function valueProblem(
  target: Question,
  subQuestionId: string | undefined,
  comparator: Comparator,
  value: string | number | boolean,
): string | undefined {
  const shown = JSON.stringify(value);
  if (comparator === "is_selected" || comparator === "is_not_selected") {
    if (!CHOICE_TYPES.has(target.type))
      return `"${target.id}" is a ${target.type} question: it has no choices`;
    return choiceOf(target, String(value)) ? undefined : `${shown} is not a choice of "${target.id}"`;
  }
  if (typeof value === "boolean") {
    return ORDERING_COMPARATORS.has(comparator)
      ? `true and false can only be compared with = and !=`
      : undefined;
  }
  switch (target.type) {
    case "select_one":
    case "select_multiple":
    case "likert":
    case "matrix": {
      const choice = typeof value === "string" ? choiceOf(target, value) : undefined;
      if (choice) {
        return ORDERING_COMPARATORS.has(comparator) && choice.score_value === undefined
          ? `choice ${shown} has no score_value to compare with`
          : undefined;
      }
      return numberOf(value) === undefined
        ? `${shown} is neither a number nor a choice of "${target.id}"`
        : undefined;
    }
    case "integer":
    case "decimal":
    case "numeric_rating_scale":
      return numberOf(value) === undefined ? `${shown} is not a number` : undefined;
    case "multiple_field": {
      const field = subQuestionId === undefined ? undefined : subQuestionOf(target, subQuestionId);
      const numeric = field?.type === "integer" || field?.type === "decimal";
      return numeric && numberOf(value) === undefined ? `${shown} is not a number` : undefined;
    }
    case "date":
      return dateOf(String(value)) === undefined
        ? `${shown} is not a date: write it as YYYY-MM-DD`
        : undefined;
    case "datetime":
      return instantOf(String(value)) === undefined
        ? `${shown} is not a datetime: write it as YYYY-MM-DDTHH:mm with an offset (Z for UTC)`
        : undefined;
    case "time":
      return secondOfDay(String(value)) === undefined
        ? `${shown} is not a time: write it as HH:mm`
        : undefined;
    default:
      return undefined;
  }
}

function checkSiblings(definition: SurveyDefinition, position: ReadonlyMap<string, number>, report: Report) {
  const groupOf = new Map<string, string>();
  for (const [groupId, members] of Object.entries(definition.siblings)) {
    const positions: number[] = [];
    members.forEach((memberId, index) => {
      const field = `siblings.${groupId}[${index}]`;
      const member = questionOf(definition, memberId);
      if (!member) {
        report({ field, message: `"${memberId}" is not a question of this survey` });
        return;
      }
      const other = groupOf.get(memberId);
      if (other !== undefined) {
        report({
          field,
          message:
            other === groupId
              ? `"${memberId}" appears more than once`
              : `"${memberId}" is also in sibling group "${other}"`,
        });
        return;
      }
      groupOf.set(memberId, groupId);
      if (member.sibling_id !== groupId) {
        report({
          question: memberId,
          field: "sibling_id",
          message: `must be "${groupId}", the sibling group that lists this question`,
        });
      }
      if (!(SIBLING_TYPES as readonly string[]).includes(member.type)) {
        report({
          question: memberId,
          field: "type",
          message: `a ${member.type} question cannot be in a sibling group (allowed: ${SIBLING_TYPES.join(", ")})`,
        });
      }
      const at = position.get(memberId);
      if (at === undefined) report({ field, message: `"${memberId}" is not in order` });
      else positions.push(at);
    });
    if (positions.length > 1 && Math.max(...positions) - Math.min(...positions) + 1 !== positions.length) {
      report({
        field: `siblings.${groupId}`,
        message: `the questions of sibling group "${groupId}" must follow each other in order`,
      });
    }
  }
  for (const [id, question] of Object.entries(definition.questions)) {
    if (question.sibling_id !== undefined && !groupOf.has(id)) {
      report({
        question: id,
        field: "sibling_id",
        message: `sibling group "${question.sibling_id}" does not list this question`,
      });
    }
  }
}

function checkScores(definition: SurveyDefinition, report: Report) {
  const earlier = new Set<string>();
  const all = new Set(definition.scores.map((score) => score.id));
  definition.scores.forEach((score, index) => {
    if (earlier.has(score.id)) {
      report({ field: `scores[${index}].id`, message: `"${score.id}" is the id of another score` });
    }
    const field = `scores[${index}].formula`;
    try {
      const expression = parseExpression(score.formula);
      for (const ref of referencedIds(expression)) {
        if (ref.kind === "question" && !questionOf(definition, ref.id)) {
          report({ field, message: `{${ref.id}} is not a question of this survey` });
        } else if (ref.kind === "score" && !earlier.has(ref.id)) {
          report({
            field,
            message: all.has(ref.id)
              ? `{score:${ref.id}} is not computed before this score: a formula may use only the scores listed before it`
              : `{score:${ref.id}} is not a score of this survey`,
          });
        }
      }
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      report({ field, message: describeExpressionError(error) });
    }
    earlier.add(score.id);
  });
}

/** Submissions name the version they answered as a whole number (version_number). */
function checkVersion(definition: SurveyDefinition, report: Report) {
  const version = definition.version;
  if (typeof version === "string" && !/^\d+$/.test(version)) {
    report({
      field: "version",
      message: `"${version}" is not a whole number; submissions name the version as one`,
    });
  }
}
