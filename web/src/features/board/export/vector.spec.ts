/// <reference types="jest" />
/** Shapes as vector drawings: the painters' geometry, styles and text, escaped, as SVG. */
import { packPoints, type ShapeRecord } from '@wb/proto';
import { makeItem } from '../canvas/scene';
import { rec, sceneOf } from './exportTesting';
import { svgText } from './svgExport';
import {
  arcD,
  backgroundPrims,
  CURVE,
  exportPaint,
  fmt,
  MOVE,
  pathToPdf,
  placeFragment,
  safeFragment,
  shapeDrawing,
  shapeSvg,
  xmlEscape,
  type VectorContext,
} from './vector';

const ctx: VectorContext = { paint: exportPaint('empty', false) };
const svgOf = (shape: ShapeRecord, c: VectorContext = ctx) => shapeSvg(makeItem(shape), c);

test('a pen stroke is one path starting at its first point, in the stroke colour', () => {
  const svg = svgOf(rec.pen([0, 0, 10, 5, 20, 0], { x: 100, y: 50, strokeWidth: 4 }));
  expect(svg.match(/<path /g)).toHaveLength(1);
  expect(svg).toContain('d="M100 50L110 55L120 50"');
  expect(svg).toContain('stroke="#1e88e5"');
  expect(svg).toContain('stroke-width="4"');
  expect(svg).toContain('stroke-linecap="round"');
  expect(svg).toContain('fill="none"');
});

test('a pressure stroke is a filled outline', () => {
  const svg = svgOf(rec.pen([0, 0, 10, 5, 20, 0, 30, 8], { pressures: Uint8Array.of(100, 200, 255, 80) } as never));
  expect(svg).toMatch(/<path d="M[\d.-]+ [\d.-]+(L[\d.-]+ [\d.-]+)+Z" fill="#1e88e5"\/>/);
});

test('line patterns: dashes, dots, marker, highlighter', () => {
  expect(svgOf(rec.pen([0, 0, 10, 0], { linePattern: 'dashed', strokeWidth: 2 } as never))).toContain(
    'stroke-dasharray="6 4"',
  );
  expect(svgOf(rec.pen([0, 0, 10, 0], { linePattern: 'dotted', strokeWidth: 2 } as never))).toContain(
    'stroke-dasharray="0.001 4"',
  );
  const marker = svgOf(rec.pen([0, 0, 10, 0], { linePattern: 'marker', strokeWidth: 2 } as never));
  expect(marker).toContain('stroke-width="4"');
  expect(marker).toContain('stroke-linecap="butt"');
  const hl = svgOf(rec.pen([0, 0, 10, 0], { linePattern: 'highlighter', strokeWidth: 3 } as never));
  expect(hl).toContain('stroke-width="12"');
  expect(hl).toContain('stroke-opacity="0.35"');
  expect(hl).toContain('mix-blend-mode:multiply');
});

test('fills: none, solid and semi; stroke width 0 draws no outline', () => {
  const none = svgOf(rec.shape({ fillColor: null }));
  expect(none.match(/<path /g)).toHaveLength(1);
  expect(none).toContain('d="M0 0L100 0L100 50L0 50Z" fill="none"');
  const solid = svgOf(rec.shape({ fillColor: 0xe53935, fill: 'solid' }));
  expect(solid).toContain('fill="#e53935"/>');
  expect(solid.match(/<path /g)).toHaveLength(2);
  expect(svgOf(rec.shape({ fillColor: 0xe53935, fill: 'semi' }))).toContain('fill="#e53935" fill-opacity="0.3"');
  expect(svgOf(rec.shape({ fillColor: 0xe53935, strokeWidth: 0 })).match(/<path /g)).toHaveLength(1);
  // an ellipse is four cubic curves
  expect(svgOf(rec.shape({ shapeType: 'ellipse' })).match(/C/g)!.length).toBeGreaterThanOrEqual(4);
});

test('rotation and opacity wrap the shape in a transformed group', () => {
  const svg = svgOf(rec.shape({ x: 0, y: 0, w: 100, h: 50, rotation: Math.PI / 2, opacity: 0.5 }));
  expect(svg).toMatch(/^<g transform="rotate\(90 50 25\)" opacity="0.5">.*<\/g>$/);
});

test('lines with arrowheads: the line stops short, a filled head sits at the end', () => {
  const svg = svgOf(rec.line([0, 0, 100, 0], { arrowEnd: true, strokeWidth: 2 }));
  const paths = svg.match(/<path [^>]*>/g)!;
  expect(paths).toHaveLength(2);
  // arrow size max(8, 2 × 3.5) = 8; the line is pulled back 0.7 × 8
  expect(paths[0]).toContain('d="M0 0L94.4 0"');
  expect(paths[1]).toMatch(/d="M100 0L[\d.]+ -?[\d.]+L[\d.]+ -?[\d.]+Z" fill="#000000"/);
});

test('an arc is drawn as beziers along the same sweep as canvas arc()', () => {
  const d = arcD(0, 0, 10, 0, Math.PI);
  expect(d.slice(0, 3)).toEqual([MOVE, 10, 0]);
  // a half turn: two quarter-circle curves after the move
  expect(d).toHaveLength(3 + 2 * 7);
  expect([d[3], d[10]]).toEqual([CURVE, CURVE]);
  // the first ends at the bottom of the circle (canvas y is down)
  expect(d[8]).toBeCloseTo(0, 9);
  expect(d[9]).toBeCloseTo(10, 9);
  expect(d[d.length - 2]).toBeCloseTo(-10, 9);
  expect(d[d.length - 1]).toBeCloseTo(0, 9);
  const svg = svgOf({
    id: 'arc1',
    kind: 'arc',
    creator: 1,
    z: 'a',
    x: 50,
    y: 50,
    r: 20,
    startAngle: 0,
    endAngle: Math.PI / 2,
    strokeWidth: 2,
  } as ShapeRecord);
  expect(svg).toContain('d="M70 50C');
});

test('text is escaped, never injected; lines follow textLayout', () => {
  const svg = svgOf(rec.text('<script>alert("x")</script> & more\nsecond', { w: 0 }));
  expect(svg).not.toContain('<script');
  expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
  expect(svg.match(/<text /g)).toHaveLength(2);
  expect(svg).toContain('>second</text>');
  // a font name cannot break out of its attribute
  const font = svgOf(rec.text('hi', { font: 'x" onload="evil' }));
  expect(font).not.toMatch(/onload="/);
  expect(xmlEscape('a\u0000b\u0007c\ud800')).toBe('abc');
});

test('sticky notes: shadow, note colour, centred wrapped text', () => {
  const svg = svgOf(rec.sticky('hello world', { color: 0xa5d6a7 }));
  expect(svg).toContain('fill="#a5d6a7"');
  expect(svg).toContain('text-anchor="middle"');
  expect(svg).toContain('fill="#1f1f1f"');
  expect(svg).toMatch(/>hello( world)?<\/text>/);
});

test('formulas and graphs: the renderer’s SVG when given, else a placeholder with the source', () => {
  const f = rec.formula('x^2 < 1');
  const placeholder = svgOf(f);
  expect(placeholder).toContain('x^2 &lt; 1');
  expect(placeholder).toContain('clip-path');
  const fragments = new Map([
    [f.id, '<svg xmlns="http://www.w3.org/2000/svg" width="5ex" viewBox="0 0 10 10"><path d="M0 0L10 10"/></svg>'],
  ]);
  const svg = svgOf(f, { ...ctx, fragments });
  expect(svg).toMatch(
    /^<svg x="0" y="0" width="[\d.]+" height="[\d.]+" xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 10 10"><path d="M0 0L10 10"\/><\/svg>$/,
  );
  expect(safeFragment('<svg><script>x</script></svg>')).toBeNull();
  expect(safeFragment('<svg onload="x()"></svg>')).toBeNull();
  expect(placeFragment('<g/>', 1, 2, 3, 4)).toBe('<svg x="1" y="2" width="3" height="4" overflow="visible"><g/></svg>');
});

test('images: embedded when loaded, a placeholder when not', () => {
  const page = rec.documentPage(1, 0, 0);
  expect(svgOf(page)).toMatch(/^<path d="M0 0L595 0L595 842L0 842Z" fill="#e6e7ea"/);
  const images = new Map([[page.id, 'data:image/png;base64,AAAA']]);
  expect(svgOf(page, { ...ctx, images })).toBe(
    '<image x="0" y="0" width="595" height="842" preserveAspectRatio="none" href="data:image/png;base64,AAAA"/>',
  );
});

test('ink: light-theme colours; a blackboard with its background keeps chalk ink', () => {
  const white = rec.pen([0, 0, 10, 0], { strokeColor: 0xffffff } as never);
  const black = rec.pen([0, 0, 10, 0], { strokeColor: 0x000000 } as never);
  // near-white ink on paper is drawn dark, black on the blackboard light
  expect(svgOf(white)).not.toContain('stroke="#ffffff"');
  expect(svgOf(black, { paint: exportPaint('blackboard', true) })).not.toContain('stroke="#000000"');
  expect(svgOf(black, { paint: exportPaint('blackboard', false) })).toContain('stroke="#000000"');
});

test('numbers: two decimals, no trailing zeros, no -0', () => {
  expect([fmt(1), fmt(1.5), fmt(1.25), fmt(1.005), fmt(-0.001), fmt(-2.1), fmt(0.07), fmt(NaN)]).toEqual([
    '1',
    '1.5',
    '1.25',
    '1',
    '0',
    '-2.1',
    '0.07',
    '0',
  ]);
  expect(pathToPdf([MOVE, 1, 2, CURVE, 1, 2, 3, 4, 5, 6])).toBe('1 2 m\n1 2 3 4 5 6 c\n');
});

test('backgrounds: surface, grid lines one screen pixel wide, dots', () => {
  const region = { minX: 0, minY: 0, maxX: 256, maxY: 128 };
  const grid = backgroundPrims('adaptiveGrid', region, 1);
  expect(grid[0]).toMatchObject({ t: 'path', fill: { color: '#ffffff', alpha: 1 } });
  expect(grid.length).toBe(3);
  expect(backgroundPrims('empty', region, 1)).toHaveLength(1);
  const dots = backgroundPrims('dotGrid', region, 1)[1]!;
  // 24 units apart: 11 × 6 dots, each a small square (13 numbers)
  expect(dots.t === 'path' && dots.d.length).toBe(11 * 6 * 13);
  expect(backgroundPrims('blackboard', region, 1)[0]).toMatchObject({ fill: { color: '#2b3a33' } });
});

test('a standalone SVG: viewBox = region, background first, shapes bottom to top, selection only', async () => {
  const a = rec.pen([0, 0, 50, 50], { x: 10, y: 10 });
  const b = rec.shape({ x: 100, y: 100 });
  const c = rec.sticky('top', { x: 20, y: 20 });
  const scene = sceneOf([a, b, c]);
  const region = { minX: -10, minY: -20, maxX: 310, maxY: 230 };
  const svg = await svgText(scene, region, { background: true, boardBackground: 'graphGrid' });
  expect(svg).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(svg).toContain('viewBox="-10 -20 320 250" width="320" height="250"');
  const surface = svg.indexOf('fill="#ffffff"');
  const pen = svg.indexOf('d="M10 10L60 60"');
  const note = svg.indexOf('fill="#fff59d"');
  expect(surface).toBeGreaterThan(0);
  expect(pen).toBeGreaterThan(surface);
  expect(note).toBeGreaterThan(pen);
  expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  const only = await svgText(scene, region, { background: false, boardBackground: 'graphGrid', only: new Set([b.id]) });
  expect(only).not.toContain('#ffffff');
  expect(only).not.toContain('M10 10L60 60');
  expect(only).toContain('M100 100L200 100');
});

test('every kind gives a drawing without throwing, even with odd values', () => {
  const odd = { id: 'o', creator: 1, z: 'a', x: NaN, y: 0 };
  const kinds = [
    { kind: 'pen', points: packPoints([]) },
    { kind: 'line', points: packPoints([0, 0]) },
    { kind: 'curve', points: packPoints([0, 0, 5, 5, 10, 0]), closed: true, fillColor: 0xff0000 },
    { kind: 'polyline', points: packPoints([0, 0, 5, 5]) },
    { kind: 'connector', points: packPoints([0, 0, 50, 80]), elbow: true, fromId: null, toId: null },
    { kind: 'graph', spec: '{"expressions":["x^2"]}', w: 200, h: 100 },
    { kind: 'image', fileId: 'f', w: -5, h: 10 },
    { kind: 'text', text: 5, font: null, fontSize: 'x', color: 0, w: 10 },
    { kind: 'unknown' },
  ];
  for (const k of kinds) {
    const item = makeItem({ ...odd, ...k } as unknown as ShapeRecord);
    expect(() => shapeSvg(item, ctx)).not.toThrow();
    expect(shapeDrawing(item, ctx).id).toBe('o');
  }
});
