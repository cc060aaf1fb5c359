/**
 * A REDCap calculated field's equation in the engine's formula language (docs/survey-format.md,
 * "Scores and formulas"): `[a] + [b]` becomes `{a} + {b}`, `sum([a],[b])` `sum({a}, {b})`,
 * `if(x, a, b)` `(x ? a : b)`, an earlier calc field `{score:name}`. A sum over every row of a
 * matrix group becomes the matrix question itself, whose value is the sum of its rows. What the
 * language cannot say (text, `^`, date functions, a single matrix row, a checkbox option)
 * throws, and the caller reports the calc field instead of importing a different calculation.
 */
import type { FieldRefs } from "./redcap-field-refs.ts";
import { parseRedcapExpression, RedcapExpressionError, type RedcapNode } from "./redcap-expression.ts";

const OPERATORS: Record<string, string> = {
  "+": "+",
  "-": "-",
  "*": "*",
  "/": "/",
  "=": "==",
  "<>": "!=",
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
  and: "&&",
  or: "||",
};
/** REDCap functions with an engine function of the same meaning. */
const FUNCTIONS: Record<string, string> = { sum: "sum", min: "min", max: "max", abs: "abs", mean: "avg" };

/** The formula of the calc field at `position` (its place among the scores), or why not. */
export function translateCalculation(
  source: string,
  refs: FieldRefs,
  scorePosition: number,
): { ok: true; formula: string; notes: string[] } | { ok: false; reason: string } {
  const notes: string[] = [];
  try {
    const formula = translate(parseRedcapExpression(source), refs, scorePosition, notes);
    return { ok: true, formula, notes };
  } catch (error) {
    if (!(error instanceof RedcapExpressionError)) throw error;
    return { ok: false, reason: error.message };
  }
}

/** The operands of a chain of + (a + b + c), or of a sum() call, to spot whole matrices. */
function additiveOperands(node: RedcapNode): RedcapNode[] {
  if (node.kind === "binary" && node.operator === "+") {
    return [...additiveOperands(node.left), ...additiveOperands(node.right)];
  }
  return [node];
}

/**
 * Replaces, among summed operands, every complete set of one matrix's rows by the matrix: the
 * engine's formulas name questions, and a matrix's value is the sum of its rows.
 */
function collapseMatrices(operands: RedcapNode[], refs: FieldRefs): (RedcapNode | { matrix: string })[] {
  const rowsByMatrix = new Map<string, Set<string>>();
  for (const ref of refs.values()) {
    if (ref.kind !== "matrix-row") continue;
    const rows = rowsByMatrix.get(ref.questionId) ?? new Set<string>();
    rows.add(ref.rowId);
    rowsByMatrix.set(ref.questionId, rows);
  }
  const named = new Map<string, Set<string>>();
  for (const operand of operands) {
    if (operand.kind !== "field" || operand.code !== undefined || operand.event !== undefined) continue;
    const ref = refs.get(operand.name);
    if (ref?.kind !== "matrix-row") continue;
    const rows = named.get(ref.questionId) ?? new Set<string>();
    rows.add(ref.rowId);
    named.set(ref.questionId, rows);
  }
  const whole = new Set(
    [...named]
      .filter(([matrix, rows]) => rows.size === rowsByMatrix.get(matrix)?.size)
      .map(([matrix]) => matrix),
  );
  const result: (RedcapNode | { matrix: string })[] = [];
  const placed = new Set<string>();
  for (const operand of operands) {
    const ref = operand.kind === "field" && operand.code === undefined ? refs.get(operand.name) : undefined;
    if (ref?.kind === "matrix-row" && whole.has(ref.questionId)) {
      if (!placed.has(ref.questionId)) result.push({ matrix: ref.questionId });
      placed.add(ref.questionId);
      continue;
    }
    result.push(operand);
  }
  return result;
}

function translate(node: RedcapNode, refs: FieldRefs, scorePosition: number, notes: string[]): string {
  const recurse = (child: RedcapNode) => translate(child, refs, scorePosition, notes);
  const summed = (operands: RedcapNode[]) =>
    collapseMatrices(operands, refs).map((operand) =>
      "matrix" in operand ? `{${operand.matrix}}` : recurse(operand),
    );

  switch (node.kind) {
    case "number":
      return node.text;
    case "string": {
      if (/^-?(\d+(\.\d*)?|\.\d+)$/.test(node.value.trim())) return node.value.trim();
      throw new RedcapExpressionError(`the text '${node.value}' has no place in a score formula`);
    }
    case "field":
      return fieldReference(node, refs, scorePosition);
    case "unary":
      if (node.operator === "not") throw new RedcapExpressionError("not() has no score formula equivalent");
      return `${node.operator}${recurse(node.operand)}`;
    case "binary": {
      if (node.operator === "+") {
        const parts = summed(additiveOperands(node));
        return parts.length === 1 ? parts[0]! : `(${parts.join(" + ")})`;
      }
      const operator = OPERATORS[node.operator];
      if (operator === undefined)
        throw new RedcapExpressionError(`the operator ${node.operator} has no score formula equivalent`);
      return `(${recurse(node.left)} ${operator} ${recurse(node.right)})`;
    }
    case "call":
      return call(node, summed, recurse, notes);
  }
}

function call(
  node: RedcapNode & { kind: "call" },
  summed: (operands: RedcapNode[]) => string[],
  recurse: (child: RedcapNode) => string,
  notes: string[],
): string {
  const { name, args } = node;
  if (args.length === 0) throw new RedcapExpressionError(`${name}() needs arguments`);
  if (name === "sum") return `sum(${summed(args).join(", ")})`;
  if (name === "mean") {
    notes.push("REDCap's mean() leaves blank fields out; the portal's avg() counts them as 0");
  }
  if (FUNCTIONS[name] !== undefined) {
    if (name === "abs" && args.length !== 1) throw new RedcapExpressionError("abs() takes one argument");
    return `${FUNCTIONS[name]}(${args.map(recurse).join(", ")})`;
  }
  if (name === "if") {
    if (args.length !== 3) throw new RedcapExpressionError("if() takes three arguments");
    return `(${recurse(args[0]!)} ? ${recurse(args[1]!)} : ${recurse(args[2]!)})`;
  }
  if (name === "round" || name === "roundup" || name === "rounddown") {
    if (args.length > 2) throw new RedcapExpressionError(`${name}() takes a number and a count of decimals`);
    const digits = args[1] === undefined ? 0 : args[1].kind === "number" ? args[1].value : undefined;
    if (digits === undefined || !Number.isInteger(digits) || digits < 0 || digits > 10) {
      throw new RedcapExpressionError(`${name}() needs a count of decimals from 0 to 10`);
    }
    if (name === "round")
      return digits === 0 ? `round(${recurse(args[0]!)})` : `round(${recurse(args[0]!)}, ${digits})`;
    if (digits !== 0)
      throw new RedcapExpressionError(`${name}() to decimals has no score formula equivalent`);
    return `${name === "roundup" ? "ceil" : "floor"}(${recurse(args[0]!)})`;
  }
  throw new RedcapExpressionError(`the function ${name}() has no score formula equivalent`);
}

function fieldReference(node: RedcapNode & { kind: "field" }, refs: FieldRefs, scorePosition: number) {
  if (node.event !== undefined) {
    throw new RedcapExpressionError(
      `[${node.event}][${node.name}] names another event, which a form cannot see`,
    );
  }
  const ref = refs.get(node.name);
  if (!ref) throw new RedcapExpressionError(`[${node.name}] is not a field of this form`);
  if (node.code !== undefined) {
    throw new RedcapExpressionError(
      `[${node.name}(${node.code})] names a checkbox option, which a score formula cannot`,
    );
  }
  switch (ref.kind) {
    case "score":
      if (ref.position >= scorePosition) {
        throw new RedcapExpressionError(`[${node.name}] is a calculated field computed after this one`);
      }
      return `{score:${ref.scoreId}}`;
    case "matrix-row":
      throw new RedcapExpressionError(
        `[${node.name}] is one row of the matrix ${ref.questionId}; a score formula can name only the whole matrix (the sum of its rows)`,
      );
    case "question":
      if (ref.valueKind === "number") return `{${ref.questionId}}`;
      if (ref.valueKind === "choice" && ref.numericChoices) return `{${ref.questionId}}`;
      throw new RedcapExpressionError(`[${node.name}] does not hold a number a score formula can use`);
  }
}
