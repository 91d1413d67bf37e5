/**
 * @jest-environment node
 */
/// <reference types="jest" />
/** Geometry per shape kind: boxes, bounds under rotation, hit tests, routes, text layout, ink. */
import { packPoints } from '@wb/proto';
import type { ShapeRecord } from '@wb/proto';
import { hitsShape, localBox, localPoints, sampleCurve, shapeBounds, shapeTouchesRect } from './geometry';
import { connectorPath } from './shapes/connector';
import { shapeOutline } from './shapes/shape';
import { layoutText, fitFontSize } from './textLayout';
import { backgroundIsDark, inkColor, invertLightness, luminance } from './theme';

const base = { id: 's', creator: 1, z: 'a0' };
const hits = (s: ShapeRecord, x: number, y: number, tol = 0.5) => {
  const pts = localPoints(s);
  return hitsShape(s, pts, shapeBounds(s, pts), { x, y }, tol);
};
const rect = (extra: Partial<ShapeRecord> = {}): ShapeRecord =>
  ({
    ...base,
    kind: 'shape',
    shapeType: 'rectangle',
    x: 100,
    y: 100,
    w: 100,
    h: 50,
    strokeWidth: 2,
    ...extra,
  }) as ShapeRecord;

describe('boxes and bounds', () => {
  it('point kinds: the box is the points extent plus x, y; bounds add half the stroke', () => {
    const s = {
      ...base,
      kind: 'line',
      x: 10,
      y: 20,
      strokeWidth: 4,
      points: packPoints([0, 0, 100, 50]),
    } as ShapeRecord;
    expect(localBox(s)).toEqual({ x: 10, y: 20, w: 100, h: 50, rotation: 0 });
    expect(shapeBounds(s)).toEqual({ minX: 7, minY: 17, maxX: 113, maxY: 73 });
  });

  it('rotation turns the bounds about the box centre', () => {
    const s = rect({ rotation: Math.PI / 2, strokeWidth: 0 });
    const b = shapeBounds(s);
    // 100 × 50 turned a quarter: 50 × 100 around the same centre (150, 125), plus the 1 unit margin
    expect(b.minX).toBeCloseTo(124);
    expect(b.maxX).toBeCloseTo(176);
    expect(b.minY).toBeCloseTo(74);
    expect(b.maxY).toBeCloseTo(176);
    const q = shapeBounds(rect({ rotation: Math.PI / 4, strokeWidth: 0 }));
    const half = (100 + 50) / Math.SQRT2 / 2 + Math.SQRT2;
    expect(q.maxX - 150).toBeCloseTo(half);
  });

  it('text height comes from its wrapped layout; arcs and formulas have boxes', () => {
    const t = {
      ...base,
      kind: 'text',
      x: 0,
      y: 0,
      w: 100,
      text: 'one two three four five six',
      font: 'Open Sans',
      fontSize: 20,
      color: 0,
    } as ShapeRecord;
    const l = layoutText('one two three four five six', 'Open Sans', 20, 100);
    expect(l.lines.length).toBeGreaterThan(1);
    expect(localBox(t).h).toBeCloseTo(l.height);
    const a = { ...base, kind: 'arc', x: 0, y: 0, r: 10, startAngle: 0, endAngle: Math.PI / 2 } as ShapeRecord;
    const ab = localBox(a);
    expect(ab.x).toBeCloseTo(0);
    expect(ab.y).toBeCloseTo(0);
    expect(ab.w).toBeCloseTo(10);
    expect(ab.h).toBeCloseTo(10);
    const f = {
      ...base,
      kind: 'formula',
      x: 5,
      y: 5,
      latex: 'x^2',
      fontSize: 20,
      color: 0,
      alignment: 'left',
    } as ShapeRecord;
    expect(localBox(f).w).toBeGreaterThan(20);
  });
});

describe('hit tests per kind', () => {
  it('pen / line / polyline: near the path within tolerance + half the stroke', () => {
    for (const kind of ['pen', 'line', 'polyline'] as const) {
      const s = {
        ...base,
        kind,
        x: 0,
        y: 0,
        strokeWidth: 4,
        points: packPoints([0, 0, 100, 0, 100, 100]),
      } as ShapeRecord;
      expect(hits(s, 50, 2)).toBe(true);
      expect(hits(s, 50, 3)).toBe(false);
      expect(hits(s, 101, 60)).toBe(true);
      expect(hits(s, 50, 50)).toBe(false);
    }
    // highlighters are drawn four times as wide and hit as wide
    const h = {
      ...base,
      kind: 'pen',
      x: 0,
      y: 0,
      strokeWidth: 4,
      linePattern: 'highlighter',
      points: packPoints([0, 0, 100, 0]),
    } as ShapeRecord;
    expect(hits(h, 50, 7.5)).toBe(true);
  });

  it('closed polyline: inside only when filled', () => {
    const tri = {
      ...base,
      kind: 'polyline',
      x: 0,
      y: 0,
      closed: true,
      strokeWidth: 2,
      points: packPoints([0, 0, 100, 0, 0, 100]),
    } as ShapeRecord;
    expect(hits(tri, 20, 20)).toBe(false);
    expect(hits(tri, 50, 50)).toBe(true); // on the closing edge
    expect(hits({ ...tri, fillColor: 0xff0000 } as ShapeRecord, 20, 20)).toBe(true);
  });

  it('curve: near the smooth curve through the points, not the chords', () => {
    const s = {
      ...base,
      kind: 'curve',
      x: 0,
      y: 0,
      strokeWidth: 2,
      points: packPoints([0, 0, 50, 50, 100, 0]),
    } as ShapeRecord;
    const sampled = sampleCurve(localPoints(s));
    expect(sampled[0]).toBe(0);
    expect(sampled.at(-2)).toBeCloseTo(100);
    expect(hits(s, 50, 50)).toBe(true);
    expect(hits(s, 100, 0)).toBe(true);
    expect(hits(s, 50, 10)).toBe(false);
  });

  it('connector: straight or along the elbow route', () => {
    const pts = [0, 0, 100, 60];
    expect(connectorPath(pts, false)).toEqual(pts);
    expect(connectorPath(pts, true)).toEqual([0, 0, 50, 0, 50, 60, 100, 60]);
    expect(connectorPath([0, 0, 30, 100], true)).toEqual([0, 0, 0, 50, 30, 50, 30, 100]);
    expect(connectorPath([0, 0, 30, 100], true, 'right')).toEqual([0, 0, 15, 0, 15, 100, 30, 100]);
    const c = {
      ...base,
      kind: 'connector',
      x: 0,
      y: 0,
      strokeWidth: 2,
      fromId: null,
      toId: null,
      elbow: true,
      points: packPoints(pts),
    } as ShapeRecord;
    expect(hits(c, 50, 30)).toBe(true);
    expect(hits(c, 25, 1)).toBe(true);
    expect(hits(c, 50, 31.5 + 20)).toBe(true);
    expect(hits(c, 30, 30)).toBe(false);
    expect(hits({ ...c, elbow: false } as ShapeRecord, 50, 30)).toBe(true);
    expect(hits({ ...c, elbow: false } as ShapeRecord, 25, 1)).toBe(false);
  });

  it('arc: near the arc only', () => {
    const a = {
      ...base,
      kind: 'arc',
      x: 0,
      y: 0,
      r: 50,
      startAngle: 0,
      endAngle: Math.PI,
      strokeWidth: 2,
    } as ShapeRecord;
    expect(hits(a, 0, 50)).toBe(true);
    expect(hits(a, 0, -50)).toBe(false);
    expect(hits(a, 0, 0)).toBe(false);
  });

  it('closed shapes: inside when filled or labelled, else near the outline', () => {
    for (const shapeType of ['rectangle', 'ellipse', 'triangle', 'diamond', 'star', 'hexagon', 'arrow'] as const) {
      const open = rect({ shapeType, fill: 'none' } as Partial<ShapeRecord>);
      const filled = rect({ shapeType, fillColor: 0x00ff00, fill: 'semi' } as Partial<ShapeRecord>);
      const labelled = rect({ shapeType, text: 'hi' } as Partial<ShapeRecord>);
      // the centre of every outline is inside it
      expect([shapeType, hits(filled, 150, 125)]).toEqual([shapeType, true]);
      expect([shapeType, hits(labelled, 150, 125)]).toEqual([shapeType, true]);
      expect([shapeType, hits(open, 150, 125)]).toEqual([shapeType, false]);
      expect(hits(filled, 90, 125)).toBe(false);
      // the first outline vertex is on the outline
      const o = shapeOutline(shapeType, 100, 50);
      expect(hits(open, 100 + o[0]!, 100 + o[1]!)).toBe(true);
    }
    // a filled colour with fill 'none' is not filled
    expect(hits(rect({ fillColor: 0xff0000, fill: 'none' } as Partial<ShapeRecord>), 150, 125)).toBe(false);
    // ellipse corners are outside
    expect(hits(rect({ shapeType: 'ellipse', fillColor: 1 } as Partial<ShapeRecord>), 103, 103)).toBe(false);
  });

  it('rotated shapes are hit where they are drawn', () => {
    const s = rect({ rotation: Math.PI / 2, fillColor: 0x0000ff } as Partial<ShapeRecord>);
    // turned a quarter about (150, 125): 50 wide, 100 high
    expect(hits(s, 150, 80)).toBe(true);
    expect(hits(s, 110, 125)).toBe(false);
    const line = {
      ...base,
      kind: 'line',
      x: 0,
      y: 0,
      strokeWidth: 2,
      rotation: Math.PI / 2,
      points: packPoints([0, 0, 100, 0]),
    } as ShapeRecord;
    expect(hits(line, 50, 40)).toBe(true);
    expect(hits(line, 90, 0)).toBe(false);
  });

  it('sticky, text, formula, graph, image, document page: inside their box', () => {
    const boxes = [
      { ...base, kind: 'sticky', x: 0, y: 0, w: 100, h: 100, text: '', color: 0xffff00 },
      { ...base, kind: 'graph', x: 0, y: 0, w: 100, h: 100, spec: '{}' },
      { ...base, kind: 'image', x: 0, y: 0, w: 100, h: 100, fileId: 'f' },
      { ...base, kind: 'documentPage', x: 0, y: 0, w: 100, h: 100, fileId: 'f', page: 1 },
    ] as ShapeRecord[];
    for (const s of boxes) {
      expect(hits(s, 50, 50)).toBe(true);
      expect(hits(s, 110, 50)).toBe(false);
    }
    const t = {
      ...base,
      kind: 'text',
      x: 0,
      y: 0,
      w: 200,
      text: 'a\nb\nc',
      font: 'Open Sans',
      fontSize: 20,
      color: 0,
    } as ShapeRecord;
    expect(hits(t, 10, 70)).toBe(true); // the third line
    expect(hits(t, 10, 90)).toBe(false);
  });

  it('touching a rectangle: strokes precisely, areas by their outline', () => {
    const s = {
      ...base,
      kind: 'line',
      x: 0,
      y: 0,
      strokeWidth: 2,
      points: packPoints([0, 0, 100, 100]),
    } as ShapeRecord;
    const pts = localPoints(s);
    const b = shapeBounds(s, pts);
    expect(shapeTouchesRect(s, pts, b, { minX: 40, minY: 40, maxX: 60, maxY: 60 })).toBe(true);
    // inside the bounds but away from the diagonal
    expect(shapeTouchesRect(s, pts, b, { minX: 70, minY: 0, maxX: 90, maxY: 20 })).toBe(false);
    const filled = rect({ fillColor: 1 } as Partial<ShapeRecord>);
    const open = rect();
    const inner = { minX: 140, minY: 120, maxX: 160, maxY: 130 };
    expect(shapeTouchesRect(filled, new Float32Array(0), shapeBounds(filled), inner)).toBe(true);
    expect(shapeTouchesRect(open, new Float32Array(0), shapeBounds(open), inner)).toBe(false);
  });
});

describe('text layout and ink', () => {
  it('wraps words, keeps newlines, breaks long words, fits sticky text', () => {
    const l = layoutText('hello world\nagain', 'x', 10, 40);
    expect(l.lines).toEqual(['hello', 'world', 'again']);
    expect(l.lineHeight).toBe(12.5);
    expect(layoutText('abcdefghijkl', 'x', 10, 30).lines).toEqual(['abcde', 'fghij', 'kl']);
    const size = fitFontSize('a fairly long note text that needs wrapping', 'x', 180, 180);
    expect(size).toBeGreaterThanOrEqual(10);
    expect(size).toBeLessThanOrEqual(48);
    expect(layoutText('a fairly long note text that needs wrapping', 'x', size, 180).height).toBeLessThanOrEqual(180);
    expect(fitFontSize('x'.repeat(5000), 'x', 50, 50)).toBe(10);
  });

  it('very dark ink is drawn light on dark surfaces, near-white ink dark on light ones', () => {
    const dark = { theme: 'dark' as const, background: 'empty' as const };
    const light = { theme: 'light' as const, background: 'empty' as const };
    const board = { theme: 'light' as const, background: 'blackboard' as const };
    expect(backgroundIsDark('blackboard', 'light')).toBe(true);
    expect(backgroundIsDark('oldPaper', 'dark')).toBe(false);
    expect(backgroundIsDark('graphGrid', 'dark')).toBe(true);
    expect(inkColor(0x000000, dark)).toBe('#ffffff');
    expect(inkColor(0x000000, board)).toBe('#ffffff');
    expect(inkColor(0x000000, light)).toBe('#000000');
    expect(inkColor(0xffffff, light)).toBe('#000000');
    expect(inkColor(0xff0000, dark)).toBe('#ff0000');
    // dark navy becomes a light blue of the same hue
    const navy = invertLightness(0x101040);
    expect(luminance(navy)).toBeGreaterThan(0.5);
    expect((navy & 0xff) > ((navy >> 16) & 0xff)).toBe(true);
  });
});

/** a 2D context that records method calls (Node has no canvas) */
function recorder(): { g: CanvasRenderingContext2D; calls: string[]; depth: () => number } {
  const calls: string[] = [];
  let depth = 0;
  const g = new Proxy({} as Record<string, unknown>, {
    get: (t, k) => {
      if (typeof k !== 'string') return undefined;
      if (k in t) return t[k];
      return (..._a: unknown[]) => {
        calls.push(k);
        if (k === 'save') depth++;
        if (k === 'restore') depth--;
        return k === 'measureText' ? { width: 10 } : undefined;
      };
    },
    set: (t, k, v) => {
      t[k as string] = v;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
  (g as unknown as { globalAlpha: number }).globalAlpha = 1;
  return { g, calls, depth: () => depth };
}

describe('painters', () => {
  it('paint every kind, pattern, rotation and level of detail with balanced state', async () => {
    const { paintShape } = await import('./painters');
    const { DEFAULT_PAINT_CONTEXT } = await import('./theme');
    const shapes: ShapeRecord[] = [
      {
        ...base,
        kind: 'pen',
        x: 0,
        y: 0,
        points: packPoints([0, 0, 10, 10, 20, 5]),
        pressures: new Uint8Array([10, 100, 200]),
      },
      ...['pen', 'dashed', 'dotted', 'marker', 'highlighter'].map(
        (linePattern) =>
          ({ ...base, kind: 'pen', x: 0, y: 0, linePattern, points: packPoints([0, 0, 30, 30]) }) as ShapeRecord,
      ),
      { ...base, kind: 'line', x: 0, y: 0, arrowStart: true, arrowEnd: true, points: packPoints([0, 0, 100, 0]) },
      {
        ...base,
        kind: 'connector',
        x: 0,
        y: 0,
        fromId: null,
        toId: null,
        elbow: true,
        arrowEnd: true,
        points: packPoints([0, 0, 100, 50]),
      },
      {
        ...base,
        kind: 'polyline',
        x: 0,
        y: 0,
        closed: true,
        fillColor: 0xff0000,
        fill: 'semi',
        points: packPoints([0, 0, 50, 0, 0, 50]),
      },
      { ...base, kind: 'curve', x: 0, y: 0, closed: true, points: packPoints([0, 0, 50, 0, 0, 50]) },
      { ...base, kind: 'arc', x: 0, y: 0, r: 20, startAngle: 0, endAngle: 3 },
      ...(['rectangle', 'ellipse', 'triangle', 'diamond', 'star', 'hexagon', 'arrow'] as const).map(
        (shapeType) =>
          ({
            ...base,
            kind: 'shape',
            shapeType,
            x: 0,
            y: 0,
            w: 80,
            h: 60,
            fillColor: 0x00ff00,
            text: 'label',
            rotation: 0.3,
            opacity: 0.5,
          }) as ShapeRecord,
      ),
      { ...base, kind: 'sticky', x: 0, y: 0, w: 100, h: 100, text: 'x'.repeat(3000), color: 0x222222 },
      { ...base, kind: 'text', x: 0, y: 0, w: 100, text: 'hello world', font: 'Open Sans', fontSize: 16, color: 0 },
      { ...base, kind: 'formula', x: 0, y: 0, latex: 'x^2', fontSize: 20, color: 0, alignment: 'left' },
      { ...base, kind: 'graph', x: 0, y: 0, w: 100, h: 100, spec: '{}' },
    ];
    for (const zoom of [1, 0.1, 0.001])
      for (const theme of ['light', 'dark'] as const)
        for (const s of shapes) {
          const r = recorder();
          paintShape(r.g, s, { ...DEFAULT_PAINT_CONTEXT, theme, zoom });
          expect([s.kind, r.calls.length > 0, r.depth()]).toEqual([s.kind, true, 0]);
        }
    // a tiny shape is one fillRect; small text is bars, not glyphs
    const dot = recorder();
    paintShape(dot.g, shapes[6]!, { ...DEFAULT_PAINT_CONTEXT, zoom: 0.001 });
    expect(dot.calls).toEqual(['fillRect']);
    const bars = recorder();
    paintShape(bars.g, shapes.at(-3)!, { ...DEFAULT_PAINT_CONTEXT, zoom: 0.2 });
    expect(bars.calls).toContain('fillRect');
    expect(bars.calls).not.toContain('fillText');
  });
});

describe('image cache', () => {
  it('decodes one image at a time and tells every asker once it settles', async () => {
    const { ImageCache, imageUrl, documentPageUrl } = await import('./imageCache');
    expect(imageUrl('f1')).toBe('/images/f1-full.webp');
    expect(documentPageUrl('f2', 3)).toBe('/docs/f2-3-full.webp');
    const started: string[] = [];
    const finish: Array<(ok: boolean) => void> = [];
    const cache = new ImageCache(
      (url) =>
        new Promise((resolve, reject) => {
          started.push(url);
          finish.push((ok) => (ok ? resolve({} as HTMLImageElement) : reject(new Error('broken'))));
        }),
    );
    let told = 0;
    expect(cache.get('/a', () => told++).state).toBe('loading');
    cache.get('/a', () => told++);
    cache.get('/b', () => told++);
    expect(started).toEqual(['/a']); // concurrency 1
    finish[0]!(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.get('/a').state).toBe('ready');
    expect(told).toBe(2);
    expect(started).toEqual(['/a', '/b']);
    finish[1]!(false);
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.get('/b').state).toBe('error');
    expect(told).toBe(3);
    expect(cache.pending).toBe(0);
  });
});
