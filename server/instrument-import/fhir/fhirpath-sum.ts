/**
 * Reads a calculatedExpression (FHIRPath) when it is a plain sum of item values, the kind of
 * total LHC-Forms' scored instruments carry, in the shapes they are written:
 * - `%a + %b + ...`, each `%name` a variable (the "variable" extension) or written in place;
 * - `iif(%a.exists(), %a, 0) + ...`, counting an unanswered item 0;
 * - `(a).combine(b).combine(c).sum()`, as the portal's export writes it;
 * - the whole wrapped in `iif(%any_answered, <sum>, {})`, LHC-Forms' "no total until something
 *   is answered" guard (the portal's score is 0 then: the reader says so in its report);
 * where an item value is `%resource.item.where(linkId='x').answer.value` (or `%resource.repeat(item)`,
 * nested `.item.where(...)`, `%context`), followed by `.ordinal()` or `.weight()` for a choice's
 * score. Anything else is not a plain sum, and the caller reports the expression as not imported.
 *
 * A small parser for that subset, not a FHIRPath engine: it builds no code and evaluates nothing.
 */

/** One term of the sum: an item's value (by linkId), or a constant. */
export type SumTerm =
  { kind: "item"; linkId: string; weighted: boolean; rows: boolean } | { kind: "number"; value: number };

export type SumReading = { ok: true; terms: SumTerm[]; guarded: boolean } | { ok: false; reason: string };

type Token =
  | { kind: "name"; text: string }
  | { kind: "variable"; text: string }
  | { kind: "string"; text: string }
  | { kind: "number"; value: number }
  | { kind: "symbol"; text: string };

const SYMBOLS = ["(", ")", ".", ",", "+", "=", "{", "}"];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    const rest = source.slice(index);
    const space = /^\s+/.exec(rest);
    if (space) {
      index += space[0].length;
      continue;
    }
    const number = /^\d+(\.\d+)?/.exec(rest);
    if (number) {
      tokens.push({ kind: "number", value: Number(number[0]) });
      index += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (name) {
      tokens.push({ kind: "name", text: name[0] });
      index += name[0].length;
      continue;
    }
    const variable = /^%(?:[A-Za-z_][A-Za-z0-9_]*|`[^`]+`)/.exec(rest);
    if (variable) {
      tokens.push({ kind: "variable", text: variable[0].slice(1).replace(/^`|`$/g, "") });
      index += variable[0].length;
      continue;
    }
    if (rest[0] === "'") {
      let text = "";
      let at = 1;
      while (at < rest.length && rest[at] !== "'") {
        if (rest[at] === "\\" && at + 1 < rest.length) at += 1;
        text += rest[at];
        at += 1;
      }
      if (at >= rest.length) throw new SyntaxError("a string is not closed");
      tokens.push({ kind: "string", text });
      index += at + 1;
      continue;
    }
    if (SYMBOLS.includes(rest[0]!)) {
      tokens.push({ kind: "symbol", text: rest[0]! });
      index += 1;
      continue;
    }
    throw new SyntaxError(`"${rest[0]}" is outside the sums the portal reads`);
  }
  return tokens;
}

/** The parsed subset: sums, calls, member paths, literals and variables. */
type Node =
  | { kind: "sum"; parts: Node[] }
  | { kind: "number"; value: number }
  | { kind: "string"; text: string }
  | { kind: "empty" }
  | { kind: "variable"; name: string }
  | { kind: "path"; base: Node | undefined; steps: Step[] }
  | { kind: "equals"; left: Node; right: Node };

type Step = { name: string; args: Node[] | undefined };

class Parser {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Node {
    const node = this.expression();
    if (this.at < this.tokens.length) throw new SyntaxError("unexpected text after the expression");
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private isSymbol(text: string) {
    const token = this.peek();
    return token?.kind === "symbol" && token.text === text;
  }

  private expect(text: string) {
    if (!this.isSymbol(text)) throw new SyntaxError(`expected "${text}"`);
    this.at += 1;
  }

  private expression(): Node {
    const left = this.sum();
    if (this.isSymbol("=")) {
      this.at += 1;
      return { kind: "equals", left, right: this.sum() };
    }
    return left;
  }

  private sum(): Node {
    const parts = [this.postfix()];
    while (this.isSymbol("+")) {
      this.at += 1;
      parts.push(this.postfix());
    }
    return parts.length === 1 ? parts[0]! : { kind: "sum", parts };
  }

  private postfix(): Node {
    let base: Node | undefined = this.primary();
    const steps: Step[] = [];
    if (base.kind === "path") {
      steps.push(...base.steps);
      base = base.base;
    }
    while (this.isSymbol(".")) {
      this.at += 1;
      steps.push(this.step());
    }
    if (steps.length === 0 && base) return base;
    return { kind: "path", base, steps };
  }

  private step(): Step {
    const token = this.peek();
    if (token?.kind !== "name") throw new SyntaxError('expected a name after "."');
    this.at += 1;
    if (!this.isSymbol("(")) return { name: token.text, args: undefined };
    this.at += 1;
    const args: Node[] = [];
    while (!this.isSymbol(")")) {
      args.push(this.expression());
      if (!this.isSymbol(",")) break;
      this.at += 1;
    }
    this.expect(")");
    return { name: token.text, args };
  }

  private primary(): Node {
    const token = this.peek();
    if (!token) throw new SyntaxError("the expression ends too early");
    if (token.kind === "number") {
      this.at += 1;
      return { kind: "number", value: token.value };
    }
    if (token.kind === "string") {
      this.at += 1;
      return { kind: "string", text: token.text };
    }
    if (token.kind === "variable") {
      this.at += 1;
      return { kind: "variable", name: token.text };
    }
    if (token.kind === "name") return { kind: "path", base: undefined, steps: [this.step()] };
    if (this.isSymbol("(")) {
      this.at += 1;
      const inner = this.expression();
      this.expect(")");
      return inner;
    }
    if (this.isSymbol("{")) {
      this.at += 1;
      this.expect("}");
      return { kind: "empty" };
    }
    throw new SyntaxError(`unexpected "${token.text}"`);
  }
}

export type Variables = (name: string) => string | undefined;

class NotASum extends Error {}

type Reading = { variables: Variables; depth: number };

/** The linkId a `where(linkId='x')` step names, if it is one. */
function linkIdOf(step: Step): string | undefined {
  if (step.name !== "where" || step.args?.length !== 1) return undefined;
  const condition = step.args[0]!;
  if (condition.kind !== "equals") return undefined;
  const { left, right } = condition;
  const isLinkId =
    left.kind === "path" &&
    left.base === undefined &&
    left.steps.length === 1 &&
    left.steps[0]!.name === "linkId";
  return isLinkId && right.kind === "string" ? right.text : undefined;
}

/** An item-value path: %resource/%context, item or repeat(item), where(linkId), answer.value. */
function itemTerm(base: Node | undefined, steps: Step[]): SumTerm | undefined {
  if (base?.kind !== "variable" || !["resource", "context"].includes(base.name)) return undefined;
  let linkId: string | undefined;
  let index = 0;
  let rows = false;
  while (index < steps.length) {
    const step = steps[index]!;
    if (
      (step.name === "item" && step.args === undefined) ||
      (step.name === "repeat" && step.args?.length === 1)
    ) {
      if (linkId !== undefined && step.name === "item" && steps[index + 1]?.name === "answer") rows = true;
      index += 1;
      continue;
    }
    const named = linkIdOf(step);
    if (named === undefined) break;
    linkId = named;
    index += 1;
  }
  const rest = steps.slice(index).map((step) => `${step.name}${step.args ? "()" : ""}`);
  if (linkId === undefined || rest[0] !== "answer" || rest[1] !== "value") return undefined;
  const tail = rest.slice(2);
  const weighted = tail.length === 1 && (tail[0] === "ordinal()" || tail[0] === "weight()");
  if (tail.length > 0 && !weighted) return undefined;
  return { kind: "item", linkId, weighted, rows };
}

function sameText(left: Node, right: Node) {
  return JSON.stringify(left) === JSON.stringify(right);
}

function termsOf(node: Node, reading: Reading): SumTerm[] {
  if (reading.depth > 20) throw new NotASum("variables refer to each other too deeply");
  switch (node.kind) {
    case "number":
      return [{ kind: "number", value: node.value }];
    case "sum":
      return node.parts.flatMap((part) => termsOf(part, reading));
    case "variable": {
      const expression = reading.variables(node.name);
      if (expression === undefined) throw new NotASum(`%${node.name} is not a variable of the Questionnaire`);
      return termsOf(parseFhirPath(expression), { ...reading, depth: reading.depth + 1 });
    }
    case "path": {
      if (node.steps.length === 0 && node.base) return termsOf(node.base, reading);
      const direct = itemTerm(node.base, node.steps);
      if (direct) return [direct];
      const last = node.steps.at(-1);
      // (a).combine(b).sum(), a.sum()
      if (last?.name === "sum" && last.args?.length === 0) {
        return termsOf({ kind: "path", base: node.base, steps: node.steps.slice(0, -1) }, reading);
      }
      if (last?.name === "combine" && last.args?.length === 1) {
        const left =
          node.steps.length === 1
            ? node.base
            : { kind: "path" as const, base: node.base, steps: node.steps.slice(0, -1) };
        if (!left) throw new NotASum("combine() of nothing");
        return [...termsOf(left, reading), ...termsOf(last.args[0]!, reading)];
      }
      // iif(x.exists(), x, 0): x, counting 0 when unanswered, as the portal does.
      const [only] = node.steps;
      if (
        node.base === undefined &&
        node.steps.length === 1 &&
        only?.name === "iif" &&
        only.args?.length === 3
      ) {
        const [test, then, otherwise] = only.args as [Node, Node, Node];
        const exists = test.kind === "path" && test.steps.at(-1)?.name === "exists";
        const tested = exists
          ? test.steps.length === 1
            ? test.base
            : { kind: "path" as const, base: test.base, steps: test.steps.slice(0, -1) }
          : undefined;
        if (tested && sameText(tested, then) && otherwise.kind === "number" && otherwise.value === 0) {
          return termsOf(then, reading);
        }
      }
      throw new NotASum("a term is neither an item's value nor a number");
    }
    default:
      throw new NotASum("a term is neither an item's value nor a number");
  }
}

function parseFhirPath(expression: string): Node {
  return new Parser(tokenize(expression)).parse();
}

/** Reads a calculatedExpression as a sum of item values, or says why it is not one. */
export function readFhirPathSum(expression: string, variables: Variables): SumReading {
  try {
    let node = parseFhirPath(expression);
    let guarded = false;
    const [only] = node.kind === "path" && node.base === undefined ? node.steps : [];
    if (only?.name === "iif" && only.args?.length === 3 && only.args[2]!.kind === "empty") {
      node = only.args[1]!;
      guarded = true;
    }
    return { ok: true, terms: termsOf(node, { variables, depth: 0 }), guarded };
  } catch (error) {
    if (error instanceof NotASum || error instanceof SyntaxError) return { ok: false, reason: error.message };
    throw error;
  }
}
