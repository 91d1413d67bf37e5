/**
 * Expressions of the graphing tool in ordinary notation (`2x^2 - sin x`, `|x|`, `x^2 + y^2 = 1`),
 * compiled into closures over the parsed tree. Our own parser because function-plot's string
 * evaluator compiles with `new Function`, which the board's CSP forbids; names come from fixed
 * tables (never from object lookups), so `constructor`, `__proto__` or `alert` are just unknown.
 *
 * Grammar (precedence low → high):
 *   equation := expr ('=' expr)?              only where the caller allows it: lhs − rhs
 *   expr     := term (('+' | '-') term)*
 *   term     := unary (('*' | '/') unary | factor)*   a factor right after another multiplies (2x, 3(x+1))
 *   unary    := ('-' | '+') unary | power            so -x^2 = -(x^2)
 *   power    := primary ('^' unary)?                 right associative: 2^3^2 = 2^9
 *   primary  := number | name | name '(' args ')' | name factor | '(' expr ')' | '|' expr '|'
 * A function name without parentheses takes the implicit product after it: `sin 2x` = sin(2x),
 * `sin x cos x` = sin(x)·cos(x); `sin^2 x` = (sin x)^2. Letters that are not one known name are
 * split into known names (`xy`, `2pix`, `sinx`).
 * Positions (`at`) are 0-based indexes into the source; messages say "at N" with N 1-based.
 */

export type Vars = Readonly<Record<string, number>>;
export type CompiledExpression =
  { ok: true; fn: (vars: Vars) => number; vars: string[] } | { ok: false; message: string; at: number };

export interface CompileOptions {
  /** variable names the expression may use (θ is spelled `theta`) */
  vars: readonly string[];
  /** accept one top-level `=`: the result is left − right (implicit equations) */
  equation?: boolean;
}

export const MAX_EXPRESSION_LENGTH = 500;
export const MAX_EXPRESSION_DEPTH = 50;
/** longer runs of letters are not split into names (keeps splitting cheap) */
const MAX_NAME_LETTERS = 40;

type Fn = (...args: number[]) => number;
interface FunctionDef {
  fn: Fn;
  /** [min, max] argument count */
  arity: [number, number];
}
const one = (fn: (a: number) => number): FunctionDef => ({ fn, arity: [1, 1] });

const FUNCTIONS = new Map<string, FunctionDef>([
  ['sin', one(Math.sin)],
  ['cos', one(Math.cos)],
  ['tan', one(Math.tan)],
  ['sec', one((a) => 1 / Math.cos(a))],
  ['csc', one((a) => 1 / Math.sin(a))],
  ['cot', one((a) => 1 / Math.tan(a))],
  ['asin', one(Math.asin)],
  ['acos', one(Math.acos)],
  ['atan', one(Math.atan)],
  ['arcsin', one(Math.asin)],
  ['arccos', one(Math.acos)],
  ['arctan', one(Math.atan)],
  ['sinh', one(Math.sinh)],
  ['cosh', one(Math.cosh)],
  ['tanh', one(Math.tanh)],
  ['exp', one(Math.exp)],
  ['ln', one(Math.log)],
  ['log', one(Math.log10)],
  ['lg', one(Math.log10)],
  ['log2', one(Math.log2)],
  ['sqrt', one(Math.sqrt)],
  ['cbrt', one(Math.cbrt)],
  ['abs', one(Math.abs)],
  ['sign', one(Math.sign)],
  ['floor', one(Math.floor)],
  ['ceil', one(Math.ceil)],
  ['round', one(Math.round)],
  ['min', { fn: Math.min, arity: [1, 20] }],
  ['max', { fn: Math.max, arity: [1, 20] }],
  ['atan2', { fn: Math.atan2, arity: [2, 2] }],
]);

const CONSTANTS = new Map<string, number>([
  ['pi', Math.PI],
  ['π', Math.PI],
  ['tau', 2 * Math.PI],
  ['τ', 2 * Math.PI],
  ['e', Math.E],
]);

/** spellings that mean the same variable */
const VAR_ALIASES = new Map<string, string>([['θ', 'theta']]);

// ---------------------------------------------------------------------------------------------
// Tokens

type TokenType = 'num' | 'name' | 'op' | 'end';
interface Token {
  type: TokenType;
  text: string;
  at: number;
  value?: number;
}

class ExpressionError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

const OPERATORS: Record<string, string> = {
  '+': '+',
  '-': '-',
  '−': '-',
  '*': '*',
  '·': '*',
  '×': '*',
  '/': '/',
  '÷': '/',
  '^': '^',
  '(': '(',
  ')': ')',
  ',': ',',
  '|': '|',
  '=': '=',
};

const isLetter = (c: string) => /\p{L}/u.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      const m = /^(\d*\.?\d*)(e[+-]?\d+)?/i.exec(src.slice(i))!;
      // "2e" is 2·e, not an unfinished exponent: the exponent part needs digits
      const text = m[0];
      tokens.push({ type: 'num', text, at: i, value: Number(text) });
      i += text.length;
      continue;
    }
    if (isLetter(c)) {
      let j = i + 1;
      while (j < src.length && isLetter(src[j]!)) j++;
      // digits belong to a name only where a known name has them (log2, atan2)
      if (isDigit(src[j] ?? '')) {
        let k = j;
        while (k < src.length && isDigit(src[k]!)) k++;
        if (FUNCTIONS.has(src.slice(i, k).toLowerCase())) j = k;
      }
      tokens.push({ type: 'name', text: src.slice(i, j), at: i });
      i = j;
      continue;
    }
    if (c === '*' && src[i + 1] === '*') {
      tokens.push({ type: 'op', text: '^', at: i });
      i += 2;
      continue;
    }
    const op = OPERATORS[c];
    if (op === undefined) throw new ExpressionError(`Unexpected '${c}' at ${i + 1}`, i);
    tokens.push({ type: 'op', text: op, at: i });
    i++;
  }
  tokens.push({ type: 'end', text: '', at: src.length });
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Parser → closures

type Node = (vars: Vars) => number;
type NameKind = { kind: 'fn'; def: FunctionDef } | { kind: 'const'; value: number } | { kind: 'var'; name: string };

class Parser {
  private pos = 0;
  private depth = 0;
  private absDepth = 0;
  readonly used = new Set<string>();

  constructor(
    private readonly tokens: Token[],
    private readonly allowed: ReadonlySet<string>,
  ) {}

  private get tok(): Token {
    return this.tokens[this.pos]!;
  }
  private isOp(text: string): boolean {
    return this.tok.type === 'op' && this.tok.text === text;
  }
  private fail(message: string, at = this.tok.at): never {
    throw new ExpressionError(`${message} at ${at + 1}`, at);
  }
  private unexpected(): never {
    if (this.tok.type === 'end') this.fail('Unexpected end of expression');
    this.fail(`Unexpected '${this.tok.text}'`);
  }
  private enter(): void {
    if (++this.depth > MAX_EXPRESSION_DEPTH)
      throw new ExpressionError(`Too deeply nested (max ${MAX_EXPRESSION_DEPTH} levels)`, this.tok.at);
  }

  parseEquation(equation: boolean): Node {
    const left = this.parseExpr();
    if (this.isOp('=')) {
      if (!equation) this.fail("'=' is not allowed here");
      this.pos++;
      const right = this.parseExpr();
      this.expectEnd();
      return (v) => left(v) - right(v);
    }
    this.expectEnd();
    return left;
  }

  private expectEnd(): void {
    if (this.tok.type !== 'end') {
      if (this.isOp(')')) this.fail("Unmatched ')'");
      this.unexpected();
    }
  }

  private parseExpr(): Node {
    this.enter();
    let node = this.parseTerm();
    while (this.isOp('+') || this.isOp('-')) {
      const minus = this.tok.text === '-';
      this.pos++;
      const a = node;
      const b = this.parseTerm();
      node = minus ? (v) => a(v) - b(v) : (v) => a(v) + b(v);
    }
    this.depth--;
    return node;
  }

  /** can the current token start a factor multiplied by juxtaposition? */
  private startsFactor(): boolean {
    const t = this.tok;
    if (t.type === 'name') return true;
    // a number right after a factor ("x 2", "2 3") is more likely a typo than a product
    if (t.type === 'op') return t.text === '(' || (t.text === '|' && this.absDepth === 0);
    return false;
  }

  private parseTerm(): Node {
    let node = this.parseUnary();
    for (;;) {
      if (this.isOp('*') || this.isOp('/')) {
        const div = this.tok.text === '/';
        this.pos++;
        const a = node;
        const b = this.parseUnary();
        node = div ? (v) => a(v) / b(v) : (v) => a(v) * b(v);
      } else if (this.startsFactor()) {
        const a = node;
        const b = this.parsePower();
        node = (v) => a(v) * b(v);
      } else return node;
    }
  }

  private parseUnary(): Node {
    if (this.isOp('-') || this.isOp('+')) {
      const minus = this.tok.text === '-';
      this.pos++;
      this.enter();
      const a = this.parseUnary();
      this.depth--;
      return minus ? (v) => -a(v) : a;
    }
    return this.parsePower();
  }

  private parsePower(): Node {
    const base = this.parsePrimary();
    if (!this.isOp('^')) return base;
    this.pos++;
    this.enter();
    const exp = this.parseUnary();
    this.depth--;
    return (v) => Math.pow(base(v), exp(v));
  }

  private parsePrimary(): Node {
    const t = this.tok;
    if (t.type === 'num') {
      if (!Number.isFinite(t.value)) this.fail(`Bad number '${t.text}'`);
      this.pos++;
      const value = t.value!;
      return () => value;
    }
    if (t.type === 'name') return this.parseName();
    if (this.isOp('(')) {
      this.pos++;
      const inner = this.parseExpr();
      if (!this.isOp(')')) this.fail("Missing ')'");
      this.pos++;
      return inner;
    }
    if (this.isOp('|')) {
      this.pos++;
      this.absDepth++;
      const inner = this.parseExpr();
      this.absDepth--;
      if (!this.isOp('|')) this.fail("Missing closing '|'");
      this.pos++;
      return (v) => Math.abs(inner(v));
    }
    return this.unexpected();
  }

  private lookup(name: string): NameKind | null {
    const lower = name.toLowerCase();
    const def = FUNCTIONS.get(lower);
    if (def) return { kind: 'fn', def };
    const value = CONSTANTS.get(name) ?? CONSTANTS.get(lower);
    if (value !== undefined) return { kind: 'const', value };
    const v = VAR_ALIASES.get(name) ?? name;
    if (this.allowed.has(v)) return { kind: 'var', name: v };
    return null;
  }

  /** split letters into known names, longest first ("xsinx" → x, sin, x); null if impossible */
  private split(text: string): string[] | null {
    if (!text) return [];
    if (text.length > MAX_NAME_LETTERS) return null;
    for (let len = text.length; len > 0; len--) {
      const head = text.slice(0, len);
      if (!this.lookup(head)) continue;
      const rest = this.split(text.slice(len));
      if (rest) return [head, ...rest];
    }
    return null;
  }

  private parseName(): Node {
    const t = this.tok;
    const parts = this.lookup(t.text) ? [t.text] : this.split(t.text);
    if (!parts) {
      const callsIt = this.tokens[this.pos + 1]?.type === 'op' && this.tokens[this.pos + 1]!.text === '(';
      this.fail(callsIt ? `Unknown function '${t.text}'` : `Unknown name '${t.text}'`);
    }
    this.pos++;
    // all parts but the last are plain factors (a function among them takes what follows)
    const nodes: Node[] = [];
    let offset = t.at;
    for (let i = 0; i < parts.length; i++) {
      const entry = this.lookup(parts[i]!)!;
      const last = i === parts.length - 1;
      if (entry.kind === 'fn') {
        if (!last) {
          // "sinx": the rest of this name is the argument, then the factors after it
          const rest = parts.slice(i + 1).map((p) => this.factorOf(p, offset));
          const arg = this.implicitProduct(rest);
          nodes.push(this.apply(entry.def, parts[i]!, [arg], offset));
          break;
        }
        nodes.push(this.parseCall(entry.def, parts[i]!, offset));
      } else nodes.push(this.factorOf(parts[i]!, offset));
      offset += parts[i]!.length;
    }
    return this.product(nodes);
  }

  private factorOf(name: string, at: number): Node {
    const entry = this.lookup(name)!;
    if (entry.kind === 'const') {
      const value = entry.value;
      return () => value;
    }
    if (entry.kind === 'var') {
      const key = entry.name;
      this.used.add(key);
      return (v) => v[key] ?? NaN;
    }
    return this.fail(`'${name}' needs an argument`, at);
  }

  /** the factors right after "sinx" (sinx^2 is sin(x^2), sinx y is sin(x·y)) */
  private implicitProduct(first: Node[]): Node {
    let node = this.product(first);
    if (this.isOp('^')) {
      this.pos++;
      this.enter();
      const exp = this.parseUnary();
      this.depth--;
      const base = node;
      node = (v) => Math.pow(base(v), exp(v));
    }
    while (this.startsFactor() && !this.atFunctionName()) {
      const a = node;
      const b = this.parsePower();
      node = (v) => a(v) * b(v);
    }
    return node;
  }

  private atFunctionName(): boolean {
    const t = this.tok;
    if (t.type !== 'name') return false;
    const parts = this.lookup(t.text) ? [t.text] : this.split(t.text);
    return !!parts && parts.some((p) => this.lookup(p)?.kind === 'fn');
  }

  private product(nodes: Node[]): Node {
    return nodes.reduce((a, b) => (v) => a(v) * b(v));
  }

  /** a function name was read: `f(a, b)`, `f^2(x)`, `f^2 x` or `f x` */
  private parseCall(def: FunctionDef, name: string, at: number): Node {
    let power: Node | null = null;
    if (this.isOp('^')) {
      this.pos++;
      this.enter();
      power = this.parseUnary();
      this.depth--;
    }
    let node: Node;
    if (this.isOp('(')) {
      this.pos++;
      const args: Node[] = [];
      if (!this.isOp(')')) {
        args.push(this.parseExpr());
        while (this.isOp(',')) {
          this.pos++;
          args.push(this.parseExpr());
        }
      }
      if (!this.isOp(')')) this.fail("Missing ')'");
      this.pos++;
      node = this.apply(def, name, args, at);
      // "sin(x)^2" is handled by the caller's power; "sin(x) 2" is not a thing
    } else {
      if (!this.startsFactor() && this.tok.type !== 'num') this.fail(`'${name}' needs an argument`, at);
      this.enter();
      const first = this.tok.type === 'num' ? this.parsePrimary() : this.parsePower();
      const arg = this.implicitProduct([first]);
      this.depth--;
      node = this.apply(def, name, [arg], at);
    }
    if (!power) return node;
    const base = node;
    const p = power;
    return (v) => Math.pow(base(v), p(v));
  }

  private apply(def: FunctionDef, name: string, args: Node[], at: number): Node {
    const [min, max] = def.arity;
    if (args.length < min || args.length > max) {
      const want = min === max ? `${min} argument${min === 1 ? '' : 's'}` : `${min} to ${max} arguments`;
      this.fail(`'${name}' takes ${want}, got ${args.length}`, at);
    }
    const f = def.fn;
    if (args.length === 1) {
      const a = args[0]!;
      return (v) => f(a(v));
    }
    if (args.length === 2) {
      const [a, b] = args as [Node, Node];
      return (v) => f(a(v), b(v));
    }
    return (v) => f(...args.map((a) => a(v)));
  }
}

/** Parse and compile `src`; never throws (bad input → `{ ok: false, message, at }`). */
export function compileExpression(src: string, options: CompileOptions): CompiledExpression {
  try {
    if (typeof src !== 'string') return { ok: false, message: 'Not an expression', at: 0 };
    if (src.length > MAX_EXPRESSION_LENGTH)
      return {
        ok: false,
        message: `Too long (${src.length} characters, max ${MAX_EXPRESSION_LENGTH})`,
        at: MAX_EXPRESSION_LENGTH,
      };
    const tokens = tokenize(src);
    if (tokens.length === 1) return { ok: false, message: 'Empty expression', at: 0 };
    const parser = new Parser(tokens, new Set(options.vars));
    const fn = parser.parseEquation(!!options.equation);
    return { ok: true, fn, vars: [...parser.used] };
  } catch (e) {
    if (e instanceof ExpressionError) return { ok: false, message: e.message, at: e.at };
    // a stack overflow or anything unforeseen still must not reach the board
    return { ok: false, message: 'Cannot read this expression', at: 0 };
  }
}
