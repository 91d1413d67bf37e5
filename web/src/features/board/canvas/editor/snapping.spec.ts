/// <reference types="jest" />
/** Snapping math: shape edges and centres, the grid, tolerance, guides, drawing. */
import { drawGuides, snapBox, snapPoint, type SnapContext } from './snapping';

const r = (minX: number, minY: number, maxX: number, maxY: number) => ({ minX, minY, maxX, maxY });

describe('snapping', () => {
  const other = r(100, 100, 200, 150);
  const ctx: SnapContext = { grid: null, candidates: [other], tolerance: 6 };

  it('snaps a box edge to another shape edge within the tolerance, with a guide spanning both', () => {
    // left edge 203 → 200 (the other's right edge), nothing to snap on y
    const s = snapBox(r(203, 300, 253, 340), ctx);
    expect(s.dx).toBe(-3);
    expect(s.dy).toBe(0);
    expect(s.guides).toEqual([{ axis: 'x', at: 200, from: 100, to: 340 }]);
  });

  it('snaps centres and picks the nearest line on each axis', () => {
    // centre x 148 → 150 (2 away), top 104 → 100 (4 away)
    const s = snapBox(r(128, 104, 168, 134), ctx);
    expect(s.dx).toBe(2);
    expect(s.dy).toBe(-4);
    expect(s.guides).toEqual(
      expect.arrayContaining([
        { axis: 'x', at: 150, from: 100, to: 150 },
        { axis: 'y', at: 100, from: 100, to: 200 },
      ]),
    );
  });

  it('does not snap beyond the tolerance', () => {
    expect(snapBox(r(210, 300, 250, 340), ctx)).toEqual({ dx: 0, dy: 0, guides: [] });
  });

  it('snaps to the grid (no guide) and prefers a shape line at equal distance', () => {
    const grid: SnapContext = { grid: 24, candidates: [], tolerance: 6 };
    expect(snapBox(r(50, 70, 60, 80), grid)).toEqual({ dx: -2, dy: 2, guides: [] });
    // x: grid 48 is 2 away, a shape edge at 52 also 2 away → the shape wins with a guide
    const both: SnapContext = { grid: 24, candidates: [r(52, 500, 60, 520)], tolerance: 6 };
    const s = snapBox(r(50, 70, 50, 70), both);
    expect(s.dx).toBe(2);
    expect(s.guides[0]).toMatchObject({ axis: 'x', at: 52 });
  });

  it('snaps points', () => {
    const s = snapPoint({ x: 197, y: 152 }, ctx);
    expect(s.point).toEqual({ x: 200, y: 150 });
    expect(s.guides).toHaveLength(2);
  });

  it('draws guides as lines one screen pixel wide', () => {
    const calls: string[] = [];
    const g = {
      save: () => calls.push('save'),
      restore: () => calls.push('restore'),
      beginPath: () => undefined,
      setLineDash: () => undefined,
      moveTo: (x: number, y: number) => calls.push(`M${x},${y}`),
      lineTo: (x: number, y: number) => calls.push(`L${x},${y}`),
      stroke: () => calls.push('stroke'),
      lineWidth: 0,
      strokeStyle: '',
    } as unknown as CanvasRenderingContext2D;
    drawGuides(
      g,
      [
        { axis: 'x', at: 5, from: 0, to: 10 },
        { axis: 'y', at: 7, from: 1, to: 2 },
      ],
      2,
    );
    expect(calls).toEqual(['save', 'M5,0', 'L5,10', 'M1,7', 'L2,7', 'stroke', 'restore']);
    expect(g.lineWidth).toBe(0.5);
  });
});
