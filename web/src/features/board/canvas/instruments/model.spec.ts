/// <reference types="jest" />
/**
 * The instruments' geometry: ruler edges and hits, protractor readings, compass sweeps, units.
 */
import { ADAPTIVE_BASE, GRAPH_MINOR, SQUARE } from '../background';
import {
  accumulateSweep,
  compassArc,
  compassPencil,
  formatUnits,
  gridUnit,
  hitCompass,
  hitProtractor,
  hitRuler,
  isFullCircle,
  projectToEdge,
  projectToRulerEdge,
  protractorReading,
  RULER_SNAP_PX,
  rulerHandles,
  rulerReading,
  rulerWidth,
  snapAngleTo,
  TAU,
  toUnits,
  type Compass,
  type Ruler,
} from './model';

const deg = (d: number) => (d * Math.PI) / 180;
/** a 320-long ruler (width 40) from (100, 100), along +x */
const flat: Ruler = { x: 100, y: 100, angle: 0, length: 320 };

describe('units', () => {
  it('one unit is the background’s base grid spacing, the adaptive base on plain boards', () => {
    expect(gridUnit('graphGrid')).toBe(GRAPH_MINOR);
    expect(gridUnit('squares')).toBe(SQUARE);
    expect(gridUnit('adaptiveGrid')).toBe(ADAPTIVE_BASE);
    expect(gridUnit('empty')).toBe(ADAPTIVE_BASE);
  });
  it('lengths in grid units with one decimal', () => {
    expect(toUnits(100, 20)).toBe(5);
    expect(toUnits(33, 20)).toBe(1.7);
    expect(formatUnits(100, 20)).toBe('5.0');
    expect(formatUnits(47, 32)).toBe('1.5');
  });
});

describe('ruler', () => {
  it('projects a point near either long edge onto it, within the snap distance on screen', () => {
    expect(rulerWidth(flat)).toBe(40);
    // 5 world above the measuring edge: snaps onto it
    expect(projectToRulerEdge({ x: 150, y: 95 }, flat, 1)).toEqual({ x: 150, y: 100, edge: 0 });
    // just inside the body near the far edge (y = 140)
    expect(projectToRulerEdge({ x: 200, y: 136 }, flat, 1)).toEqual({ x: 200, y: 140, edge: 1 });
    // beyond the snap distance: no snapping; at zoom 2 the same world distance is twice as far on screen
    const off = 100 - (RULER_SNAP_PX + 1);
    expect(projectToRulerEdge({ x: 150, y: off }, flat, 1)).toBeNull();
    expect(projectToRulerEdge({ x: 150, y: 100 - RULER_SNAP_PX * 0.75 }, flat, 2)).toBeNull();
    expect(projectToRulerEdge({ x: 150, y: 100 - RULER_SNAP_PX * 0.75 }, flat, 1)).not.toBeNull();
    // past the ends: not beside the ruler
    expect(projectToRulerEdge({ x: 90, y: 100 }, flat, 1)).toBeNull();
    expect(projectToRulerEdge({ x: 430, y: 100 }, flat, 1)).toBeNull();
  });

  it('works for a turned ruler, and a pen point keeps to its edge, clamped to the ends', () => {
    const r: Ruler = { x: 0, y: 0, angle: deg(90), length: 100 }; // edge along +y, body towards −x
    const p = projectToRulerEdge({ x: 3, y: 50 }, r, 1)!;
    expect(p.edge).toBe(0);
    expect(p.x).toBeCloseTo(0, 9);
    expect(p.y).toBeCloseTo(50, 9);
    const far = projectToRulerEdge({ x: -12, y: 20 }, r, 1)!;
    expect(far.edge).toBe(1);
    expect(far.x).toBeCloseTo(-12.5, 9);
    // the pen wanders: still on the edge, never past the ends
    const q = projectToEdge({ x: 40, y: 500 }, r, 0);
    expect(q.x).toBeCloseTo(0, 9);
    expect(q.y).toBeCloseTo(100, 9);
    expect(rulerReading({ x: 7, y: 42 }, r)).toBeCloseTo(42, 9);
  });

  it('hits its handles (fixed size on screen) before its body', () => {
    const h = rulerHandles(flat, 1);
    expect(h.rotate.x).toBeGreaterThan(420);
    expect(h.close.x).toBeLessThan(100);
    expect(hitRuler(h.rotate, flat, 1)).toBe('rotate');
    expect(hitRuler(h.close, flat, 1)).toBe('close');
    expect(hitRuler({ x: 250, y: 120 }, flat, 1)).toBe('body');
    expect(hitRuler({ x: 250, y: 200 }, flat, 1)).toBeNull();
    // zoomed out 4×, the handles sit 4× further out in world units
    expect(rulerHandles(flat, 0.25).rotate.x - 420).toBeCloseTo((h.rotate.x - 420) * 4, 9);
  });
});

describe('protractor', () => {
  const q = { x: 0, y: 0, angle: 0, radius: 100 };
  it('reads 0–180° from the baseline’s 0 end, mirrored below the baseline', () => {
    expect(protractorReading({ x: 50, y: 0 }, q)).toBe(0);
    expect(protractorReading({ x: 0, y: -50 }, q)).toBeCloseTo(90, 9);
    expect(protractorReading({ x: -50, y: 0 }, q)).toBeCloseTo(180, 9);
    expect(protractorReading({ x: 50, y: -50 }, q)).toBeCloseTo(45, 9);
    expect(protractorReading({ x: 50, y: 50 }, q)).toBeCloseTo(45, 9);
    expect(protractorReading({ x: 0, y: 0 }, q)).toBe(0);
  });
  it('reads relative to a turned baseline', () => {
    const turned = { ...q, angle: deg(30) };
    const p = { x: Math.cos(deg(100)), y: Math.sin(deg(100)) };
    expect(protractorReading(p, turned)).toBeCloseTo(70, 9);
  });
  it('its body is the half disc above the baseline', () => {
    expect(hitProtractor({ x: 0, y: -60 }, q, 1)).toBe('body');
    expect(hitProtractor({ x: 0, y: 60 }, q, 1)).toBeNull();
    expect(hitProtractor({ x: 0, y: -130 }, q, 1)).toBeNull();
    expect(hitProtractor({ x: 122, y: 0 }, q, 1)).toBe('rotate');
    expect(hitProtractor({ x: -122, y: 0 }, q, 1)).toBe('close');
  });
});

describe('compass sweep', () => {
  /** turn from 0 through the given angles (degrees), as pointer moves would */
  const sweepThrough = (...angles: number[]) => {
    let sweep = 0;
    let last = 0;
    for (const a of angles) {
      sweep = accumulateSweep(sweep, last, Math.atan2(Math.sin(deg(a)), Math.cos(deg(a))));
      last = Math.atan2(Math.sin(deg(a)), Math.cos(deg(a)));
    }
    return sweep;
  };

  it('accumulates past a half turn and across the ±π seam, both ways', () => {
    expect(sweepThrough(90, 179, 181, 270)).toBeCloseTo(deg(270), 9);
    expect(sweepThrough(-90, -179, -181, -270)).toBeCloseTo(-deg(270), 9);
    // turning back undoes
    expect(sweepThrough(90, 200, 90, 10)).toBeCloseTo(deg(10), 9);
  });

  it('a full turn or more is a circle stored as 0…2π', () => {
    const sweep = sweepThrough(90, 180, 270, 359, 10, 100);
    expect(sweep).toBe(TAU);
    expect(isFullCircle(sweep)).toBe(true);
    expect(compassArc({ cx: 0, cy: 0, radius: 5, startAngle: 1.2, sweep })).toEqual({ startAngle: 0, endAngle: TAU });
    expect(isFullCircle(sweepThrough(-90, -180, -270, -360))).toBe(true);
    expect(isFullCircle(deg(350))).toBe(false);
  });

  it('an arc runs from the start by the sweep (backwards: endAngle < startAngle), start in 0…2π', () => {
    expect(compassArc({ cx: 0, cy: 0, radius: 5, startAngle: deg(30), sweep: deg(60) })).toEqual({
      startAngle: deg(30),
      endAngle: deg(90),
    });
    const back = compassArc({ cx: 0, cy: 0, radius: 5, startAngle: -deg(90), sweep: -deg(45) });
    expect(back.startAngle).toBeCloseTo(deg(270), 9);
    expect(back.endAngle).toBeCloseTo(deg(225), 9);
  });

  it('the pencil is where the sweep took it; needle and pencil are grabbable', () => {
    const c: Compass = { cx: 10, cy: 10, radius: 100, startAngle: 0, sweep: deg(90) };
    const pencil = compassPencil(c);
    expect(pencil.x).toBeCloseTo(10, 9);
    expect(pencil.y).toBeCloseTo(110, 9);
    expect(hitCompass(pencil, c, 1)).toBe('pencil');
    expect(hitCompass({ x: 12, y: 9 }, c, 1)).toBe('needle');
    expect(hitCompass({ x: 60, y: 60 }, c, 1)).toBeNull();
  });

  it('Shift turns in 15° steps', () => {
    expect(snapAngleTo(deg(22))).toBeCloseTo(deg(15), 9);
    expect(snapAngleTo(deg(23))).toBeCloseTo(deg(30), 9);
  });
});
