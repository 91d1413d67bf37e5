/**
 * How each shape kind is drawn on a Canvas2D context (world transform already set). Later tools
 * add their kind here; a kind without a painter is drawn as its outline so it is never invisible.
 */
import type { ShapeKind } from '@wb/proto';
import { cssColor } from './geometry';
import type { SceneItem } from './scene';

export type Painter = (g: CanvasRenderingContext2D, item: SceneItem) => void;

function strokePath(points: ArrayLike<number>): Path2D {
  const p = new Path2D();
  if (points.length < 2) return p;
  p.moveTo(points[0]!, points[1]!);
  if (points.length === 2) p.lineTo(points[0]! + 0.01, points[1]!); // a dot
  for (let i = 2; i + 1 < points.length; i += 2) p.lineTo(points[i]!, points[i + 1]!);
  return p;
}

/** draw a freehand polyline (committed or in progress) in world coordinates */
export function drawStroke(g: CanvasRenderingContext2D, points: ArrayLike<number>, color: string, width: number): void {
  g.strokeStyle = color;
  g.lineWidth = width;
  g.lineCap = 'round';
  g.lineJoin = 'round';
  g.stroke(strokePath(points));
}

const pen: Painter = (g, item) => {
  const { shape } = item;
  if (!(item.path instanceof Path2D)) item.path = strokePath(item.points);
  g.save();
  g.translate(shape.x, shape.y);
  g.globalAlpha = shape.opacity ?? 1;
  g.strokeStyle = cssColor(shape.strokeColor);
  g.lineWidth = shape.strokeWidth ?? 3;
  g.lineCap = 'round';
  g.lineJoin = 'round';
  g.stroke(item.path as Path2D);
  g.restore();
};

const outline: Painter = (g, item) => {
  const b = item.bounds;
  g.save();
  g.setLineDash([4, 4]);
  g.strokeStyle = '#888888';
  g.lineWidth = 1;
  g.strokeRect(b.minX, b.minY, b.maxX - b.minX, b.maxY - b.minY);
  g.restore();
};

export const PAINTERS: Partial<Record<ShapeKind, Painter>> = { pen };

export function paintItem(g: CanvasRenderingContext2D, item: SceneItem): void {
  (PAINTERS[item.shape.kind] ?? outline)(g, item);
}
