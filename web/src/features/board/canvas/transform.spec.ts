/**
 * @jest-environment node
 */
/// <reference types="jest" />
/** Move, resize and rotate return valid records; resize and rotate round-trip. */
import { packPoints, unpackPoints, validateShapeRecord } from '@wb/proto';
import type { ShapeRecord } from '@wb/proto';
import type { Rect } from './camera';
import { localBox, shapeBounds } from './geometry';
import { normalizeAngle, resizeShape, rotateShape, translateShape } from './transform';

const base = { id: 'x1', creator: 3, z: 'a0' };
const SAMPLES: ShapeRecord[] = [
  {
    ...base,
    kind: 'pen',
    x: 10,
    y: 20,
    strokeWidth: 3,
    points: packPoints([0, 0, 10, 5, 40, 30]),
    pressures: new Uint8Array([10, 200, 90]),
  },
  { ...base, kind: 'line', x: 0, y: 0, points: packPoints([0, 0, 100, 50]), arrowEnd: true },
  { ...base, kind: 'arc', x: 50, y: 50, r: 30, startAngle: 0, endAngle: Math.PI },
  { ...base, kind: 'polyline', x: 5, y: 5, points: packPoints([0, 0, 50, 0, 50, 50]), closed: true },
  { ...base, kind: 'curve', x: 5, y: 5, points: packPoints([0, 0, 50, 20, 100, 0]) },
  { ...base, kind: 'connector', x: 0, y: 0, points: packPoints([0, 0, 80, 60]), fromId: 'a', toId: null, elbow: true },
  {
    ...base,
    kind: 'shape',
    shapeType: 'star',
    x: 100,
    y: 100,
    w: 80,
    h: 60,
    fillColor: 0xff0000,
    fill: 'semi',
    text: 'hi',
  },
  { ...base, kind: 'sticky', x: 0, y: 0, w: 200, h: 200, text: 'note', color: 0xfff59d },
  { ...base, kind: 'text', x: 0, y: 0, w: 150, text: 'hello there', font: 'Open Sans', fontSize: 16, color: 0 },
  { ...base, kind: 'formula', x: 0, y: 0, latex: 'e^{i\\pi}+1=0', fontSize: 20, color: 0, alignment: 'equation' },
  { ...base, kind: 'graph', x: 0, y: 0, w: 300, h: 200, spec: '{"e":[]}' },
  { ...base, kind: 'image', x: 0, y: 0, w: 300, h: 200, fileId: 'f1' },
  { ...base, kind: 'documentPage', x: 0, y: 0, w: 300, h: 400, fileId: 'f2', page: 2 },
  // a formula with its rendered size stored: resizing scales w/h with the font
  {
    ...base,
    kind: 'formula',
    x: 0,
    y: 40,
    latex: '\\frac{a}{b}',
    fontSize: 20,
    color: 0,
    alignment: 'equation',
    w: 44,
    h: 52,
  },
];

const boxRect = (s: ShapeRecord): Rect => {
  const b = localBox(s);
  return { minX: b.x, minY: b.y, maxX: b.x + b.w, maxY: b.y + b.h };
};
const close = (a: number, b: number, eps = 0.51) => Math.abs(a - b) <= eps;

describe('transforms', () => {
  it('every result is a valid record', () => {
    for (const s of SAMPLES) {
      const from = boxRect(s);
      const outs = [
        translateShape(s, 12.5, -40),
        resizeShape(s, from, {
          minX: from.minX - 20,
          minY: from.minY + 10,
          maxX: from.maxX * 2 + 5,
          maxY: from.maxY * 1.5 + 3,
        }),
        resizeShape(s, from, { minX: from.maxX, minY: from.maxY, maxX: from.minX, maxY: from.minY }), // inverted: clamped
        rotateShape(s, { x: 0, y: 0 }, 1.2),
        rotateShape(rotateShape(s, { x: 10, y: 10 }, 3), { x: 10, y: 10 }, 3),
      ];
      for (const o of outs) expect([s.kind, validateShapeRecord(o)]).toEqual([s.kind, null]);
    }
  });

  it('resize there and back returns the shape (points within their grid)', () => {
    for (const s of SAMPLES) {
      const from = boxRect(s);
      const to = {
        minX: from.minX + 30,
        minY: from.minY - 20,
        maxX: from.minX + 30 + (from.maxX - from.minX) * 2,
        maxY: from.minY - 20 + (from.maxY - from.minY) * 2,
      };
      const back = resizeShape(resizeShape(s, from, to), to, from);
      expect([s.kind, close(back.x, s.x), close(back.y, s.y)]).toEqual([s.kind, true, true]);
      const b1 = localBox(s);
      const b2 = localBox(back);
      expect([s.kind, close(b1.w, b2.w, 1), close(b1.h, b2.h, 1)]).toEqual([s.kind, true, true]);
      if ('points' in s) {
        const p1 = unpackPoints(s.points);
        const p2 = unpackPoints((back as typeof s).points);
        expect(p2.length).toBe(p1.length);
        p1.forEach((v, i) => expect(Math.abs(v - p2[i]!)).toBeLessThanOrEqual(0.5));
      }
    }
  });

  it('resizing a formula scales its font and its stored rendered size together', () => {
    const f = SAMPLES.at(-1)!;
    const from = boxRect(f);
    const to = { minX: from.minX, minY: from.minY, maxX: from.maxX * 2, maxY: from.minY + (from.maxY - from.minY) * 2 };
    expect(resizeShape(f, from, to)).toMatchObject({ kind: 'formula', fontSize: 40, w: 88, h: 104 });
  });

  it('resize maps the box: doubling a rectangle, scaling a stroke, text font and sticky proportions', () => {
    const rect = SAMPLES[6]!;
    const r2 = resizeShape(
      rect,
      { minX: 100, minY: 100, maxX: 180, maxY: 160 },
      { minX: 0, minY: 0, maxX: 160, maxY: 120 },
    );
    expect(r2).toMatchObject({ x: 0, y: 0, w: 160, h: 120 });
    const line = SAMPLES[1]!;
    const l2 = resizeShape(
      line,
      { minX: 0, minY: 0, maxX: 100, maxY: 50 },
      { minX: 10, minY: 10, maxX: 60, maxY: 110 },
    );
    expect(l2.x).toBeCloseTo(10);
    expect(Array.from(unpackPoints((l2 as typeof line & { points: Uint8Array }).points))).toEqual([0, 0, 50, 100]);
    const text = SAMPLES[8] as Extract<ShapeRecord, { kind: 'text' }>;
    const tb = boxRect(text);
    const t2 = resizeShape(text, tb, {
      minX: tb.minX,
      minY: tb.minY,
      maxX: tb.minX + (tb.maxX - tb.minX) * 2,
      maxY: tb.minY + (tb.maxY - tb.minY) * 2,
    });
    expect(t2.fontSize).toBeCloseTo(32);
    expect(t2.w).toBeCloseTo(300);
    const sticky = SAMPLES[7] as Extract<ShapeRecord, { kind: 'sticky' }>;
    const s2 = resizeShape(
      sticky,
      { minX: 0, minY: 0, maxX: 200, maxY: 200 },
      { minX: 0, minY: 0, maxX: 300, maxY: 200 },
    );
    expect(s2.w / s2.h).toBeCloseTo(1);
  });

  it('rotate: rotation adds up, the box centre turns about the centre, a full turn returns', () => {
    const rect = SAMPLES[6]!;
    const r = rotateShape(rect, { x: 0, y: 0 }, Math.PI / 2);
    expect(r.rotation).toBeCloseTo(Math.PI / 2);
    // centre (140, 130) → (−130, 140)
    const b = localBox(r);
    expect(b.x + b.w / 2).toBeCloseTo(-130);
    expect(b.y + b.h / 2).toBeCloseTo(140);
    let s: ShapeRecord = SAMPLES[0]!;
    for (let i = 0; i < 4; i++) s = rotateShape(s, { x: 300, y: -50 }, Math.PI / 2);
    expect(s.x).toBeCloseTo(SAMPLES[0]!.x);
    expect(s.y).toBeCloseTo(SAMPLES[0]!.y);
    expect(normalizeAngle(s.rotation!)).toBeCloseTo(0);
    // rotating about its own centre keeps the bounds' centre
    const own = rotateShape(rect, { x: 140, y: 130 }, 0.7);
    const ob = shapeBounds(own);
    expect((ob.minX + ob.maxX) / 2).toBeCloseTo(140);
  });
});
