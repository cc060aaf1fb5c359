/**
 * The score formula language (spec 02 section 5; docs/survey-format.md, "Formulas"). Formulas
 * come from definition files, so they are data, never code: a tokenizer and a recursive-descent
 * parser build a small tree, and an evaluator walks it. Nothing here calls eval, new Function or
 * touches an object property named by the formula; names other than the few functions below
 * are refused when parsing.
 *
 * Grammar, lowest precedence first:
 *   expression  := or ( "?" expression ":" expression )?
 *   or          := and ( "||" and )*
 *   and         := equality ( "&&" equality )*
 *   equality    := relation ( ( "==" | "!=" ) relation )*
 *   relation    := sum ( ( "<" | "<=" | ">" | ">=" ) sum )*
 *   sum         := product ( ( "+" | "-" ) product )*
 *   product     := unary ( ( "*" | "/" | "%" ) unary )*
 *   unary       := ( "-" | "+" ) unary | primary
 *   primary     := number | "{" id "}" | "{score:" id "}" | function "(" arguments ")" | "(" expression ")"
 * Numbers are written 12, 0.5 or .5; ids hold letters, digits, _ - and . only.
 */

/** Formulas longer than this are refused: they are written by people, and the tree stays shallow. */
export const EXPRESSION_MAX_LENGTH = 2000;
/** How deeply parentheses, calls, conditionals and unary signs may nest. */
export const EXPRESSION_MAX_DEPTH = 64;
/** Digits round() may keep. */
export const ROUND_MAX_DIGITS = 10;

/** The functions a formula may call, with how many arguments each takes. */
export const EXPRESSION_FUNCTIONS = [
  { name: "sum", min: 1, max: Number.POSITIVE_INFINITY },
  { name: "min", min: 1, max: Number.POSITIVE_INFINITY },
  { name: "max", min: 1, max: Number.POSITIVE_INFINITY },
  { name: "avg", min: 1, max: Number.POSITIVE_INFINITY },
  { name: "abs", min: 1, max: 1 },
  { name: "round", min: 1, max: 2 },
  { name: "floor", min: 1, max: 1 },
  { name: "ceil", min: 1, max: 1 },
  { name: "count_answered", min: 1, max: Number.POSITIVE_INFINITY },
] as const;
export type FunctionName = (typeof EXPRESSION_FUNCTIONS)[number]["name"];

export type Reference = { kind: "question" | "score"; id: string };

export type BinaryOperator =
  "+" | "-" | "*" | "/" | "%" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||";

/** The parsed formula; `position` is the 0-based offset of the node's first character. */
export type Expression =
  | { kind: "number"; value: number; position: number }
  | { kind: "reference"; ref: Reference; position: number }
  | { kind: "unary"; operator: "-" | "+"; operand: Expression; position: number }
  | { kind: "binary"; operator: BinaryOperator; left: Expression; right: Expression; position: number }
  | { kind: "conditional"; test: Expression; then: Expression; otherwise: Expression; position: number }
  | { kind: "call"; name: FunctionName; args: Expression[]; position: number };

/** A formula that cannot be parsed: where (0-based offset) and what, in plain words. */
export class ExpressionError extends Error {
  readonly position: number;
  constructor(message: string, position: number) {
    super(message);
    this.name = "ExpressionError";
    this.position = position;
  }
}

/** "at character 5: expected ..." (1-based, as an author counts). */
export function describeExpressionError(error: ExpressionError): string {
  return `at character ${error.position + 1}: ${error.message}`;
}

type Token =
  | { kind: "number"; value: number; position: number }
  | { kind: "reference"; ref: Reference; position: number }
  | { kind: "name"; name: string; position: number }
  | { kind: "operator"; text: string; position: number }
  | { kind: "end"; position: number };

const OPERATORS = [
  "&&",
  "||",
  "==",
  "!=",
  ">=",
  "<=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "(",
  ")",
  ",",
  "?",
  ":",
  ">",
  "<",
];
const REFERENCE_ID = /^[A-Za-z0-9_.-]+$/;
const SCORE_PREFIX = "score:";

function isDigit(character: string | undefined) {
  return character !== undefined && character >= "0" && character <= "9";
}

function isNameStart(character: string | undefined) {
  return character !== undefined && /^[A-Za-z_$]$/.test(character);
}

function describeToken(token: Token): string {
  switch (token.kind) {
    case "number":
      return `the number ${token.value}`;
    case "reference":
      return `the reference {${token.ref.kind === "score" ? SCORE_PREFIX : ""}${token.ref.id}}`;
    case "name":
      return `"${token.name}"`;
    case "operator":
      return `"${token.text}"`;
    case "end":
      return "the end of the formula";
  }
}

function functionOf(name: string) {
  return EXPRESSION_FUNCTIONS.find((candidate) => candidate.name === name);
}

/** Names are only ever function names: anything else (constructor, this, Math) is refused. */
function unknownName(name: string, position: number) {
  return new ExpressionError(
    `"${name}" is not a function of the formula language (${EXPRESSION_FUNCTIONS.map((f) => f.name).join(", ")}); ` +
      "write a question as {questionId} and a score as {score:scoreId}",
    position,
  );
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const character = text[at]!;
    if (/\s/.test(character)) {
      at++;
      continue;
    }
    if (isDigit(character) || (character === "." && isDigit(text[at + 1]))) {
      const start = at;
      while (isDigit(text[at])) at++;
      if (text[at] === ".") {
        at++;
        if (!isDigit(text[at])) throw new ExpressionError("a decimal point must be followed by digits", at);
        while (isDigit(text[at])) at++;
      }
      if (isDigit(text[at]) || isNameStart(text[at]) || text[at] === ".") {
        throw new ExpressionError(`"${text.slice(start, at + 1)}" is not a number`, start);
      }
      tokens.push({ kind: "number", value: Number(text.slice(start, at)), position: start });
      continue;
    }
    if (character === "{") {
      const close = text.indexOf("}", at);
      if (close < 0) throw new ExpressionError('a reference opened with "{" is never closed with "}"', at);
      const inside = text.slice(at + 1, close);
      const isScore = inside.startsWith(SCORE_PREFIX);
      const id = isScore ? inside.slice(SCORE_PREFIX.length) : inside;
      if (!REFERENCE_ID.test(id)) {
        throw new ExpressionError(
          id === ""
            ? "a reference must name a question, as {questionId}, or a score, as {score:scoreId}"
            : `"${id}" is not a valid id: ids in references hold only letters, digits, _ - and .`,
          at,
        );
      }
      tokens.push({ kind: "reference", ref: { kind: isScore ? "score" : "question", id }, position: at });
      at = close + 1;
      continue;
    }
    if (isNameStart(character)) {
      const start = at;
      while (at < text.length && /^[A-Za-z0-9_$]$/.test(text[at]!)) at++;
      const name = text.slice(start, at);
      if (!functionOf(name)) throw unknownName(name, start);
      tokens.push({ kind: "name", name, position: start });
      continue;
    }
    const operator = OPERATORS.find((candidate) => text.startsWith(candidate, at));
    if (!operator) throw new ExpressionError(`"${character}" is not allowed in a formula`, at);
    tokens.push({ kind: "operator", text: operator, position: at });
    at += operator.length;
  }
  tokens.push({ kind: "end", position: text.length });
  return tokens;
}

const PRECEDENCE: Readonly<Record<BinaryOperator, number>> = {
  "||": 1,
  "&&": 2,
  "==": 3,
  "!=": 3,
  "<": 4,
  "<=": 4,
  ">": 4,
  ">=": 4,
  "+": 5,
  "-": 5,
  "*": 6,
  "/": 6,
  "%": 6,
};

function binaryOperatorOf(token: Token): BinaryOperator | undefined {
  if (token.kind !== "operator") return undefined;
  return Object.hasOwn(PRECEDENCE, token.text) ? (token.text as BinaryOperator) : undefined;
}

class Parser {
  private index = 0;
  private depth = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  private peek(): Token {
    return this.tokens[Math.min(this.index, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }

  private isOperator(text: string) {
    const token = this.peek();
    return token.kind === "operator" && token.text === text;
  }

  private expect(text: string, what: string) {
    const token = this.peek();
    if (token.kind !== "operator" || token.text !== text) {
      throw new ExpressionError(`expected ${what} but found ${describeToken(token)}`, token.position);
    }
    this.next();
  }

  private enter(position: number) {
    this.depth++;
    if (this.depth > EXPRESSION_MAX_DEPTH) {
      throw new ExpressionError(`the formula nests more than ${EXPRESSION_MAX_DEPTH} levels deep`, position);
    }
  }

  parseFormula(): Expression {
    const expression = this.parseConditional();
    const rest = this.peek();
    if (rest.kind !== "end") {
      throw new ExpressionError(`expected an operator but found ${describeToken(rest)}`, rest.position);
    }
    return expression;
  }

  private parseConditional(): Expression {
    const start = this.peek().position;
    this.enter(start);
    const test = this.parseBinary(1);
    let result = test;
    if (this.isOperator("?")) {
      this.next();
      const then = this.parseConditional();
      this.expect(":", '":" (the "else" part of "?")');
      const otherwise = this.parseConditional();
      result = { kind: "conditional", test, then, otherwise, position: start };
    }
    this.depth--;
    return result;
  }

  private parseBinary(minimum: number): Expression {
    let left = this.parseUnary();
    for (;;) {
      const operator = binaryOperatorOf(this.peek());
      if (operator === undefined || PRECEDENCE[operator] < minimum) return left;
      this.next();
      const right = this.parseBinary(PRECEDENCE[operator] + 1);
      left = { kind: "binary", operator, left, right, position: left.position };
    }
  }

  private parseUnary(): Expression {
    const token = this.peek();
    if (token.kind === "operator" && (token.text === "-" || token.text === "+")) {
      this.next();
      this.enter(token.position);
      const operand = this.parseUnary();
      this.depth--;
      return { kind: "unary", operator: token.text, operand, position: token.position };
    }
    return this.parsePrimary();
  }

  private parsePrimary(): Expression {
    const token = this.next();
    switch (token.kind) {
      case "number":
        return { kind: "number", value: token.value, position: token.position };
      case "reference":
        return { kind: "reference", ref: token.ref, position: token.position };
      case "name":
        return this.parseCall(token.name, token.position);
      case "operator":
        if (token.text === "(") {
          const inner = this.parseConditional();
          this.expect(")", '")"');
          return inner;
        }
        break;
      case "end":
        break;
    }
    throw new ExpressionError(
      `expected a number, a {reference}, a function or "(" but found ${describeToken(token)}`,
      token.position,
    );
  }

  private parseCall(name: string, position: number): Expression {
    const known = functionOf(name);
    if (!known) throw unknownName(name, position);
    this.expect("(", `"(" after ${name}`);
    const args: Expression[] = [];
    if (!this.isOperator(")")) {
      for (;;) {
        args.push(this.parseConditional());
        if (!this.isOperator(",")) break;
        this.next();
      }
    }
    this.expect(")", `"," or ")" in the call of ${name}`);
    if (args.length < known.min || args.length > known.max) {
      const wanted = known.min === known.max ? `${known.min}` : `${known.min} to ${known.max}`;
      const plural = known.max === 1 ? "argument" : "arguments";
      throw new ExpressionError(
        known.max === Number.POSITIVE_INFINITY
          ? `${name} takes at least ${known.min} argument`
          : `${name} takes ${wanted} ${plural}, not ${args.length}`,
        position,
      );
    }
    if (name === "count_answered") {
      const notQuestion = args.find((arg) => arg.kind !== "reference" || arg.ref.kind !== "question");
      if (notQuestion) {
        throw new ExpressionError(
          "count_answered takes only question references, as {questionId}",
          notQuestion.position,
        );
      }
    }
    return { kind: "call", name: known.name, args, position };
  }
}

/** Parses a formula into a tree, or throws an ExpressionError naming where and what is wrong. */
export function parseExpression(text: string): Expression {
  if (text.length > EXPRESSION_MAX_LENGTH) {
    throw new ExpressionError(
      `the formula is longer than ${EXPRESSION_MAX_LENGTH} characters`,
      EXPRESSION_MAX_LENGTH,
    );
  }
  const tokens = tokenize(text);
  if (tokens.length === 1) throw new ExpressionError("the formula is empty", 0);
  return new Parser(tokens).parseFormula();
}

/** The questions and scores a formula refers to, each once, in the order they are written. */
export function referencedIds(expression: Expression): Reference[] {
  const found: Reference[] = [];
  const seen = new Set<string>();
  const visit = (node: Expression) => {
    switch (node.kind) {
      case "number":
        return;
      case "reference": {
        const key = `${node.ref.kind}:${node.ref.id}`;
        if (!seen.has(key)) {
          seen.add(key);
          found.push({ ...node.ref });
        }
        return;
      }
      case "unary":
        return visit(node.operand);
      case "binary":
        visit(node.left);
        return visit(node.right);
      case "conditional":
        visit(node.test);
        visit(node.then);
        return visit(node.otherwise);
      case "call":
        return node.args.forEach(visit);
    }
  };
  visit(expression);
  return found;
}

/**
 * Rounds half away from zero to `digits` decimals, exactly as written in decimal: 1.005 gives
 * 1.01 and -1.005 gives -1.01 (the binary value of 1.005 is a little below it, so the naive
 * Math.round(x * 100) / 100 gives 1). Never returns -0.
 */
export function roundTo(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value;
  const magnitude = Math.abs(value);
  if (magnitude >= 1e15) return value;
  // The shortest decimal that reads back as this number, shifted by moving the exponent.
  const [mantissa, exponent] = magnitude.toExponential().split("e") as [string, string];
  const shifted = Math.round(Number(`${mantissa}e${Number(exponent) + digits}`));
  // Both are exact integers, so the division is the double nearest the decimal result.
  const rounded = shifted / 10 ** digits;
  return rounded === 0 ? 0 : Math.sign(value) * rounded;
}

function truthy(value: number) {
  return value !== 0 && !Number.isNaN(value);
}

export type EvaluationOptions = {
  /** Whether a question is answered: what count_answered counts. Without it, it counts 0. */
  isAnswered?: (questionId: string) => boolean;
};

/**
 * Evaluates a parsed formula. `resolve` gives the value of each {question} and {score:...}
 * reference. Arithmetic follows IEEE rules (1 / 0 is Infinity, 0 / 0 is NaN): the caller decides
 * what a non-finite result means (scoreSurvey makes it 0). Comparisons, && and || give 1 or 0;
 * a value is true when it is neither 0 nor NaN.
 */
export function evaluateExpression(
  expression: Expression,
  resolve: (ref: Reference) => number,
  options: EvaluationOptions = {},
): number {
  const evaluate = (node: Expression): number => {
    switch (node.kind) {
      case "number":
        return node.value;
      case "reference":
        return resolve(node.ref);
      case "unary": {
        const operand = evaluate(node.operand);
        return node.operator === "-" ? -operand : operand;
      }
      case "conditional":
        return truthy(evaluate(node.test)) ? evaluate(node.then) : evaluate(node.otherwise);
      case "binary":
        return binary(node.operator, node.left, node.right);
      case "call":
        return call(node.name, node.args);
    }
  };

  const binary = (operator: BinaryOperator, leftNode: Expression, rightNode: Expression): number => {
    if (operator === "&&") return truthy(evaluate(leftNode)) && truthy(evaluate(rightNode)) ? 1 : 0;
    if (operator === "||") return truthy(evaluate(leftNode)) || truthy(evaluate(rightNode)) ? 1 : 0;
    const left = evaluate(leftNode);
    const right = evaluate(rightNode);
    switch (operator) {
      case "+":
        return left + right;
      case "-":
        return left - right;
      case "*":
        return left * right;
      case "/":
        return left / right;
      case "%":
        return left % right;
      case "==":
        return left === right ? 1 : 0;
      case "!=":
        return left !== right ? 1 : 0;
      case "<":
        return left < right ? 1 : 0;
      case "<=":
        return left <= right ? 1 : 0;
      case ">":
        return left > right ? 1 : 0;
      case ">=":
        return left >= right ? 1 : 0;
    }
  };

  const call = (name: FunctionName, args: readonly Expression[]): number => {
    if (name === "count_answered") {
      const isAnswered = options.isAnswered;
      if (!isAnswered) return 0;
      return args.filter((arg) => arg.kind === "reference" && isAnswered(arg.ref.id)).length;
    }
    const values = args.map(evaluate);
    const first = values[0] ?? Number.NaN;
    switch (name) {
      case "sum":
        return values.reduce((total, value) => total + value, 0);
      case "avg":
        return values.reduce((total, value) => total + value, 0) / values.length;
      case "min":
        return Math.min(...values);
      case "max":
        return Math.max(...values);
      case "abs":
        return Math.abs(first);
      case "floor":
        return Math.floor(first);
      case "ceil":
        return Math.ceil(first);
      case "round": {
        const digits = Math.trunc(values[1] ?? 0);
        if (Number.isNaN(digits)) return Number.NaN;
        return roundTo(first, Math.min(Math.max(digits, 0), ROUND_MAX_DIGITS));
      }
    }
  };

  return evaluate(expression);
}
