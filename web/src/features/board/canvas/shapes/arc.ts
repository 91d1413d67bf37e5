/**
 * An arc (`arc`): a circle's arc about x, y (the compass draws them) of radius r from startAngle
 * to endAngle (radians; the sweep's sign is its direction). Resizing keeps it circular.
 */
import type { ArcShape } from '@wb/proto';
import { drawnStrokeWidth, num, pathGeometry } from './shared/geometry';
import { applyPattern, cacheOf, newPath, strokeInk } from './shared/paint';
import { dominant } from './shared/resize';
import { arcD, strokeOf } from './shared/vector';
import type { ShapeUtil } from './types';

/** arc points relative to the centre (x, y); the sweep goes from startAngle to endAngle */
export function arcPoints(r: number, startAngle: number, endAngle: number): Float32Array {
  let sweep = endAngle - startAngle;
  if (Math.abs(sweep) > 2 * Math.PI) sweep = Math.sign(sweep) * 2 * Math.PI;
  const steps = Math.max(2, Math.ceil((Math.abs(sweep) / (2 * Math.PI)) * 64));
  const out = new Float32Array((steps + 1) * 2);
  for (let i = 0; i <= steps; i++) {
    const a = startAngle + (sweep * i) / steps;
    out[2 * i] = Math.cos(a) * r;
    out[2 * i + 1] = Math.sin(a) * r;
  }
  return out;
}

export const arcUtil: ShapeUtil<ArcShape> = {
  kind: 'arc',
  geometry: (shape) =>
    pathGeometry(
      shape,
      arcPoints(num(shape.r), num(shape.startAngle), num(shape.endAngle)),
      false,
      drawnStrokeWidth(shape) / 2,
    ),

  paint(g, item, ctx) {
    const shape = item.shape as ArcShape;
    const cache = cacheOf(item);
    if (!cache.path) {
      const p = newPath();
      const r = Math.max(0, shape.r);
      p.arc(shape.x, shape.y, r, shape.startAngle, shape.endAngle, shape.endAngle < shape.startAngle);
      cache.path = p;
    }
    const saved = applyPattern(g, shape, ctx, drawnStrokeWidth(shape));
    g.strokeStyle = strokeInk(shape, ctx);
    g.stroke(cache.path);
    if (saved) g.restore();
  },

  dotColor: strokeInk,

  vector(item, ctx) {
    const shape = item.shape as ArcShape;
    const d = arcD(shape.x, shape.y, Math.max(0, num(shape.r)), num(shape.startAngle), num(shape.endAngle));
    return [{ t: 'path', d, fill: null, ...strokeOf(shape, ctx, drawnStrokeWidth(shape)) }];
  },

  resize(shape, m) {
    const k = dominant(m.lx, m.ly);
    return { ...shape, x: m.ncx - (m.cx - shape.x) * k, y: m.ncy - (m.cy - shape.y) * k, r: shape.r * k };
  },
  style: { stroke: true, fill: false },
};
