/**
 * plot.ts with the real function-plot in jsdom. The d3 packages ship ES modules only (Vite
 * bundles them); jest loads their self-contained UMD builds instead, as the web project does for
 * rbush.
 */
import { DEFAULT_GRAPH_SPEC, type GraphFunction, type GraphSpec } from './graphSpec';
import { compileGraphFunction, graphSvg, implicitCurves, renderGraph } from './plot';

const D3 = [
  'array',
  'axis',
  'color',
  'dispatch',
  'drag',
  'ease',
  'format',
  'interpolate',
  'path',
  'scale',
  'selection',
  'shape',
  'time',
  'time-format',
  'timer',
  'transition',
  'zoom',
];
// the repository's node_modules, from this file (web/src/features/board/graph)
const mockModules = `${__dirname}/../../../../../node_modules`;
for (const name of D3)
  jest.mock(`d3-${name}`, () => jest.requireActual(`${mockModules}/d3-${name}/dist/d3-${name}.js`));
jest.mock('internmap', () => jest.requireActual(`${mockModules}/internmap/dist/internmap.js`));

const json = (patch: Partial<GraphSpec>) => JSON.stringify({ ...DEFAULT_GRAPH_SPEC, ...patch });
const fn = (patch: Partial<GraphFunction>): GraphFunction => ({
  id: 'f1',
  kind: 'function',
  expr: 'x',
  color: '#2563eb',
  ...patch,
});
const parse = (svg: string) => new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
/** the "d" of every plotted curve (not axes, not the grid) */
const curves = (svg: string) => [...parse(svg).querySelectorAll('g.graph path.line')].map((p) => p.getAttribute('d')!);

describe('graphSvg', () => {
  test('y = x^2 is a path through the plot area, in its colour, as standalone SVG', async () => {
    const svg = await graphSvg(json({}), 480, 320);
    const root = parse(svg);
    expect(root.tagName).toBe('svg');
    expect(root.getAttribute('xmlns')).toBe('http://www.w3.org/2000/svg');
    expect(root.getAttribute('viewBox')).toBe('0 0 480 320');
    const [d, ...rest] = curves(svg);
    expect(rest).toEqual([]);
    // the 420 × 280 px plot shows x in −6…6, y in −4…4 (35 px per unit): (−6, 36) is 1120 px above
    // the top, the vertex (0, 0) is at the centre (210, 140), (6, 36) ends the line
    expect(d).toMatch(/^M0,-1120L/);
    expect(d).toContain('L210.25,139.998L');
    expect(d).toMatch(/L420,-1120$/);
    expect(root.querySelector('g.graph path.line')!.getAttribute('stroke')).toBe('#2563eb');
    // tick labels of the range
    expect([...root.querySelectorAll('.x.axis .tick text')].map((t) => t.textContent)).toContain('−6');
  });

  test('nothing interactive is left and the same input gives the same SVG', async () => {
    const a = await graphSvg(json({}), 480, 320);
    const b = await graphSvg(json({}), 480, 320);
    expect(a).toBe(b);
    expect(a).not.toMatch(/zoom-and-drag|class="tip|top-right-legend/);
    // the clip path id is derived from the input, and used
    const id = /clipPath id="([^"]+)"/.exec(a)![1]!;
    expect(a).toContain(`url(#${id})`);
    expect(await graphSvg(json({}), 481, 320)).not.toContain(`id="${id}"`);
  });

  test('never compiles with new Function (the board CSP forbids it)', async () => {
    const real = globalThis.Function;
    const refuse = () => {
      throw new Error('Function constructor called');
    };
    globalThis.Function = new Proxy(real, { construct: refuse, apply: refuse });
    try {
      const spec = json({
        functions: [
          fn({ id: 'a', expr: 'sin x', derivative: true, tangentAt: 1 }),
          fn({ id: 'b', kind: 'polar', expr: '2' }),
          fn({ id: 'c', kind: 'implicit', expr: 'x^2 + y^2 = 9' }),
          fn({ id: 'd', kind: 'parametric', expr: 'cos t', exprY: 'sin t' }),
          fn({ id: 'e', kind: 'points', expr: '(1, 1)' }),
        ],
      });
      const { problems } = await renderGraph(spec, 480, 320);
      expect(problems).toEqual([]);
    } finally {
      globalThis.Function = real;
    }
  });

  test('a bad expression is reported and written into the SVG; the others are drawn', async () => {
    const spec = json({ functions: [fn({ id: 'a', expr: 'sinn(x)' }), fn({ id: 'b', expr: '2x', color: '#dc2626' })] });
    const { svg, problems } = await renderGraph(spec, 480, 320);
    expect(problems).toEqual([{ id: 'a', field: 'expr', message: "Unknown function 'sinn' at 1", at: 0 }]);
    expect(curves(svg)).toHaveLength(1);
    expect(parse(svg).querySelector('.graph-problem')!.textContent).toBe("1: Unknown function 'sinn' at 1");
  });

  test('bad JSON draws the default graph with the problem', async () => {
    const { svg, problems } = await renderGraph('{"v": 1', 480, 320);
    expect(problems).toEqual([{ id: '', field: 'spec', message: 'The graph settings are not valid JSON.', at: 0 }]);
    expect(curves(svg)).toHaveLength(1);
    expect(svg).toContain('The graph settings are not valid JSON.');
  });

  test('absurd sizes are clamped, not thrown', async () => {
    const svg = await graphSvg(json({}), NaN, 1e9);
    expect(parse(svg).getAttribute('width')).toBe('80');
    expect(parse(svg).getAttribute('height')).toBe('4096');
  });

  test('derivative and tangent are extra curves; points are circles', async () => {
    const spec = json({
      functions: [
        fn({ id: 'a', expr: 'x^2', derivative: true, tangentAt: 1 }),
        fn({ id: 'b', kind: 'points', expr: '(0, 0) (1, 2) (pi, -1)' }),
      ],
    });
    const root = parse(await graphSvg(spec, 480, 320));
    const paths = [...root.querySelectorAll('g.graph path.line')];
    expect(paths).toHaveLength(3);
    expect(paths[1]!.getAttribute('stroke-dasharray')).toBe('6,4');
    // the tangent to x² at 1 is y = 2x − 1: through (−6, −13) and (6, 11), drawn as 2 samples
    expect(paths[2]!.getAttribute('d')!.split('L')).toHaveLength(2);
    // the tangent point plus three points
    expect(root.querySelectorAll('circle.scatter')).toHaveLength(4);
  });

  test('parametric, polar and implicit curves are drawn as polylines', async () => {
    const spec = json({
      functions: [
        fn({ id: 'a', kind: 'parametric', expr: 'x = 3cos t', exprY: 'y = 2sin t' }),
        fn({ id: 'b', kind: 'polar', expr: 'r = 1 + cos θ' }),
        fn({ id: 'c', kind: 'implicit', expr: 'x^2 + y^2 = 9' }),
      ],
    });
    const { svg, problems } = await renderGraph(spec, 480, 320);
    expect(problems).toEqual([]);
    const ds = curves(svg);
    expect(ds.length).toBeGreaterThanOrEqual(3);
    expect(ds.every((d) => !d.includes('NaN'))).toBe(true);
  });

  test('axes off removes axes, dark theme draws light ink', async () => {
    const plain = await graphSvg(json({ axes: false, grid: false }), 480, 320);
    expect(parse(plain).querySelector('.axis')).toBeNull();
    expect(curves(plain)).toHaveLength(1);
    const dark = await graphSvg(json({ xLabel: 'time' }), 480, 320, { dark: true });
    expect(dark).not.toContain('stroke="black"');
    expect(parse(dark).getAttribute('color')).toBe('#e6e6e6');
    expect(parse(dark).querySelector('text.axis-label')!.getAttribute('fill')).toBe('#e6e6e6');
  });
});

describe('compileGraphFunction', () => {
  test('accepts "y =", "f(x) =", "r =" before the expression', () => {
    for (const expr of ['y = 2x', 'f(x) = 2x', '2x']) {
      const c = compileGraphFunction(fn({ expr }));
      expect(c.ok && c.f({ x: 3 })).toBe(6);
    }
    const polar = compileGraphFunction(fn({ kind: 'polar', expr: 'r = 2t' }));
    expect(polar.ok && polar.f({ theta: 1, t: 1 })).toBe(2);
  });

  test('positions of errors after a prefix are in the typed text', () => {
    expect(compileGraphFunction(fn({ expr: 'y = sinn x' }))).toEqual({
      ok: false,
      problem: { id: 'f1', field: 'expr', message: "Unknown name 'sinn' at 5", at: 4 },
    });
    expect(compileGraphFunction(fn({ kind: 'parametric', expr: 't', exprY: 't +' }))).toMatchObject({
      ok: false,
      problem: { field: 'exprY', message: 'Unexpected end of expression at 4' },
    });
  });

  test.each([
    [
      '(1, 2) (3, 4)',
      [
        [1, 2],
        [3, 4],
      ],
    ],
    [
      '(1,2);(3,4)',
      [
        [1, 2],
        [3, 4],
      ],
    ],
    [
      '(pi, -1), (2^3, sqrt 4)',
      [
        [Math.PI, -1],
        [8, 2],
      ],
    ],
  ])('points %p', (expr, points) => {
    const c = compileGraphFunction(fn({ kind: 'points', expr }));
    expect(c.ok && c.points).toEqual(points);
  });

  test.each([
    ['(1 2)', "A point needs 'x, y' at 1"],
    ['(1, 2) x (3, 4)', "Expected '(x, y)' at 7"],
    ['(1, 2', "Expected '(x, y)' at 1"],
    ['(1, foo)', "Unknown name 'foo' at 5"],
    ['', "No points: write them as '(1, 2) (3, 4)'"],
  ])('points %p → %p', (expr, message) => {
    const c = compileGraphFunction(fn({ kind: 'points', expr }));
    expect(!c.ok && c.problem.message).toBe(message);
  });
});

describe('implicitCurves', () => {
  test('a circle is one closed line of points on it', () => {
    const lines = implicitCurves(({ x, y }) => x! * x! + y! * y! - 9, [-6, 6], [-4, 4], 60, 40);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line.length).toBeGreaterThan(40);
    for (const [x, y] of line) expect(Math.hypot(x, y)).toBeCloseTo(3, 1);
    expect(line[0]).toEqual(line[line.length - 1]);
  });

  test('a pole (y = 1/x) is not drawn as a vertical line', () => {
    const lines = implicitCurves(({ x, y }) => 1 / x! - y!, [-5, 5], [-5, 5], 51, 50);
    expect(lines).toHaveLength(2);
    for (const line of lines) for (const [x] of line) expect(Math.abs(x)).toBeGreaterThan(0.15);
  });
});
