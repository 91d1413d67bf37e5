import { compileExpression, MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH } from './expression';

const X = { vars: ['x'] };
const value = (src: string, vars: Record<string, number> = { x: 2 }, opts = X) => {
  const r = compileExpression(src, opts);
  if (!r.ok) throw new Error(`${src}: ${r.message}`);
  return r.fn(vars);
};
const failure = (src: string, opts = X) => {
  const r = compileExpression(src, opts);
  if (r.ok) throw new Error(`${src} compiled`);
  return { message: r.message, at: r.at };
};

describe('ordinary notation', () => {
  test.each([
    ['x^2', 4],
    ['2x', 4],
    ['2 x + 1', 5],
    ['3(x+1)', 9],
    ['(x+1)(x-1)', 3],
    ['x(x+1)', 6],
    ['2pi', 2 * Math.PI],
    ['2πx', 4 * Math.PI],
    ['sin x', Math.sin(2)],
    ['sinx', Math.sin(2)],
    ['sin(x)', Math.sin(2)],
    ['sin 2x', Math.sin(4)],
    ['sin x^2', Math.sin(4)],
    ['sin^2 x', Math.sin(2) ** 2],
    ['sin(x)^2', Math.sin(2) ** 2],
    ['sin x cos x', Math.sin(2) * Math.cos(2)],
    ['2 sin x', 2 * Math.sin(2)],
    ['|x - 5|', 3],
    ['2|x|', 4],
    ['||x| - 5|', 3],
    ['abs(-x)', 2],
    ['ln e', 1],
    ['ln(e^x)', 2],
    ['log 1000', 3],
    ['log2(8)', 3],
    ['sqrt(x + 7)', 3],
    ['sqrt 16', 4],
    ['exp(0)', 1],
    ['max(1, x, 3)', 3],
    ['min(1, x)', 1],
    ['atan2(1, 1)', Math.PI / 4],
    ['1.5e3', 1500],
    ['.5x', 1],
    ['2e', 2 * Math.E],
    ['x**3', 8],
    ['x · 3', 6],
    ['x × 3 ÷ 2', 3],
    ['−x', -2],
    ['PI', Math.PI],
    ['Sin(x)', Math.sin(2)],
  ])('%s = %p', (src, expected) => {
    expect(value(src)).toBeCloseTo(expected, 12);
  });

  test('precedence: * and / before + and -, left to right', () => {
    expect(value('1 + 2 * 3')).toBe(7);
    expect(value('8 / 4 / 2')).toBe(1);
    expect(value('10 - 4 - 3')).toBe(3);
    expect(value('1/2x')).toBe(1); // implicit multiplication binds like *: (1/2)·x
  });

  test('^ is right associative and binds tighter than unary minus', () => {
    expect(value('2^3^2')).toBe(512);
    expect(value('-x^2')).toBe(-4);
    expect(value('(-x)^2')).toBe(4);
    expect(value('2^-1')).toBe(0.5);
    expect(value('--x')).toBe(2);
    expect(value('3 - -x')).toBe(5);
  });

  test('variables: only those allowed, θ is theta, and the result lists the used ones', () => {
    const polar = compileExpression('1 + cos θ', { vars: ['theta', 't'] });
    expect(polar.ok && polar.fn({ theta: Math.PI })).toBeCloseTo(0);
    expect(polar.ok && polar.vars).toEqual(['theta']);
    const implicit = compileExpression('xy', { vars: ['x', 'y'] });
    expect(implicit.ok && implicit.fn({ x: 3, y: 4 })).toBe(12);
    expect(compileExpression('2 + 3', X)).toMatchObject({ ok: true, vars: [] });
    expect(failure('t + 1')).toEqual({ message: "Unknown name 't' at 1", at: 0 });
  });

  test('an equation is left minus right, only where allowed', () => {
    const circle = { vars: ['x', 'y'], equation: true };
    expect(value('x^2 + y^2 = 25', { x: 3, y: 4 }, circle)).toBe(0);
    expect(value('y = x', { x: 1, y: 3 }, circle)).toBe(2);
    expect(failure('x = 1')).toEqual({ message: "'=' is not allowed here at 3", at: 2 });
    expect(failure('x = 1 = 2', circle).message).toBe("Unexpected '=' at 7");
  });

  test('undefined values are NaN or infinite, never an exception', () => {
    expect(value('sqrt(-x)')).toBeNaN();
    expect(value('1/(x-2)')).toBe(Infinity);
    expect(value('ln(x - 2)')).toBe(-Infinity);
  });
});

describe('errors with positions', () => {
  test.each([
    ['sinn(x)', "Unknown function 'sinn' at 1", 0],
    ['2*sinn(x)', "Unknown function 'sinn' at 3", 2],
    ['foo', "Unknown name 'foo' at 1", 0],
    ['(x + 1', "Missing ')' at 7", 6],
    ['sin(x', "Missing ')' at 6", 5],
    ['|x', "Missing closing '|' at 3", 2],
    ['x + 1)', "Unmatched ')' at 6", 5],
    ['x +', 'Unexpected end of expression at 4', 3],
    ['x 2', "Unexpected '2' at 3", 2],
    ['x2', "Unexpected '2' at 2", 1],
    ['2 $ x', "Unexpected '$' at 3", 2],
    ['*x', "Unexpected '*' at 1", 0],
    ['()', "Unexpected ')' at 2", 1],
    ['x, 1', "Unexpected ',' at 2", 1],
    ['sin', "'sin' needs an argument at 1", 0],
    ['atan2(1)', "'atan2' takes 2 arguments, got 1 at 1", 0],
    ['sin(1, 2)', "'sin' takes 1 argument, got 2 at 1", 0],
    ['', 'Empty expression', 0],
    ['   ', 'Empty expression', 0],
  ])('%p → %p', (src, message, at) => {
    expect(failure(src)).toEqual({ message, at });
  });
});

describe('hostile input', () => {
  test('longer than the limit (10k characters) is refused without parsing', () => {
    const r = failure('x+'.repeat(5000) + 'x');
    expect(r.message).toBe(`Too long (10001 characters, max ${MAX_EXPRESSION_LENGTH})`);
  });

  test('deep nesting stops at the depth limit', () => {
    const deep = '('.repeat(200) + 'x' + ')'.repeat(200);
    expect(failure(deep).message).toMatch(/^Too deeply nested \(max 50 levels\)/);
    const ok = '('.repeat(MAX_EXPRESSION_DEPTH - 2) + 'x' + ')'.repeat(MAX_EXPRESSION_DEPTH - 2);
    expect(value(ok)).toBe(2);
    expect(failure('-'.repeat(300) + 'x').message).toMatch(/^Too deeply nested/);
    expect(failure('2^'.repeat(200) + '2').message).toMatch(/^Too deeply nested/);
  });

  test.each([
    ['constructor', "Unknown name 'constructor' at 1"],
    ['constructor(x)', "Unknown function 'constructor' at 1"],
    ['__proto__', "Unexpected '_' at 1"],
    ['toString(x)', "Unknown function 'toString' at 1"],
    ['hasOwnProperty', "Unknown name 'hasOwnProperty' at 1"],
    ['alert(1)', "Unknown function 'alert' at 1"],
    ['x.constructor', "Unexpected '.' at 2"],
    ['x["constructor"]', "Unexpected '[' at 2"],
    ['eval("1")', "Unexpected '\"' at 6"],
    ['eval(x)', "Unknown function 'eval' at 1"],
    ['`x`', "Unexpected '`' at 1"],
  ])('%p is refused', (src, message) => {
    expect(failure(src).message).toBe(message);
  });

  test('a variable missing at evaluation is NaN', () => {
    const r = compileExpression('x + 1', { vars: ['x'] });
    expect(r.ok && r.fn({})).toBeNaN();
  });

  test('non-string input is an error, not an exception', () => {
    expect(compileExpression(null as unknown as string, X)).toMatchObject({ ok: false });
  });

  test('a long run of letters that are no names is refused quickly', () => {
    expect(failure('e'.repeat(300) + 'q').message).toBe(`Unknown name '${'e'.repeat(300)}q' at 1`);
  });
});
