import { describe, expect, it } from "vitest";
import expressionSource from "./expression.ts?raw";
import {
  describeExpressionError,
  evaluateExpression,
  EXPRESSION_MAX_DEPTH,
  EXPRESSION_MAX_LENGTH,
  ExpressionError,
  parseExpression,
  referencedIds,
  roundTo,
  type Reference,
} from "./expression.ts";

const values: Record<string, number> = { a: 2, b: 3, zero: 0, "item-1.x": 7, "score:total": 10 };

function evaluate(text: string, answered: readonly string[] = []) {
  const resolve = (ref: Reference) => {
    const key = ref.kind === "score" ? `score:${ref.id}` : ref.id;
    const value = values[key];
    if (value === undefined) throw new Error(`no value for ${key}`);
    return value;
  };
  return evaluateExpression(parseExpression(text), resolve, { isAnswered: (id) => answered.includes(id) });
}

function parseError(text: string): ExpressionError {
  try {
    parseExpression(text);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`"${text}" parsed`);
}

describe("evaluating formulas", () => {
  it.each([
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["1 - 2 - 3", -4],
    ["8 / 2 / 2", 2],
    ["10 % 4", 2],
    ["2 * 3 % 4", 2],
    ["0.5 + .25", 0.75],
    ["-{a}", -2],
    ["- -1", 1],
    ["+{a}", 2],
    ["-{a} * -{b}", 6],
    ["{a} + {b}", 5],
    ["{item-1.x}", 7],
    ["{score:total} / 4", 2.5],
    ["{a} > 1", 1],
    ["{a} >= 3", 0],
    ["{a} < 3", 1],
    ["{a} <= 1", 0],
    ["{a} == 2", 1],
    ["{a} != 2", 0],
    ["1 < 2 == 1", 1],
    ["{a} > 1 && {b} > 1", 1],
    ["{a} > 1 && {zero}", 0],
    ["{zero} || {b}", 1],
    ["{zero} || 0", 0],
    ["{a} > 1 ? 10 : 20", 10],
    ["{zero} ? 10 : 20", 20],
    ["0 ? 1 : 0 ? 2 : 3", 3],
    ["1 ? 0 ? 5 : 6 : 7", 6],
    ["sum({a}, {b}, 1)", 6],
    ["min({a}, {b})", 2],
    ["max({a}, {b}, -1)", 3],
    ["avg({a}, {b})", 2.5],
    ["abs(-{b})", 3],
    ["floor(2.7)", 2],
    ["ceil(2.1)", 3],
    ["round(2.5)", 3],
    ["round(-2.5)", -3],
    ["round(1.005, 2)", 1.01],
    ["round(2.345, 1)", 2.3],
    ["round({a} / {b}, 3)", 0.667],
    ["1 / 0", Number.POSITIVE_INFINITY],
    ["count_answered({a}, {b}, {zero})", 2],
  ])("%s is %d", (text, expected) => {
    expect(evaluate(text, ["a", "zero"])).toBe(expected);
  });

  it("gives NaN for 0 / 0 (the scorer turns it into 0)", () => {
    expect(evaluate("0 / 0")).toBeNaN();
  });

  it("does not evaluate the branch a conditional does not take", () => {
    expect(evaluate("1 ? {a} : {missing}")).toBe(2);
    expect(() => evaluate("0 ? {a} : {missing}")).toThrow("no value for missing");
  });

  it("counts answered questions as 0 when it is not told which are answered", () => {
    expect(evaluateExpression(parseExpression("count_answered({a})"), () => 1)).toBe(0);
  });
});

describe("what a formula refers to", () => {
  it("lists each question and score once, in the order written", () => {
    expect(referencedIds(parseExpression("{b} + sum({a}, {b}) * {score:total} - ({a} ? {c} : 1)"))).toEqual([
      { kind: "question", id: "b" },
      { kind: "question", id: "a" },
      { kind: "score", id: "total" },
      { kind: "question", id: "c" },
    ]);
  });
});

describe("formulas that do not parse", () => {
  it.each([
    ["", 0, "the formula is empty"],
    ["   ", 0, "the formula is empty"],
    ["1 +", 3, 'expected a number, a {reference}, a function or "(" but found the end of the formula'],
    ["(1 + 2", 6, 'expected ")" but found the end of the formula'],
    ["1 2", 2, "expected an operator but found the number 2"],
    ["{a} {b}", 4, "expected an operator but found the reference {b}"],
    ["1 ? 2", 5, 'expected ":"'],
    ["1.", 2, "a decimal point must be followed by digits"],
    ["1.2.3", 0, '"1.2." is not a number'],
    ["2x", 0, '"2x" is not a number'],
    ["{}", 0, "a reference must name a question"],
    ["{score:}", 0, "a reference must name a question"],
    ["{a b}", 0, '"a b" is not a valid id'],
    ["{a", 0, "never closed"],
    ["{score:a b}", 0, '"a b" is not a valid id'],
    ["1 = 2", 2, '"=" is not allowed in a formula'],
    ["!{a}", 0, '"!" is not allowed in a formula'],
    ["'text'", 0, `"'" is not allowed in a formula`],
    ["`${1}`", 0, '"`" is not allowed in a formula'],
    ["[1][0]", 0, '"[" is not allowed in a formula'],
    ["{a}.constructor", 3, '"." is not allowed in a formula'],
    ["constructor", 0, '"constructor" is not a function of the formula language'],
    ["__proto__", 0, '"__proto__" is not a function of the formula language'],
    ["this", 0, '"this" is not a function of the formula language'],
    ["a + 1", 0, '"a" is not a function of the formula language'],
    ["eval(1)", 0, '"eval" is not a function of the formula language'],
    ["Math.max(1, 2)", 0, '"Math" is not a function of the formula language'],
    ["toString()", 0, '"toString" is not a function of the formula language'],
    ["$a", 0, '"$a" is not a function of the formula language'],
    ["round", 5, 'expected "(" after round but found the end of the formula'],
    ["sum()", 0, "sum takes at least 1 argument"],
    ["abs(1, 2)", 0, "abs takes 1 argument, not 2"],
    ["round(1, 2, 3)", 0, "round takes 1 to 2 arguments, not 3"],
    ["sum(1 2)", 6, 'expected "," or ")" in the call of sum but found the number 2'],
    ["count_answered(1)", 15, "count_answered takes only question references"],
    ["count_answered({score:total})", 15, "count_answered takes only question references"],
  ])("refuses %j at character offset %i", (text, position, message) => {
    const error = parseError(text);
    expect(error.position).toBe(position);
    expect(error.message).toContain(message);
  });

  it("says where the problem is, counting from 1", () => {
    expect(describeExpressionError(parseError("1 +"))).toBe(
      'at character 4: expected a number, a {reference}, a function or "(" but found the end of the formula',
    );
  });

  it(`refuses a formula longer than ${EXPRESSION_MAX_LENGTH} characters`, () => {
    const long = Array.from({ length: 700 }, () => "1").join(" + ");
    expect(parseError(long).message).toContain(`longer than ${EXPRESSION_MAX_LENGTH}`);
  });

  it(`refuses parentheses nested more than ${EXPRESSION_MAX_DEPTH} levels deep, and accepts ${EXPRESSION_MAX_DEPTH - 1}`, () => {
    const nest = (levels: number) => `${"(".repeat(levels)}1${")".repeat(levels)}`;
    expect(parseError(nest(EXPRESSION_MAX_DEPTH)).message).toContain(
      `more than ${EXPRESSION_MAX_DEPTH} levels`,
    );
    expect(evaluate(nest(EXPRESSION_MAX_DEPTH - 1))).toBe(1);
  });

  it("refuses a long run of signs and calls nested too deeply", () => {
    expect(parseError(`${"-".repeat(500)}1`).message).toContain("levels deep");
    expect(parseError(`${"abs(".repeat(100)}1${")".repeat(100)}`).message).toContain("levels deep");
  });

  it("is evaluated without eval, Function or with", () => {
    const source = expressionSource.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    expect(source).not.toMatch(/\beval\s*\(|\bFunction\s*\(|\bwith\s*\(|import\s*\(/);
  });
});

describe("rounding", () => {
  it.each([
    [1.005, 2, 1.01],
    [-1.005, 2, -1.01],
    [1.255, 2, 1.26],
    [1000.005, 2, 1000.01],
    [0.125, 2, 0.13],
    [10 / 3, 2, 3.33],
    [2 / 3, 2, 0.67],
    [1.1, 2, 1.1],
    [12, 2, 12],
    [1e-7, 2, 0],
    [123456789.125, 2, 123456789.13],
    [2.5, 0, 3],
  ])("rounds %d to %i decimals as %d", (value, digits, expected) => {
    expect(roundTo(value, digits)).toBe(expected);
  });

  it("never gives -0", () => {
    expect(Object.is(roundTo(-0.001, 2), 0)).toBe(true);
    expect(Object.is(roundTo(-0, 2), 0)).toBe(true);
  });
});
