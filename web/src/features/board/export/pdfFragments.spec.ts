/// <reference types="jest" />
/// <reference types="node" />
/**
 * Formulas and graphs in a PDF (issue 26 #1): svg2pdf.js draws their SVG fragments and must leave
 * the page's graphics state as it found it. It used to end with jsPDF's compatAPI(), whose
 * restoreGraphicsState popped the page's clip and world transform: everything above a graph in z
 * order was drawn mirrored, elsewhere or not at all. Here the page's content stream is replayed
 * (q / Q / cm) and every object's device position compared with where the page puts it.
 * (jsdom: svg2pdf needs a DOM; the end-to-end test compares the rendered page with the PNG.)
 */
import { inflateSync } from 'node:zlib';
import { rec, sceneOf } from './exportTesting';
import { pdfPages, exportPdf, fragmentTextForPdf } from './pdfExport';

beforeAll(() => {
  // jsdom has neither canvas text metrics nor SVG layout: svg2pdf measures text with getBBox
  HTMLCanvasElement.prototype.getContext = (() => null) as never;
  (SVGElement.prototype as unknown as { getBBox(): DOMRect }).getBBox = function (this: SVGElement) {
    return { x: 0, y: 0, width: (this.textContent ?? '').length * 5, height: 10 } as DOMRect;
  };
});

type M = [number, number, number, number, number, number];
const ID: M = [1, 0, 0, 1, 0, 0];
/** PDF's order: the new CTM is m × ctm (m applies first) */
const mul = (m: M, n: M): M => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];
const apply = (m: M, x: number, y: number) => ({ x: m[0] * x + m[2] * y + m[4], y: m[1] * x + m[3] * y + m[5] });

interface Mark {
  op: string;
  at: { x: number; y: number };
  text?: string;
  depth: number;
}

/** replays a content stream: where each path starts (m, re) and each text is shown, in device space */
function replay(content: string): { marks: Mark[]; minDepth: number; endDepth: number } {
  const tokens = content.match(/\((?:\\.|[^\\)])*\)|<[0-9a-fA-F]*>|\[[^\]]*\]|\/[^\s/[\]()<>]+|[^\s[\]()<>/]+/g) ?? [];
  let ctm: M = ID;
  let tm: M = ID;
  const stack: M[] = [];
  let minDepth = 0;
  const marks: Mark[] = [];
  let args: string[] = [];
  for (const t of tokens) {
    if (/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t) || /^[([</]/.test(t)) {
      args.push(t);
      continue;
    }
    const n = args.map(Number);
    switch (t) {
      case 'q':
        stack.push(ctm);
        break;
      case 'Q':
        if (!stack.length) minDepth = -1;
        ctm = stack.pop() ?? ID;
        break;
      case 'cm':
        ctm = mul(n as M, ctm);
        break;
      case 'm':
      case 're':
        marks.push({ op: t, at: apply(ctm, n[0]!, n[1]!), depth: stack.length });
        break;
      case 'BT':
        tm = ID;
        break;
      case 'Tm':
        tm = n as M;
        break;
      case 'Td':
        tm = mul([1, 0, 0, 1, n[0]!, n[1]!], tm);
        break;
      case 'Tj':
        marks.push({ op: 'Tj', at: apply(mul(tm, ctm), 0, 0), text: args[0], depth: stack.length });
        break;
    }
    args = [];
  }
  return { marks, minDepth, endDepth: stack.length };
}

async function pageContent(blob: Blob): Promise<string> {
  const buffer = await new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader(); // jsdom's Blob has no arrayBuffer()
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(new Error(String(reader.error)));
    reader.readAsArrayBuffer(blob);
  });
  const bytes = Buffer.from(buffer);
  const raw = bytes.toString('latin1');
  const out: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const chunk = bytes.subarray(start, raw.indexOf('endstream', start));
    try {
      out.push(inflateSync(chunk).toString('latin1'));
    } catch {
      out.push(chunk.toString('latin1'));
    }
  }
  // the page's content stream is the one that starts with jsPDF's own state
  return out.find((s) => /\bcm\b/.test(s) && /\bre\b/.test(s)) ?? '';
}

/** a graph-like fragment: an axis, a curve and a negative tick label (d3 writes U+2212) */
const GRAPH_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120" viewBox="0 0 200 120">' +
  '<path d="M0 60 L200 60 M100 0 L100 120" stroke="#444" fill="none"/>' +
  '<path d="M20 10 Q100 200 180 10" stroke="#1e88e5" fill="none"/>' +
  '<text x="40" y="75" font-size="10">\u22122</text></svg>';

const opts = {
  paper: 'a4',
  orientation: 'portrait',
  layout: 'fit',
  background: false,
  boardBackground: 'empty',
} as const;

test('objects above a graph or formula keep their place: the fragment leaves the page state alone', async () => {
  const below = rec.shape({ x: 0, y: 0, w: 80, h: 40 });
  const graph = { ...rec.shape({ x: 100, y: 0 }), kind: 'graph', w: 200, h: 120, spec: '{}' } as never;
  const formula = rec.formula('x^2', { x: 100, y: 150, w: 60, h: 30, rotation: 0.3 });
  const rect = rec.shape({ x: 0, y: 300, w: 120, h: 60 });
  const text = rec.text('After graph', { x: 200, y: 320 });
  const sticky = rec.sticky('Sticky', { x: 350, y: 300 });
  const scene = sceneOf([below, graph, formula, rect, text, sticky]);
  const region = scene.bounds()!;
  const page = pdfPages(scene, region, opts)[0]!;
  const blob = await exportPdf(scene, region, {
    ...opts,
    vectorFor: async (s) =>
      s.kind === 'graph' ? GRAPH_SVG : '<svg width="60" height="30"><rect width="60" height="30"/></svg>',
  });
  const { marks, minDepth, endDepth } = replay(await pageContent(blob));
  expect(minDepth).toBe(0);
  expect(endDepth).toBe(0);
  /** where the page puts a world point (PDF y up) */
  const H = 841.89;
  const device = (x: number, y: number) => ({
    x: page.x + page.scale * (x - region.minX),
    y: H - (page.y + page.scale * (y - region.minY)),
  });
  const near = (a: { x: number; y: number }, b: { x: number; y: number }) =>
    Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5;
  const pathAt = (x: number, y: number) => marks.some((m) => m.op !== 'Tj' && near(m.at, device(x, y)));
  // the shape below, and those above the graph and the rotated formula: where the page puts them
  expect(pathAt(0, 0)).toBe(true);
  expect(pathAt(0, 300)).toBe(true);
  expect(pathAt(350, 300)).toBe(true);
  // the text is upright and inside its box, after the fragments
  const after = marks.find((m) => m.op === 'Tj' && m.text === '(After graph)');
  expect(after).toBeDefined();
  const box = { min: device(200, 320), max: device(500, 360) };
  expect(after!.at.x).toBeGreaterThanOrEqual(box.min.x - 0.5);
  expect(after!.at.x).toBeLessThan(box.max.x);
  expect(after!.at.y).toBeLessThanOrEqual(box.min.y + 0.5);
  expect(after!.at.y).toBeGreaterThan(box.max.y);
  // the graph's own label: inside the graph's box, with an en dash for the minus sign
  const label = marks.find((m) => m.op === 'Tj' && /2\)$/.test(m.text ?? ''));
  expect(label?.text).toBe('(\x962)');
  expect(label!.at.x).toBeGreaterThan(device(100, 0).x);
  expect(label!.at.x).toBeLessThan(device(300, 0).x);
  expect(label!.at.y).toBeLessThan(device(0, 0).y);
  expect(label!.at.y).toBeGreaterThan(device(0, 120).y);
});

test("a fragment's text: minus becomes the en dash, other characters beyond WinAnsi '?'", () => {
  const doc = new DOMParser().parseFromString(
    '<svg xmlns="http://www.w3.org/2000/svg"><text>\u22123</text><text><tspan>x² – 1</tspan></text></svg>',
    'image/svg+xml',
  );
  expect(fragmentTextForPdf(doc.documentElement)).toBe(false);
  expect([...doc.querySelectorAll('text')].map((t) => t.textContent)).toEqual(['\u20133', 'x² – 1']);
  const other = new DOMParser().parseFromString(
    '<svg xmlns="http://www.w3.org/2000/svg"><text>π</text></svg>',
    'image/svg+xml',
  );
  expect(fragmentTextForPdf(other.documentElement)).toBe(true);
  expect(other.documentElement.textContent).toBe('?');
});
