/**
 * A graph spec → an SVG string, drawn by function-plot (d3) into a detached node. function-plot
 * is imported on the first render only (it is ~60 KB gzipped). Its string evaluator compiles with
 * `new Function` (forbidden by the board's CSP), so every curve reaches it as a JS function
 * compiled by expression.ts, or as sampled points:
 * - function: `fn` as a function (its builtIn sampler, polyline, splits at asymptotes);
 * - derivative and tangent: functions too (its own `derivative` helper builds a string);
 * - parametric and polar: sampled here and split where the curve is undefined (its samplers
 *   would draw NaN into the path and break it);
 * - implicit: marching squares here (its implicit plot needs the interval evaluator);
 * - points: a scatter datum.
 * The output is deterministic: no tooltip, no zoom overlay, a chart id derived from the input.
 */
import type { FunctionPlotDatum, FunctionPlotOptions } from 'function-plot';
import { compileExpression, type CompiledExpression, type Vars } from './expression';
import { parseGraphSpec, type GraphFunction, type GraphSpec } from './graphSpec';

export interface GraphProblem {
  /** the function's id; '' for the spec as a whole */
  id: string;
  field: 'expr' | 'exprY' | 'spec';
  message: string;
  /** 0-based position in the field's text */
  at: number;
}

type Curve = (vars: Vars) => number;
export type CompiledGraphFunction =
  | { ok: true; kind: GraphFunction['kind']; f: Curve; g?: Curve; points?: [number, number][] }
  | { ok: false; problem: GraphProblem };

export const MAX_GRAPH_POINTS = 200;
const TWO_PI = 2 * Math.PI;

/** "y = …", "r = …", "x = …" before an expression are accepted (blanked, so positions stay) */
function withoutPrefix(src: string, names: string): string {
  const m = new RegExp(`^\\s*(?:${names})\\s*=`).exec(src);
  return m ? ' '.repeat(m[0].length) + src.slice(m[0].length) : src;
}

function problemOf(r: CompiledExpression, id: string, field: GraphProblem['field']): GraphProblem | null {
  return r.ok ? null : { id, field, message: r.message, at: r.at };
}

/** "(1, 2) (3, -1)" or "(pi, 0); (0, 1)": coordinates may be constant expressions */
function parsePoints(src: string, id: string): [number, number][] | GraphProblem {
  const points: [number, number][] = [];
  const re = /\(([^()]*)\)/g;
  let last = 0;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    const between = src.slice(last, m.index);
    if (!/^[\s,;]*$/.test(between)) return { id, field: 'expr', message: `Expected '(x, y)' at ${last + 1}`, at: last };
    const inner = m[1]!;
    const comma = inner.indexOf(',');
    if (comma < 0) return { id, field: 'expr', message: `A point needs 'x, y' at ${m.index + 1}`, at: m.index };
    const coords: number[] = [];
    for (const [part, offset] of [
      [inner.slice(0, comma), m.index + 1],
      [inner.slice(comma + 1), m.index + 2 + comma],
    ] as const) {
      const r = compileExpression(part, { vars: [] });
      if (!r.ok)
        return {
          id,
          field: 'expr',
          message: `${r.message.replace(/ at \d+$/, '')} at ${offset + r.at + 1}`,
          at: offset + r.at,
        };
      coords.push(r.fn({}));
    }
    if (!coords.every(Number.isFinite))
      return { id, field: 'expr', message: `Not a number at ${m.index + 1}`, at: m.index };
    points.push([coords[0]!, coords[1]!]);
    if (points.length > MAX_GRAPH_POINTS)
      return { id, field: 'expr', message: `More than ${MAX_GRAPH_POINTS} points`, at: m.index };
    last = m.index + m[0].length;
  }
  if (!/^[\s,;]*$/.test(src.slice(last)))
    return { id, field: 'expr', message: `Expected '(x, y)' at ${last + 1}`, at: last };
  if (!points.length) return { id, field: 'expr', message: "No points: write them as '(1, 2) (3, 4)'", at: 0 };
  return points;
}

/** compile one function of a spec (the panel shows `problem` under its input); never throws */
export function compileGraphFunction(fn: GraphFunction): CompiledGraphFunction {
  const { id, kind } = fn;
  const fail = (problem: GraphProblem): CompiledGraphFunction => ({ ok: false, problem });
  switch (kind) {
    case 'function': {
      const r = compileExpression(withoutPrefix(fn.expr, 'y|f\\s*\\(\\s*x\\s*\\)'), { vars: ['x'] });
      return r.ok ? { ok: true, kind, f: r.fn } : fail(problemOf(r, id, 'expr')!);
    }
    case 'polar': {
      const r = compileExpression(withoutPrefix(fn.expr, 'r'), { vars: ['theta', 't'] });
      return r.ok ? { ok: true, kind, f: r.fn } : fail(problemOf(r, id, 'expr')!);
    }
    case 'parametric': {
      const rx = compileExpression(withoutPrefix(fn.expr, 'x'), { vars: ['t'] });
      if (!rx.ok) return fail(problemOf(rx, id, 'expr')!);
      const ry = compileExpression(withoutPrefix(fn.exprY ?? '', 'y'), { vars: ['t'] });
      if (!ry.ok) return fail(problemOf(ry, id, 'exprY')!);
      return { ok: true, kind, f: rx.fn, g: ry.fn };
    }
    case 'implicit': {
      const r = compileExpression(fn.expr, { vars: ['x', 'y'], equation: true });
      return r.ok ? { ok: true, kind, f: r.fn } : fail(problemOf(r, id, 'expr')!);
    }
    case 'points': {
      const points = parsePoints(fn.expr, id);
      return Array.isArray(points) ? { ok: true, kind, f: () => NaN, points } : fail(points);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Sampling done here

/** consecutive finite samples as separate polylines */
function splitFinite(samples: [number, number][]): [number, number][][] {
  const runs: [number, number][][] = [];
  let run: [number, number][] = [];
  for (const p of samples) {
    if (Number.isFinite(p[0]) && Number.isFinite(p[1])) run.push(p);
    else if (run.length) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return runs.filter((r) => r.length > 1);
}

const CURVE_SAMPLES = 1000;

function sampleCurve(c: Extract<CompiledGraphFunction, { ok: true }>, range: [number, number]): [number, number][][] {
  const [lo, hi] = range;
  const samples: [number, number][] = [];
  for (let i = 0; i <= CURVE_SAMPLES; i++) {
    const t = lo + ((hi - lo) * i) / CURVE_SAMPLES;
    if (c.kind === 'polar') {
      const r = c.f({ theta: t, t });
      samples.push([r * Math.cos(t), r * Math.sin(t)]);
    } else samples.push([c.f({ t }), c.g!({ t })]);
  }
  return splitFinite(samples);
}

/**
 * The zero set of f(x, y) over the view by marching squares, as polylines. Edges whose
 * interpolated crossing is not near zero are poles (1/x − y), not curves, and are skipped.
 */
export function implicitCurves(
  f: Curve,
  xr: [number, number],
  yr: [number, number],
  nx: number,
  ny: number,
): [number, number][][] {
  const xs = (i: number) => xr[0] + ((xr[1] - xr[0]) * i) / nx;
  const ys = (j: number) => yr[0] + ((yr[1] - yr[0]) * j) / ny;
  const v: number[] = new Array((nx + 1) * (ny + 1));
  for (let j = 0; j <= ny; j++) for (let i = 0; i <= nx; i++) v[j * (nx + 1) + i] = f({ x: xs(i), y: ys(j) });
  const at = (i: number, j: number) => v[j * (nx + 1) + i]!;

  const edgePoints = new Map<string, [number, number] | null>();
  /** the crossing on the edge from (i,j) to (i+di, j+dj), or null */
  const crossing = (i: number, j: number, di: number, dj: number): [number, number] | null => {
    const key = `${i},${j},${di}`;
    if (edgePoints.has(key)) return edgePoints.get(key)!;
    const a = at(i, j);
    const b = at(i + di, j + dj);
    let p: [number, number] | null = null;
    if (Number.isFinite(a) && Number.isFinite(b) && a <= 0 !== b <= 0) {
      const s = a / (a - b);
      const x = xs(i + di * s);
      const y = ys(j + dj * s);
      const mid = f({ x, y });
      if (Math.abs(mid) <= 0.5 * Math.max(Math.abs(a), Math.abs(b))) p = [x, y];
    }
    edgePoints.set(key, p);
    return p;
  };

  // segments between edge keys, then chained into polylines
  const segments: [string, string][] = [];
  const points = new Map<string, [number, number]>();
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      const edges: [string, [number, number]][] = [];
      const add = (ii: number, jj: number, di: number, dj: number) => {
        const p = crossing(ii, jj, di, dj);
        if (p) {
          const key = `${ii},${jj},${di}`;
          points.set(key, p);
          edges.push([key, p]);
        }
      };
      add(i, j, 1, 0); // bottom
      add(i + 1, j, 0, 1); // right
      add(i, j + 1, 1, 0); // top
      add(i, j, 0, 1); // left
      if (edges.length === 2) segments.push([edges[0]![0], edges[1]![0]]);
      else if (edges.length === 4) {
        // a saddle: pair the crossings by the sign at the cell's centre
        const centre = f({ x: xs(i + 0.5), y: ys(j + 0.5) });
        const bottomLeftSide = at(i, j) <= 0 === centre <= 0;
        const [b, r, t, l] = edges.map((e) => e[0]) as [string, string, string, string];
        if (bottomLeftSide) segments.push([b, r], [t, l]);
        else segments.push([b, l], [t, r]);
      }
    }

  const byEdge = new Map<string, number[]>();
  segments.forEach(([a, b], k) => {
    for (const e of [a, b]) byEdge.set(e, [...(byEdge.get(e) ?? []), k]);
  });
  const used = new Set<number>();
  const lines: [number, number][][] = [];
  const walk = (from: string, k: number, line: string[]) => {
    let edge = from;
    let seg = k;
    while (!used.has(seg)) {
      used.add(seg);
      const [a, b] = segments[seg]!;
      edge = a === edge ? b : a;
      line.push(edge);
      const next = (byEdge.get(edge) ?? []).find((s) => !used.has(s));
      if (next === undefined) break;
      seg = next;
    }
  };
  segments.forEach(([a], k) => {
    if (used.has(k)) return;
    const forward: string[] = [a];
    walk(a, k, forward);
    // extend backwards from the first edge too (the walk may have started mid-line)
    const back: string[] = [];
    const other = (byEdge.get(a) ?? []).find((s) => !used.has(s));
    if (other !== undefined) walk(a, other, back);
    lines.push([...back.reverse(), ...forward].map((e) => points.get(e)!));
  });
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Rendering

export interface RenderedGraph {
  svg: string;
  /** functions that could not be drawn (also written into the SVG) */
  problems: GraphProblem[];
}

const INK = { light: '#1f2328', dark: '#e6e6e6' };
const DERIVATIVE_STEP = 1e-5;

function derivativeOf(f: Curve): Curve {
  return ({ x }) => {
    const h = DERIVATIVE_STEP * Math.max(1, Math.abs(x!));
    return (f({ x: x! + h }) - f({ x: x! - h })) / (2 * h);
  };
}

/** a short stable hash, so ids inside the SVG are the same for the same input */
function hash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

function datumsOf(spec: GraphSpec, w: number, h: number): { data: FunctionPlotDatum[]; problems: GraphProblem[] } {
  const data: FunctionPlotDatum[] = [];
  const problems: GraphProblem[] = [];
  const line = (
    points: [number, number][],
    color: string,
    attr?: Record<string, string | number>,
  ): FunctionPlotDatum => ({
    fnType: 'points',
    graphType: 'polyline',
    sampler: 'builtIn',
    points,
    color,
    skipTip: true,
    attr: { 'stroke-width': 2, ...attr },
  });
  for (const fn of spec.functions) {
    const c = compileGraphFunction(fn);
    if (!c.ok) {
      problems.push(c.problem);
      continue;
    }
    const color = fn.color;
    switch (c.kind) {
      case 'function': {
        const f = c.f;
        data.push({
          fn: (scope) => f({ x: scope.x as number }),
          fnType: 'linear',
          graphType: 'polyline',
          sampler: 'builtIn',
          color,
          attr: { 'stroke-width': 2 },
        });
        if (fn.derivative) {
          const d = derivativeOf(f);
          data.push({
            fn: (scope) => d({ x: scope.x as number }),
            fnType: 'linear',
            graphType: 'polyline',
            sampler: 'builtIn',
            color,
            attr: { 'stroke-width': 1.5, 'stroke-dasharray': '6,4' },
          });
        }
        if (fn.tangentAt !== undefined) {
          const x0 = fn.tangentAt;
          const y0 = f({ x: x0 });
          const m = derivativeOf(f)({ x: x0 });
          if (Number.isFinite(y0) && Number.isFinite(m)) {
            data.push({
              fn: (scope) => m * ((scope.x as number) - x0) + y0,
              fnType: 'linear',
              graphType: 'polyline',
              sampler: 'builtIn',
              nSamples: 2,
              color,
              attr: { 'stroke-width': 1.5, opacity: 0.6 },
            });
            data.push({
              fnType: 'points',
              graphType: 'scatter',
              points: [[x0, y0]],
              color,
              attr: { r: 4, opacity: 1 },
            });
          }
        }
        break;
      }
      case 'parametric':
      case 'polar':
        for (const run of sampleCurve(c, fn.range ?? [0, TWO_PI])) data.push(line(run, color));
        break;
      case 'implicit': {
        // about one cell per 4 px of the plot area
        const nx = Math.max(8, Math.min(200, Math.round((w - 60) / 4)));
        const ny = Math.max(8, Math.min(200, Math.round((h - 40) / 4)));
        for (const run of implicitCurves(c.f, spec.x, spec.y, nx, ny)) data.push(line(run, color));
        break;
      }
      case 'points':
        data.push({ fnType: 'points', graphType: 'scatter', points: c.points!, color, attr: { r: 4, opacity: 1 } });
        break;
    }
  }
  return { data, problems };
}

type FunctionPlotModule = typeof import('function-plot');
let loading: Promise<FunctionPlotModule> | null = null;
/** function-plot, loaded once on the first graph (a lazy chunk) */
export function loadFunctionPlot(): Promise<FunctionPlotModule> {
  loading ??= import('function-plot').catch((e: unknown) => {
    loading = null; // a failed chunk load may succeed later (network back)
    throw e;
  });
  return loading;
}

export const MIN_GRAPH_PX = 80;
export const MAX_GRAPH_PX = 4096;

/**
 * Render a spec (GraphShape.spec JSON) at w × h px. Bad JSON draws the default spec, bad
 * expressions are left out; both come back in `problems` and are written into the SVG.
 * Rejects only when function-plot cannot be loaded or fails.
 */
export async function renderGraph(
  specJson: string,
  w: number,
  h: number,
  opts: { dark?: boolean } = {},
): Promise<RenderedGraph> {
  const width = Math.round(Math.min(MAX_GRAPH_PX, Math.max(MIN_GRAPH_PX, Number.isFinite(w) ? w : MIN_GRAPH_PX)));
  const height = Math.round(Math.min(MAX_GRAPH_PX, Math.max(MIN_GRAPH_PX, Number.isFinite(h) ? h : MIN_GRAPH_PX)));
  const parsed = parseGraphSpec(specJson);
  const spec = parsed.spec;
  const { data, problems } = datumsOf(spec, width, height);
  if (parsed.problem) problems.unshift({ id: '', field: 'spec', message: parsed.problem, at: 0 });

  const mod = await loadFunctionPlot();
  // CommonJS interop differs between bundlers: the function is `default` or `default.default`
  const functionPlot =
    typeof mod.default === 'function'
      ? mod.default
      : (mod.default as unknown as { default: FunctionPlotModule['default'] }).default;
  const target = document.createElement('div');
  const options: FunctionPlotOptions = {
    target,
    width,
    height,
    grid: spec.grid,
    disableZoom: true,
    xAxis: { domain: [...spec.x], label: spec.xLabel || undefined },
    yAxis: { domain: [...spec.y], label: spec.yLabel || undefined },
    tip: { xLine: false, yLine: false },
    data,
  };
  const chart = functionPlot(options);
  // `id` is private in the typings: it names the clip path and marker in the SVG
  const chartId = (chart as unknown as { id: string }).id;
  try {
    return {
      svg: finish(target, chartId, hash(`${specJson}|${width}|${height}|${!!opts.dark}`), spec, problems, opts),
      problems,
    };
  } finally {
    // function-plot keeps every chart in a static cache (for linked graphs): ours are one-shot
    chart.removeAllListeners();
    const cache = (mod.Chart ?? (mod.default as unknown as { Chart?: { cache?: Record<string, unknown> } }).Chart)
      ?.cache as Record<string, unknown> | undefined;
    if (cache) delete cache[chartId];
  }
}

/** strip the interactive parts, apply the theme, write problems in, serialise */
function finish(
  target: HTMLElement,
  chartId: string,
  stableId: string,
  spec: GraphSpec,
  problems: GraphProblem[],
  opts: { dark?: boolean },
): string {
  const svg = target.querySelector('svg');
  if (!svg) throw new Error('function-plot drew nothing');
  for (const el of svg.querySelectorAll('.zoom-and-drag, g.tip, .top-right-legend')) el.remove();
  if (!spec.axes) for (const el of svg.querySelectorAll('.axis, .origin, .axis-label')) el.remove();
  const ink = opts.dark ? INK.dark : INK.light;
  svg.setAttribute('viewBox', `0 0 ${svg.getAttribute('width')} ${svg.getAttribute('height')}`);
  svg.setAttribute('color', ink);
  svg.setAttribute('font-family', 'sans-serif');
  for (const el of svg.querySelectorAll('[stroke="black"]')) el.setAttribute('stroke', ink);
  for (const el of svg.querySelectorAll('text.axis-label')) el.setAttribute('fill', ink);
  if (problems.length) {
    const doc = svg.ownerDocument;
    const height = Number(svg.getAttribute('height'));
    problems.slice(0, 3).forEach((p, i) => {
      const t = doc.createElementNS('http://www.w3.org/2000/svg', 'text');
      t.setAttribute('x', '44');
      t.setAttribute('y', String(height - 28 - i * 14));
      t.setAttribute('fill', opts.dark ? '#ff8a80' : '#b42318');
      t.setAttribute('font-size', '12');
      t.setAttribute('class', 'graph-problem');
      const index = spec.functions.findIndex((f) => f.id === p.id);
      t.textContent = index >= 0 ? `${index + 1}: ${p.message}` : p.message;
      svg.appendChild(t);
    });
  }
  return new XMLSerializer().serializeToString(svg).split(chartId).join(`fp${stableId}`);
}

/** the SVG of a graph at w × h px (the canvas image and vector export) */
export async function graphSvg(spec: string, w: number, h: number, opts?: { dark?: boolean }): Promise<string> {
  return (await renderGraph(spec, w, h, opts)).svg;
}
