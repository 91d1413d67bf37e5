/**
 * A geometric shape (`shape`): one of proto's GEOMETRIC_SHAPES (rectangle, ellipse, triangle,
 * diamond, star, hexagon, block arrow) in a w × h box, stroked, optionally filled, with an
 * optional label (collaborative text, fitted into the inner 80 %: textLayout.shapeLabelText). A
 * labelled shape is solid: a click anywhere inside it hits it, whatever its fill.
 */
import type { GeometricShape } from '@wb/proto';
import { inkColor, stickyTextColor } from '../theme';
import { shapeLabelText } from '../textLayout';
import {
  cachedGeometry,
  cssColor,
  drawnStrokeWidth,
  isFilled,
  num,
  pointInPolygon,
  str,
  type ShapeGeometry,
} from './shared/geometry';
import { applyPattern, cacheOf, centredText, fillStyleOf, newPath, polyPath, SANS, strokeInk } from './shared/paint';
import { resizeStoredBox } from './shared/resize';
import { centredTextPrim, ellipseD, fillOf, polyD, strokeOf, textValue, type Prim } from './shared/vector';
import type { ShapeUtil } from './types';

/**
 * The outline of a geometric shape in its box (0…w, 0…h) as [x0, y0, x1, y1, …] (closed: the
 * last point connects to the first). Ellipses are sampled; painters use it for the polygons.
 */
export function shapeOutline(shapeType: string, w: number, h: number): number[] {
  switch (shapeType) {
    case 'ellipse': {
      const out: number[] = [];
      const n = 64;
      for (let i = 0; i < n; i++) {
        const a = (i / n) * 2 * Math.PI;
        out.push(w / 2 + (Math.cos(a) * w) / 2, h / 2 + (Math.sin(a) * h) / 2);
      }
      return out;
    }
    case 'triangle':
      return [w / 2, 0, w, h, 0, h];
    case 'diamond':
      return [w / 2, 0, w, h / 2, w / 2, h, 0, h / 2];
    case 'star': {
      const out: number[] = [];
      const inner = 0.4;
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const k = i % 2 === 0 ? 1 : inner;
        out.push(w / 2 + (Math.cos(a) * w * k) / 2, h / 2 + (Math.sin(a) * h * k) / 2);
      }
      return out;
    }
    case 'hexagon':
      return [w / 4, 0, (3 * w) / 4, 0, w, h / 2, (3 * w) / 4, h, w / 4, h, 0, h / 2];
    case 'arrow': {
      // a block arrow pointing right: shaft half as high as the box, head at most as long as it is high
      const head = Math.min(w * 0.5, h);
      const hx = w - head;
      return [0, h / 4, hx, h / 4, hx, 0, w, h / 2, hx, h, hx, (3 * h) / 4, 0, (3 * h) / 4];
    }
    default:
      return [0, 0, w, 0, w, h, 0, h];
  }
}

function geometry(shape: GeometricShape): ShapeGeometry {
  const w = num(shape.w);
  const h = num(shape.h);
  return {
    box: { x: shape.x, y: shape.y, w, h, rotation: num(shape.rotation) },
    path: null,
    closed: true,
    outline: shapeOutline(shape.shapeType, w, h),
    reach: (shape.strokeWidth ?? 2) / 2,
  };
}

const hasLabel = (shape: GeometricShape): boolean => str(shape.text).trim() !== '';

export const shapeUtil: ShapeUtil<GeometricShape> = {
  kind: 'shape',
  geometry,
  solid: (shape) => isFilled(shape) || hasLabel(shape),

  insideOutline(shape, p, box) {
    if (shape.shapeType === 'ellipse') {
      const rx = box.w / 2;
      const ry = box.h / 2;
      if (rx <= 0 || ry <= 0) return false;
      const dx = (p.x - rx) / rx;
      const dy = (p.y - ry) / ry;
      return dx * dx + dy * dy <= 1;
    }
    return pointInPolygon(p, cachedGeometry(shape, undefined, geometry).outline!);
  },

  paint(g, item, ctx) {
    const shape = item.shape as GeometricShape;
    const geo = cachedGeometry(shape, item.points, geometry);
    const { box } = geo;
    const cache = cacheOf(item);
    if (!cache.path) {
      if (shape.shapeType === 'ellipse') {
        const p = newPath();
        p.ellipse(
          box.x + box.w / 2,
          box.y + box.h / 2,
          Math.max(0, box.w / 2),
          Math.max(0, box.h / 2),
          0,
          0,
          2 * Math.PI,
        );
        cache.path = p;
      } else cache.path = polyPath(geo.outline!, box.x, box.y, true);
    }
    const fill = fillStyleOf(shape);
    if (fill) {
      g.fillStyle = fill;
      g.fill(cache.path);
    }
    const sw = shape.strokeWidth ?? 2;
    if (sw > 0) {
      const saved = applyPattern(g, shape, ctx, drawnStrokeWidth(shape));
      if (shape.linePattern === 'marker' || !shape.linePattern || shape.linePattern === 'pen') g.lineJoin = 'round';
      g.strokeStyle = strokeInk(shape, ctx);
      g.stroke(cache.path);
      if (saved) g.restore();
    }
    const label = typeof shape.text === 'string' ? shape.text : '';
    if (label.trim()) {
      // inside the inner 80 %: triangles and stars leave less room, the label still stays centred
      const fitted = (cache.fitted ??= shapeLabelText(label, SANS, box.x, box.y, box.w, box.h));
      const color =
        fill && shape.fill === 'solid'
          ? stickyTextColor(shape.fillColor as number)
          : inkColor(shape.strokeColor ?? 0, ctx);
      const b = fitted.box;
      centredText(g, fitted.layout, SANS, fitted.fontSize, b.x, b.y, b.w, b.h, color, ctx);
    }
  },

  dotColor: (shape, ctx) => (isFilled(shape) ? cssColor(shape.fillColor) : inkColor(shape.strokeColor ?? 0, ctx)),

  vector(item, ctx) {
    const shape = item.shape as GeometricShape;
    const geo = cachedGeometry(shape, item.points, geometry);
    const { box } = geo;
    const d =
      shape.shapeType === 'ellipse'
        ? ellipseD(box.x + box.w / 2, box.y + box.h / 2, Math.max(0, box.w / 2), Math.max(0, box.h / 2))
        : polyD(geo.outline!, box.x, box.y, true);
    const fill = fillOf(shape);
    const out: Prim[] = [];
    if (fill) out.push({ t: 'path', d, fill, stroke: null });
    if ((shape.strokeWidth ?? 2) > 0)
      out.push({ t: 'path', d, fill: null, ...strokeOf(shape, ctx, drawnStrokeWidth(shape)) });
    const label = textValue(shape.text);
    if (label.trim()) {
      const fitted = shapeLabelText(label, SANS, box.x, box.y, box.w, box.h);
      const color =
        fill && shape.fill === 'solid'
          ? stickyTextColor(shape.fillColor as number)
          : inkColor(shape.strokeColor ?? 0, ctx.paint);
      out.push(centredTextPrim(fitted.layout, SANS, fitted.fontSize, fitted.box, color));
    }
    return out;
  },

  resize: resizeStoredBox,
  style: { stroke: true, fill: true },
  editing: {
    mode: 'text',
    fontSize: () => 18,
    font: (_shape, textFont) => textFont,
    color: () => '#1f2328',
    background: () => undefined,
    align: 'center',
  },
};
