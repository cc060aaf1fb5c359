/**
 * REDCap's expression language, as branching logic and calculated fields write it:
 * `[phq9_1] > 0 or ([gender] = '1' and [symptoms(2)] = '1')`, `sum([a], [b]) / 2`. A small
 * tokenizer and a precedence-climbing parser into a syntax tree; branching-logic.ts and
 * calc-formula.ts translate the tree into the engine's show_if terms and formula language.
 *
 * Parsing properly (rather than matching patterns) is what lets an expression the engine cannot
 * express be reported as a whole, instead of being half-translated into different logic.
 */

export type RedcapNode =
  | { kind: "number"; value: number; text: string }
  | { kind: "string"; value: string }
  | { kind: "field"; name: string; code?: string | undefined; event?: string | undefined }
  | { kind: "call"; name: string; args: RedcapNode[] }
  | { kind: "unary"; operator: "-" | "+" | "not"; operand: RedcapNode }
  | { kind: "binary"; operator: BinaryOperator; left: RedcapNode; right: RedcapNode };

export type BinaryOperator =
  "or" | "and" | "=" | "<>" | "<" | "<=" | ">" | ">=" | "+" | "-" | "*" | "/" | "^";

export class RedcapExpressionError extends Error {}

type Token =
  | { kind: "number"; text: string; at: number }
  | { kind: "string"; value: string; at: number }
  | { kind: "field"; name: string; code?: string | undefined; event?: string | undefined; at: number }
  | { kind: "word"; text: string; at: number }
  | { kind: "symbol"; text: string; at: number };

const SYMBOLS = ["<>", "!=", "<=", ">=", "==", "=", "<", ">", "+", "-", "*", "/", "^", "(", ")", ","];
/** `[name]`, `[name(code)]`: REDCap variable names are lower-case letters, digits and _. */
const FIELD = /^\[([A-Za-z0-9_]+)(?:\(([^)\]]+)\))?\]/;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const rest = source.slice(at);
    const space = /^\s+/.exec(rest);
    if (space) {
      at += space[0].length;
      continue;
    }
    const field = FIELD.exec(rest);
    if (field) {
      const previous = tokens.at(-1);
      // [event_name][field]: a longitudinal project's event prefix, kept to be reported.
      if (previous?.kind === "field" && previous.at + previousLength(source, previous) === at) {
        tokens.pop();
        tokens.push({
          kind: "field",
          name: field[1]!,
          code: field[2],
          event: previous.name,
          at: previous.at,
        });
      } else {
        tokens.push({ kind: "field", name: field[1]!, code: field[2], at });
      }
      at += field[0].length;
      continue;
    }
    if (rest.startsWith("["))
      throw new RedcapExpressionError(`at character ${at + 1}: "[" does not start a field name`);
    const number = /^(\d+(\.\d*)?|\.\d+)/.exec(rest);
    if (number) {
      tokens.push({ kind: "number", text: number[0], at });
      at += number[0].length;
      continue;
    }
    const quote = rest[0];
    if (quote === "'" || quote === '"') {
      const end = rest.indexOf(quote, 1);
      if (end < 0) throw new RedcapExpressionError(`at character ${at + 1}: the text is never closed`);
      tokens.push({ kind: "string", value: rest.slice(1, end), at });
      at += end + 1;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (word) {
      tokens.push({ kind: "word", text: word[0].toLowerCase(), at });
      at += word[0].length;
      continue;
    }
    const symbol = SYMBOLS.find((candidate) => rest.startsWith(candidate));
    if (symbol) {
      tokens.push({ kind: "symbol", text: symbol, at });
      at += symbol.length;
      continue;
    }
    throw new RedcapExpressionError(`at character ${at + 1}: "${rest[0]}" is not understood`);
  }
  return tokens;
}

function previousLength(source: string, token: Token & { kind: "field" }) {
  return FIELD.exec(source.slice(token.at))?.[0].length ?? 0;
}

/** Operators by binding strength, loosest first; each level is left-associative. */
const LEVELS: BinaryOperator[][] = [
  ["or"],
  ["and"],
  ["=", "<>", "<", "<=", ">", ">="],
  ["+", "-"],
  ["*", "/"],
  ["^"],
];

function operatorOf(token: Token | undefined): BinaryOperator | undefined {
  if (!token) return undefined;
  if (token.kind === "word" && (token.text === "and" || token.text === "or")) return token.text;
  if (token.kind !== "symbol") return undefined;
  if (token.text === "==") return "=";
  if (token.text === "!=") return "<>";
  return (["=", "<>", "<", "<=", ">", ">=", "+", "-", "*", "/", "^"] as const).find(
    (op) => op === token.text,
  );
}

/** Parses a REDCap expression, or throws RedcapExpressionError saying where it stopped. */
export function parseRedcapExpression(source: string): RedcapNode {
  const tokens = tokenize(source);
  let position = 0;
  const describe = (token: Token | undefined) =>
    token === undefined
      ? "the end"
      : `"${token.kind === "string" ? `'${token.value}'` : token.kind === "field" ? `[${token.name}]` : token.text}" at character ${token.at + 1}`;

  const expectSymbol = (text: string) => {
    const token = tokens[position];
    if (token?.kind !== "symbol" || token.text !== text) {
      throw new RedcapExpressionError(`expected "${text}" but found ${describe(token)}`);
    }
    position += 1;
  };

  const parseLevel = (level: number): RedcapNode => {
    if (level === LEVELS.length) return parseUnary();
    let left = parseLevel(level + 1);
    for (;;) {
      const operator = operatorOf(tokens[position]);
      if (operator === undefined || !LEVELS[level]!.includes(operator)) return left;
      position += 1;
      left = { kind: "binary", operator, left, right: parseLevel(level + 1) };
    }
  };

  const parseUnary = (): RedcapNode => {
    const token = tokens[position];
    if (token?.kind === "symbol" && (token.text === "-" || token.text === "+")) {
      position += 1;
      return { kind: "unary", operator: token.text, operand: parseUnary() };
    }
    if (token?.kind === "word" && token.text === "not") {
      position += 1;
      return { kind: "unary", operator: "not", operand: parseUnary() };
    }
    return parsePrimary();
  };

  const parsePrimary = (): RedcapNode => {
    const token = tokens[position];
    if (token === undefined) throw new RedcapExpressionError("the expression ends too early");
    position += 1;
    switch (token.kind) {
      case "number":
        return { kind: "number", value: Number(token.text), text: token.text };
      case "string":
        return { kind: "string", value: token.value };
      case "field":
        return { kind: "field", name: token.name, code: token.code, event: token.event };
      case "word": {
        const next = tokens[position];
        if (next?.kind !== "symbol" || next.text !== "(") {
          throw new RedcapExpressionError(`${describe(token)} is neither a field nor a function call`);
        }
        position += 1;
        const args: RedcapNode[] = [];
        if (!(tokens[position]?.kind === "symbol" && (tokens[position] as { text: string }).text === ")")) {
          for (;;) {
            args.push(parseLevel(0));
            const separator = tokens[position];
            if (separator?.kind === "symbol" && separator.text === ",") {
              position += 1;
              continue;
            }
            break;
          }
        }
        expectSymbol(")");
        return { kind: "call", name: token.text, args };
      }
      case "symbol":
        if (token.text === "(") {
          const inner = parseLevel(0);
          expectSymbol(")");
          return inner;
        }
        throw new RedcapExpressionError(`unexpected ${describe(token)}`);
    }
  };

  if (tokens.length === 0) throw new RedcapExpressionError("the expression is empty");
  const tree = parseLevel(0);
  if (position < tokens.length) throw new RedcapExpressionError(`unexpected ${describe(tokens[position])}`);
  return tree;
}
