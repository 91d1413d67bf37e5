/**
 * The graph shape's `spec` (GraphShape.spec, JSON, ≤ 64 KiB): what is plotted and where. Versioned
 * (`v`), checked by hand rather than with zod: zod 4 probes `new Function` when it parses an
 * object (a CSP violation report on the board) and would add its weight to the board chunk, which
 * imports these helpers for pan and zoom. Nothing here throws; bad JSON gives the default spec
 * and a problem to show.
 */

export const GRAPH_SPEC_VERSION = 1;
export const GRAPH_KINDS = ['function', 'parametric', 'polar', 'implicit', 'points'] as const;
export type GraphKind = (typeof GRAPH_KINDS)[number];

export interface GraphFunction {
  /** stable within the spec (React keys, error lists) */
  id: string;
  kind: GraphKind;
  /** function: f(x) · polar: r(θ) · implicit: an equation in x and y · points: "(1, 2) (3, 4)" · parametric: x(t) */
  expr: string;
  /** parametric: y(t) */
  exprY?: string;
  /** #rrggbb */
  color: string;
  /** function: also plot f′ (dashed) */
  derivative?: boolean;
  /** function: the tangent line at this x */
  tangentAt?: number;
  /** parametric t / polar θ interval (default 0 … 2π) */
  range?: [number, number];
}

export interface GraphSpec {
  v: 1;
  functions: GraphFunction[];
  /** visible x interval [min, max] */
  x: [number, number];
  /** visible y interval [min, max] */
  y: [number, number];
  grid: boolean;
  axes: boolean;
  xLabel: string;
  yLabel: string;
}

export const MAX_GRAPH_FUNCTIONS = 10;
export const MAX_GRAPH_EXPR = 500;
export const MAX_GRAPH_LABEL = 40;
/** GraphShape.spec limit (proto shapes.ts maxSpec) */
export const MAX_GRAPH_SPEC_CHARS = 64 * 1024;
/** narrowest and widest visible interval (floating point stays meaningful in between) */
export const MIN_GRAPH_SPAN = 1e-6;
export const MAX_GRAPH_SPAN = 1e9;
/** function-plot's margins around the plot area, in the box's units (its chart.js internalVars) */
export const PLOT_MARGIN = { left: 40, right: 20, top: 20, bottom: 20 } as const;

/** colours offered for functions, in order (the first is the free plan's only colour) */
export const GRAPH_COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2'];

/** the default box (480 × 320) shows x in −6…6 and y in −4…4: equal units on both axes */
export const DEFAULT_GRAPH_SPEC: GraphSpec = Object.freeze({
  v: 1,
  functions: [{ id: 'f1', kind: 'function', expr: 'x^2', color: GRAPH_COLORS[0]! }],
  x: [-6, 6],
  y: [-4, 4],
  grid: true,
  axes: true,
  xLabel: '',
  yLabel: '',
}) as GraphSpec;

export type ParsedGraphSpec = { spec: GraphSpec; problem: string | null };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isColor = (v: unknown): v is string => typeof v === 'string' && /^#[0-9a-f]{6}$/i.test(v);

function interval(v: unknown, name: string): [number, number] {
  if (!Array.isArray(v) || v.length !== 2 || !isFiniteNumber(v[0]) || !isFiniteNumber(v[1]))
    throw new SpecError(`${name} must be two numbers`);
  const span = v[1] - v[0];
  // half the minimum: pan and zoom results that rounding made a hair narrower still count
  if (!(span >= MIN_GRAPH_SPAN / 2 && span <= MAX_GRAPH_SPAN))
    throw new SpecError(`${name} must go from a smaller to a larger number (span ${MIN_GRAPH_SPAN}…${MAX_GRAPH_SPAN})`);
  return [v[0], v[1]];
}

function text(v: unknown, name: string, max: number): string {
  if (typeof v !== 'string') throw new SpecError(`${name} must be text`);
  if (v.length > max) throw new SpecError(`${name} is longer than ${max} characters`);
  return v;
}

class SpecError extends Error {}

function graphFunction(v: unknown, i: number): GraphFunction {
  const name = `function ${i + 1}`;
  if (!isObject(v)) throw new SpecError(`${name} is not an object`);
  if (typeof v.id !== 'string' || !v.id || v.id.length > 40) throw new SpecError(`${name} has no id`);
  if (!GRAPH_KINDS.includes(v.kind as GraphKind)) throw new SpecError(`${name} has an unknown kind`);
  if (!isColor(v.color)) throw new SpecError(`${name} has no #rrggbb colour`);
  const f: GraphFunction = {
    id: v.id,
    kind: v.kind as GraphKind,
    expr: text(v.expr, `${name}'s expression`, MAX_GRAPH_EXPR),
    color: v.color,
  };
  if (v.exprY !== undefined) f.exprY = text(v.exprY, `${name}'s y(t)`, MAX_GRAPH_EXPR);
  if (v.derivative !== undefined) {
    if (typeof v.derivative !== 'boolean') throw new SpecError(`${name}'s derivative must be true or false`);
    f.derivative = v.derivative;
  }
  if (v.tangentAt !== undefined) {
    if (!isFiniteNumber(v.tangentAt)) throw new SpecError(`${name}'s tangent point must be a number`);
    f.tangentAt = v.tangentAt;
  }
  if (v.range !== undefined) f.range = interval(v.range, `${name}'s range`);
  return f;
}

/** validate a parsed value as a spec (throws SpecError) */
function checkSpec(v: unknown): GraphSpec {
  if (!isObject(v)) throw new SpecError('the graph settings are not an object');
  if (v.v !== GRAPH_SPEC_VERSION) throw new SpecError(`unknown graph version ${JSON.stringify(v.v)}`);
  if (!Array.isArray(v.functions)) throw new SpecError('functions must be a list');
  if (v.functions.length > MAX_GRAPH_FUNCTIONS) throw new SpecError(`more than ${MAX_GRAPH_FUNCTIONS} functions`);
  const functions = v.functions.map(graphFunction);
  if (new Set(functions.map((f) => f.id)).size !== functions.length) throw new SpecError('two functions share an id');
  if (typeof v.grid !== 'boolean' || typeof v.axes !== 'boolean')
    throw new SpecError('grid and axes must be true or false');
  return {
    v: 1,
    functions,
    x: interval(v.x, 'the x range'),
    y: interval(v.y, 'the y range'),
    grid: v.grid,
    axes: v.axes,
    xLabel: text(v.xLabel ?? '', 'the x label', MAX_GRAPH_LABEL),
    yLabel: text(v.yLabel ?? '', 'the y label', MAX_GRAPH_LABEL),
  };
}

/** GraphShape.spec → a valid spec; bad, foreign or newer JSON → the default spec and a problem */
export function parseGraphSpec(json: string): ParsedGraphSpec {
  const fallback = (problem: string): ParsedGraphSpec => ({ spec: DEFAULT_GRAPH_SPEC, problem });
  if (typeof json !== 'string') return fallback('The graph settings are missing.');
  if (json.length > MAX_GRAPH_SPEC_CHARS) return fallback('The graph settings are too large.');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return fallback('The graph settings are not valid JSON.');
  }
  try {
    return { spec: checkSpec(value), problem: null };
  } catch (e) {
    const message = e instanceof SpecError ? e.message : 'they cannot be read';
    return fallback(`The graph settings are damaged: ${message}.`);
  }
}

/** the spec as GraphShape.spec; null when it is not valid or too large */
export function serializeGraphSpec(spec: GraphSpec): string | null {
  try {
    const json = JSON.stringify(checkSpec(spec));
    return json.length <= MAX_GRAPH_SPEC_CHARS ? json : null;
  } catch {
    return null;
  }
}

/** the problem with a spec as the panel would save it, or null */
export function specProblem(spec: GraphSpec): string | null {
  try {
    checkSpec(spec);
    return null;
  } catch (e) {
    return e instanceof SpecError ? e.message : 'invalid';
  }
}

const plotWidth = (w: number) => Math.max(1, w - PLOT_MARGIN.left - PLOT_MARGIN.right);
const plotHeight = (h: number) => Math.max(1, h - PLOT_MARGIN.top - PLOT_MARGIN.bottom);

/**
 * Pan by a drag of (dx, dy) in the graph box's own units (box size w × h): the plot follows the
 * pointer, so dragging right shows smaller x and dragging down shows larger y.
 */
export function panRange(spec: GraphSpec, dx: number, dy: number, w: number, h: number): GraphSpec {
  if (!isFiniteNumber(dx) || !isFiniteNumber(dy)) return spec;
  const sx = ((spec.x[1] - spec.x[0]) / plotWidth(w)) * dx;
  const sy = ((spec.y[1] - spec.y[0]) / plotHeight(h)) * dy;
  return { ...spec, x: [spec.x[0] - sx, spec.x[1] - sx], y: [spec.y[0] + sy, spec.y[1] + sy] };
}

/**
 * Zoom by `factor` (> 1 zooms in: a smaller interval) keeping the point under (ax, ay) in place;
 * ax, ay are fractions of the plot area from its left and top (plotFraction converts a point).
 * The spans stay within MIN_GRAPH_SPAN…MAX_GRAPH_SPAN.
 */
export function zoomRange(spec: GraphSpec, factor: number, ax: number, ay: number): GraphSpec {
  if (!isFiniteNumber(factor) || factor <= 0 || !isFiniteNumber(ax) || !isFiniteNumber(ay)) return spec;
  const scale = (lo: number, hi: number, at: number): [number, number] => {
    const span = hi - lo;
    const anchor = lo + at * span;
    // far from 0 a tiny interval is lost in rounding: keep it ≥ a billionth of the position
    const floor = Math.max(MIN_GRAPH_SPAN, Math.abs(anchor) * 1e-9);
    const next = Math.min(MAX_GRAPH_SPAN, Math.max(floor, span / factor));
    const lo2 = anchor - at * next;
    return [lo2, lo2 + next];
  };
  const fx = Math.min(1, Math.max(0, ax));
  const fy = Math.min(1, Math.max(0, ay));
  // y grows upwards: a fraction from the top is (1 − fy) from the bottom
  return { ...spec, x: scale(spec.x[0], spec.x[1], fx), y: scale(spec.y[0], spec.y[1], 1 - fy) };
}

/** a point in the box's own units (0,0 = its top left, size w × h) → plot-area fractions for zoomRange */
export function plotFraction(px: number, py: number, w: number, h: number): { ax: number; ay: number } {
  return { ax: (px - PLOT_MARGIN.left) / plotWidth(w), ay: (py - PLOT_MARGIN.top) / plotHeight(h) };
}

/** does the spec use anything beyond one plain function in the first colour (plan: advancedGraphs)? */
export function usesAdvanced(spec: GraphSpec): boolean {
  if (spec.functions.length > 1) return true;
  return spec.functions.some(
    (f) =>
      f.kind !== 'function' || f.color.toLowerCase() !== GRAPH_COLORS[0] || !!f.derivative || f.tangentAt !== undefined,
  );
}
