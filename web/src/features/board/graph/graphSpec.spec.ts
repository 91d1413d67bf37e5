import {
  DEFAULT_GRAPH_SPEC,
  GRAPH_COLORS,
  MAX_GRAPH_SPAN,
  MIN_GRAPH_SPAN,
  PLOT_MARGIN,
  panRange,
  parseGraphSpec,
  plotFraction,
  serializeGraphSpec,
  usesAdvanced,
  zoomRange,
  type GraphSpec,
} from './graphSpec';

const spec = (patch: Partial<GraphSpec> = {}): GraphSpec => ({ ...DEFAULT_GRAPH_SPEC, ...patch });

describe('parseGraphSpec', () => {
  test('a valid spec comes back as it was', () => {
    const s = spec({
      functions: [
        { id: 'a', kind: 'function', expr: 'sin x', color: '#dc2626', derivative: true, tangentAt: 1 },
        { id: 'b', kind: 'parametric', expr: 'cos t', exprY: 'sin t', color: '#2563eb', range: [0, 3] },
      ],
      xLabel: 'time',
    });
    expect(parseGraphSpec(JSON.stringify(s))).toEqual({ spec: s, problem: null });
  });

  test('labels may be missing (older writers)', () => {
    const { xLabel: _x, yLabel: _y, ...rest } = DEFAULT_GRAPH_SPEC;
    expect(parseGraphSpec(JSON.stringify(rest))).toEqual({ spec: DEFAULT_GRAPH_SPEC, problem: null });
  });

  test.each([
    ['not JSON', '{x:', 'The graph settings are not valid JSON.'],
    ['empty', '', 'The graph settings are not valid JSON.'],
    ['an array', '[]', 'The graph settings are damaged: the graph settings are not an object.'],
    [
      'a newer version',
      JSON.stringify(spec({ v: 2 as 1 })),
      'The graph settings are damaged: unknown graph version 2.',
    ],
    [
      'no version',
      JSON.stringify({ ...spec(), v: undefined }),
      'The graph settings are damaged: unknown graph version undefined.',
    ],
    [
      'a reversed range',
      JSON.stringify(spec({ x: [5, -5] })),
      'The graph settings are damaged: the x range must go from a smaller to a larger number (span 0.000001…1000000000).',
    ],
    [
      'an infinite range',
      JSON.stringify(spec()).replace('"y":[-4,4]', '"y":[0,1e400]'),
      'The graph settings are damaged: the y range must be two numbers.',
    ],
    [
      'an unknown kind',
      JSON.stringify(spec({ functions: [{ id: 'a', kind: 'sound' as 'function', expr: 'x', color: '#000000' }] })),
      'The graph settings are damaged: function 1 has an unknown kind.',
    ],
    [
      'a bad colour',
      JSON.stringify(spec({ functions: [{ id: 'a', kind: 'function', expr: 'x', color: 'red' }] })),
      'The graph settings are damaged: function 1 has no #rrggbb colour.',
    ],
    [
      'a long expression',
      JSON.stringify(spec({ functions: [{ id: 'a', kind: 'function', expr: 'x'.repeat(501), color: '#000000' }] })),
      "The graph settings are damaged: function 1's expression is longer than 500 characters.",
    ],
    [
      'duplicate ids',
      JSON.stringify(spec({ functions: [DEFAULT_GRAPH_SPEC.functions[0]!, DEFAULT_GRAPH_SPEC.functions[0]!] })),
      'The graph settings are damaged: two functions share an id.',
    ],
    [
      'a string tangent',
      JSON.stringify(
        spec({ functions: [{ ...DEFAULT_GRAPH_SPEC.functions[0]!, tangentAt: '1' as unknown as number }] }),
      ),
      "The graph settings are damaged: function 1's tangent point must be a number.",
    ],
    ['too large', 'x'.repeat(64 * 1024 + 1), 'The graph settings are too large.'],
  ])('%s → the default spec and a problem', (_name, json, problem) => {
    expect(parseGraphSpec(json)).toEqual({ spec: DEFAULT_GRAPH_SPEC, problem });
  });

  test('a prototype-polluting key is just an unknown field', () => {
    const parsed = parseGraphSpec(`{"__proto__":{"polluted":1},${JSON.stringify(spec()).slice(1)}`);
    expect(parsed.problem).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

test('serializeGraphSpec refuses what parseGraphSpec would refuse', () => {
  expect(parseGraphSpec(serializeGraphSpec(spec())!)).toEqual({ spec: spec(), problem: null });
  expect(serializeGraphSpec(spec({ x: [1, 1] }))).toBeNull();
});

describe('panRange', () => {
  // the default box: 480 × 320 with a 420 × 280 plot area showing 12 × 8 units
  test('dragging right by a plot width shows the interval to the left', () => {
    const s = panRange(spec(), 420, 0, 480, 320);
    expect(s.x).toEqual([-18, -6]);
    expect(s.y).toEqual([-4, 4]);
  });

  test('dragging down shows larger y; the spans stay', () => {
    const s = panRange(spec(), -35, 70, 480, 320);
    expect(s.x[0]).toBeCloseTo(-5);
    expect(s.x[1]).toBeCloseTo(7);
    expect(s.y[0]).toBeCloseTo(-2);
    expect(s.y[1]).toBeCloseTo(6);
  });

  test('a non-finite drag changes nothing', () => {
    expect(panRange(spec(), NaN, 1, 480, 320)).toEqual(spec());
  });
});

describe('zoomRange', () => {
  test('zooming in around the centre halves both spans', () => {
    const s = zoomRange(spec(), 2, 0.5, 0.5);
    expect(s.x).toEqual([-3, 3]);
    expect(s.y).toEqual([-2, 2]);
  });

  test('the point under the anchor stays in place', () => {
    // top-left corner of the plot area: x = -6, y = 4
    const s = zoomRange(spec(), 4, 0, 0);
    expect(s.x).toEqual([-6, -3]);
    expect(s.y).toEqual([2, 4]);
    const out = zoomRange(spec(), 0.5, 1, 1);
    expect(out.x).toEqual([-18, 6]);
    expect(out.y).toEqual([-4, 12]);
  });

  test('spans stay within the limits', () => {
    const tiny = zoomRange(spec(), 1e12, 0.5, 0.5);
    expect(tiny.x[1] - tiny.x[0]).toBeCloseTo(MIN_GRAPH_SPAN, 12);
    expect(serializeGraphSpec(tiny)).not.toBeNull();
    const far = panRange(zoomRange(spec({ x: [1e6, 1e6 + 1] }), 1e12, 0.3, 0.3), 1, 1, 480, 320);
    expect(serializeGraphSpec(far)).not.toBeNull();
    const huge = zoomRange(spec(), 1e-12, 0.5, 0.5);
    expect(huge.y[1] - huge.y[0]).toBe(MAX_GRAPH_SPAN);
    expect(parseGraphSpec(serializeGraphSpec(huge)!).problem).toBeNull();
  });

  test('bad factors change nothing', () => {
    expect(zoomRange(spec(), 0, 0.5, 0.5)).toEqual(spec());
    expect(zoomRange(spec(), -2, 0.5, 0.5)).toEqual(spec());
    expect(zoomRange(spec(), Infinity, 0.5, 0.5)).toEqual(spec());
  });

  test('plotFraction maps a point of the box to the plot area', () => {
    expect(plotFraction(PLOT_MARGIN.left, PLOT_MARGIN.top, 480, 320)).toEqual({ ax: 0, ay: 0 });
    expect(plotFraction(250, 160, 480, 320)).toEqual({ ax: 0.5, ay: 0.5 });
  });
});

describe('usesAdvanced', () => {
  const f = DEFAULT_GRAPH_SPEC.functions[0]!;
  test.each([
    ['the default', spec(), false],
    ['no functions', spec({ functions: [] }), false],
    [
      'another expression, grid and range',
      spec({ functions: [{ ...f, expr: 'sin x' }], grid: false, x: [0, 1] }),
      false,
    ],
    ['two functions', spec({ functions: [f, { ...f, id: 'f2' }] }), true],
    ['another colour', spec({ functions: [{ ...f, color: GRAPH_COLORS[1]! }] }), true],
    ['a polar curve', spec({ functions: [{ ...f, kind: 'polar' }] }), true],
    ['points', spec({ functions: [{ ...f, kind: 'points' }] }), true],
    ['a derivative', spec({ functions: [{ ...f, derivative: true }] }), true],
    ['a tangent', spec({ functions: [{ ...f, tangentAt: 0 }] }), true],
  ])('%s → %p', (_name, s, expected) => {
    expect(usesAdvanced(s)).toBe(expected);
  });
});
