/// <reference types="jest" />
/**
 * Sticky-note and label text (issue 26 #3): the text shrinks until every word fits whole; a word
 * breaks between characters only when it alone is wider than the box at the smallest size. The
 * painters and the vector exports draw the lines this one layout gives. (jsdom: every character is
 * estimated at 0.55 em, so widths are exact here.)
 */
import { rec } from '../export/exportTesting';
import { exportPaint, shapeDrawing } from '../export/vector';
import { paintItem } from './painters';
import { makeItem } from './scene';
import { fitFontSize, fitText, layoutText, shapeLabelText, stickyText, STICKY_PAD } from './textLayout';

const HOMEWORK = 'Homework: p. 42';
/** a 200 × 200 note's text box */
const INNER = 200 * (1 - 2 * STICKY_PAD);

/** every word of the text is whole on some line, in order */
const wordsWhole = (lines: readonly string[], text: string) =>
  expect(lines.flatMap((l) => l.split(/\s+/)).filter(Boolean)).toEqual(text.split(/\s+/).filter(Boolean));

describe('fitted text', () => {
  it('shrinks a note until its words fit whole ("Homework:" is never "Homew / ork:")', () => {
    const size = fitFontSize(HOMEWORK, 'sans-serif', INNER, INNER, 10, 48);
    const { lines } = layoutText(HOMEWORK, 'sans-serif', size, INNER);
    expect(lines).toEqual(['Homework:', 'p. 42']);
    // as large as that allows: "Homework:" (9 characters × 0.55 em) just fits the box
    expect(size).toBeLessThanOrEqual(INNER / (9 * 0.55));
    expect(size).toBeGreaterThan(INNER / (9 * 0.55) - 0.5);
  });

  it('keeps the largest size when everything fits whole', () => {
    const f = fitText('Hi', 'sans-serif', INNER, INNER, 10, 48);
    expect(f.fontSize).toBe(48);
    expect(f.layout.lines).toEqual(['Hi']);
    expect(f.overflows).toBe(false);
  });

  it('wraps a longer note at word boundaries, within the box', () => {
    const text = 'Read chapter seven and answer the questions at the end';
    const f = fitText(text, 'sans-serif', INNER, INNER, 10, 48);
    expect(f.layout.broken).toBe(false);
    wordsWhole(f.layout.lines, text);
    expect(f.layout.height).toBeLessThanOrEqual(INNER);
    expect(f.layout.width).toBeLessThanOrEqual(INNER + 0.5);
    expect(f.fontSize).toBeGreaterThan(10);
  });

  it('breaks inside a word only when that word alone cannot fit at the smallest size', () => {
    const long = 'Pneumonoultramicroscopicsilicovolcanoconiosis';
    const f = fitText(`a ${long}`, 'sans-serif', 100, 100, 10, 48);
    expect(f.fontSize).toBe(10);
    expect(f.layout.broken).toBe(true);
    expect(f.layout.lines[0]).toBe('a');
    expect(f.layout.lines.slice(1).join('')).toBe(long);
    // too much text for the box even at the smallest size: the smallest size, overflowing, words whole
    const many = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    const over = fitText(many, 'sans-serif', 100, 100, 10, 48);
    expect(over.fontSize).toBe(10);
    expect(over.overflows).toBe(true);
    expect(over.layout.broken).toBe(false);
  });

  it('sticky notes are inset by STICKY_PAD, shape labels use the inner 80 %', () => {
    const s = stickyText(HOMEWORK, 'sans-serif', 10, 20, 200, 200);
    expect(s.box).toEqual({ x: 10 + 16, y: 20 + 16, w: INNER, h: INNER });
    expect(s.layout.lines).toEqual(['Homework:', 'p. 42']);
    const l = shapeLabelText('Photosynthesis happens', 'sans-serif', 0, 0, 100, 60);
    expect(l.box).toEqual({ x: 10, y: 6, w: 80, h: 48 });
    expect(l.layout.lines).toEqual(['Photosynthesis', 'happens']);
    expect(l.layout.broken).toBe(false);
  });
});

/** the strings a painter writes with fillText */
function paintedText(shape: ReturnType<typeof rec.sticky>): string[] {
  const out: string[] = [];
  const g = new Proxy(
    {},
    {
      get: (_, key) => (key === 'fillText' ? (s: string) => out.push(s) : () => undefined),
      set: () => true,
    },
  ) as CanvasRenderingContext2D;
  paintItem(g, makeItem(shape));
  return out;
}

describe('the screen and the exports draw the same lines', () => {
  const ctx = { paint: exportPaint('empty', false) };
  const exported = (shape: ReturnType<typeof rec.sticky>) =>
    shapeDrawing(makeItem(shape), ctx).prims.flatMap((p) =>
      p.t === 'text' ? p.lines : p.t === 'clip' ? p.prims.flatMap((q) => (q.t === 'text' ? q.lines : [])) : [],
    );

  it('a sticky note', () => {
    const note = rec.sticky(HOMEWORK, { x: 0, y: 0, w: 200, h: 200 });
    expect(paintedText(note)).toEqual(['Homework:', 'p. 42']);
    expect(exported(note)).toEqual(['Homework:', 'p. 42']);
  });

  it("a rectangle's label", () => {
    const shape = rec.shape({ w: 160, h: 90, text: 'Homework: p. 42', fill: 'solid', fillColor: 0xffffff });
    const painted = paintedText(shape);
    expect(exported(shape)).toEqual(painted);
    wordsWhole(painted, 'Homework: p. 42');
  });
});
