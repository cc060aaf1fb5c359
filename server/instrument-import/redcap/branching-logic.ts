/**
 * REDCap branching logic ("Show the field ONLY if...") as the engine's show_if terms. What the
 * engine's comparators say differently from REDCap is written out: REDCap's `[q] <> '1'` also
 * holds when q is blank, so it becomes "q is not answered, or q != 1". Anything the terms cannot
 * say (arithmetic, functions, a calculated field, a later question) throws, and the caller keeps
 * the question without logic and reports the expression.
 */
import type { Comparator, QuestionLogic, ShowIfTerm } from "../../../core/contracts/survey-definition.ts";
import type { FieldRef, FieldRefs } from "./redcap-field-refs.ts";
import {
  parseRedcapExpression,
  RedcapExpressionError,
  type BinaryOperator,
  type RedcapNode,
} from "./redcap-expression.ts";

const COMPARATORS: Partial<Record<BinaryOperator, Comparator>> = {
  "=": "=",
  "<>": "!=",
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
};
/** The comparison read from the other side: `0 < [q]` is `[q] > 0`. */
const FLIPPED: Partial<Record<BinaryOperator, BinaryOperator>> = {
  "=": "=",
  "<>": "<>",
  "<": ">",
  "<=": ">=",
  ">": "<",
  ">=": "<=",
};

type Literal = { text: string; number?: number | undefined };

function literalOf(node: RedcapNode): Literal | undefined {
  if (node.kind === "number") return { text: node.text, number: node.value };
  if (node.kind === "string") {
    const trimmed = node.value.trim();
    const number = /^-?(\d+(\.\d*)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : undefined;
    return { text: node.value, number };
  }
  if (node.kind === "unary" && node.operator === "-" && node.operand.kind === "number") {
    return { text: `-${node.operand.text}`, number: -node.operand.value };
  }
  return undefined;
}

const or = (...terms: ShowIfTerm[]): ShowIfTerm => ({ comparator: "boolean_combine", operator: "or", terms });

/** Translates parsed logic; `position` is the place in order of the question it belongs to. */
function translate(node: RedcapNode, refs: FieldRefs, position: number): ShowIfTerm {
  if (node.kind === "binary" && (node.operator === "and" || node.operator === "or")) {
    const terms: ShowIfTerm[] = [];
    const collect = (part: RedcapNode) => {
      if (part.kind === "binary" && part.operator === node.operator) {
        collect(part.left);
        collect(part.right);
      } else {
        terms.push(translate(part, refs, position));
      }
    };
    collect(node);
    return { comparator: "boolean_combine", operator: node.operator, terms };
  }
  if (node.kind === "binary" && COMPARATORS[node.operator] !== undefined) {
    if (node.left.kind === "field" && literalOf(node.right)) {
      return comparison(node.left, node.operator, literalOf(node.right)!, refs, position);
    }
    if (node.right.kind === "field" && literalOf(node.left)) {
      return comparison(node.right, FLIPPED[node.operator]!, literalOf(node.left)!, refs, position);
    }
    throw new RedcapExpressionError("a comparison must set a field against a value");
  }
  throw new RedcapExpressionError(
    "only comparisons of a field with a value, joined by and/or, can be shown-if logic",
  );
}

type QuestionRef = Exclude<FieldRef, { kind: "score" }>;

function resolve(field: RedcapNode & { kind: "field" }, refs: FieldRefs, position: number): QuestionRef {
  if (field.event !== undefined) {
    throw new RedcapExpressionError(
      `[${field.event}][${field.name}] names another event, which a form cannot see`,
    );
  }
  const ref = refs.get(field.name);
  if (!ref) throw new RedcapExpressionError(`[${field.name}] is not a field of this form`);
  if (ref.kind === "score") {
    throw new RedcapExpressionError(
      `[${field.name}] is a calculated field; shown-if logic can only name questions`,
    );
  }
  if (ref.position >= position) {
    throw new RedcapExpressionError(`[${field.name}] is not asked before this question`);
  }
  return ref;
}

function comparison(
  field: RedcapNode & { kind: "field" },
  operator: BinaryOperator,
  literal: Literal,
  refs: FieldRefs,
  position: number,
): ShowIfTerm {
  const ref = resolve(field, refs, position);
  const question = ref.questionId;
  const subQuestion = ref.kind === "matrix-row" ? { sub_question: ref.rowId } : {};
  const base = { question, ...subQuestion };
  const equality = operator === "=" || operator === "<>";

  // Checkbox option: [q(2)] = '1' (ticked) or '0' (not ticked).
  if (field.code !== undefined) {
    if (ref.kind !== "question" || ref.valueKind !== "multi") {
      throw new RedcapExpressionError(
        `[${field.name}(${field.code})] names an option, but ${field.name} is not a checkbox field`,
      );
    }
    if (!ref.choiceCodes.includes(field.code)) {
      throw new RedcapExpressionError(`${field.name} has no option ${field.code}`);
    }
    if (!equality || (literal.text !== "1" && literal.text !== "0")) {
      throw new RedcapExpressionError(`a checkbox option compares only = or <> with '1' or '0'`);
    }
    const ticked = (literal.text === "1") === (operator === "=");
    return { comparator: ticked ? "is_selected" : "is_not_selected", ...base, value: field.code };
  }

  if (literal.text === "") {
    if (!equality) throw new RedcapExpressionError(`'' (blank) compares only with = or <>`);
    return { comparator: operator === "=" ? "is_not_answered" : "is_answered", ...base };
  }

  const valueKind = ref.kind === "matrix-row" ? "choice" : ref.valueKind;
  if (valueKind === "choice") {
    if (equality && ref.choiceCodes.includes(literal.text)) {
      return {
        comparator: operator === "=" ? "is_selected" : "is_not_selected",
        ...base,
        value: literal.text,
      };
    }
    if (literal.number === undefined) {
      throw new RedcapExpressionError(`'${literal.text}' is not a choice of ${field.name}`);
    }
    return withBlank(operator, { comparator: COMPARATORS[operator]!, ...base, value: literal.number });
  }
  if (valueKind === "number") {
    if (literal.number === undefined)
      throw new RedcapExpressionError(`${field.name} holds numbers, not '${literal.text}'`);
    return withBlank(operator, { comparator: COMPARATORS[operator]!, ...base, value: literal.number });
  }
  if (valueKind === "text") {
    if (!equality)
      throw new RedcapExpressionError(`${field.name} holds text, which compares only with = or <>`);
    return withBlank(operator, { comparator: COMPARATORS[operator]!, ...base, value: literal.text });
  }
  if (valueKind === "date" || valueKind === "datetime" || valueKind === "time") {
    return withBlank(operator, { comparator: COMPARATORS[operator]!, ...base, value: literal.text });
  }
  if (valueKind === "multi") {
    throw new RedcapExpressionError(
      `${field.name} is a checkbox field: name the option, as [${field.name}(code)]`,
    );
  }
  throw new RedcapExpressionError(`${field.name} holds no answer to compare`);
}

/** REDCap's <> holds for a blank field; the engine's != does not, so the blank case is added. */
function withBlank(operator: BinaryOperator, term: ShowIfTerm & { question: string }): ShowIfTerm {
  if (operator !== "<>") return term;
  const { question, sub_question: subQuestion } = term as { question: string; sub_question?: string };
  return or(
    { comparator: "is_not_answered", question, ...(subQuestion ? { sub_question: subQuestion } : {}) },
    term,
  );
}

export type BranchingResult = { ok: true; logic: QuestionLogic } | { ok: false; reason: string };

/** The logic of the question at `position`, or why it cannot be expressed. */
export function translateBranchingLogic(source: string, refs: FieldRefs, position: number): BranchingResult {
  try {
    const term = translate(parseRedcapExpression(source), refs, position);
    if (term.comparator === "boolean_combine") {
      return { ok: true, logic: { show_if: term.terms, operator: term.operator } };
    }
    return { ok: true, logic: { show_if: [term], operator: "and" } };
  } catch (error) {
    if (!(error instanceof RedcapExpressionError)) throw error;
    return { ok: false, reason: error.message };
  }
}
