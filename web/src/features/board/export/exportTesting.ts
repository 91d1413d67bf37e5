/** Test helpers: records of every kind and a scene over them (the ExportScene interface, no Automerge). */
import { packPoints, type ShapeRecord } from '@wb/proto';
import { intersects, type Rect } from '../canvas/camera';
import { makeItem, type SceneItem } from '../canvas/scene';
import type { ExportScene } from './pages';

let n = 0;
const base = () => ({ id: `s${++n}`, creator: 1, z: `a${String(n).padStart(4, '0')}` });

export const rec = {
  pen: (points: number[], extra: Partial<ShapeRecord> = {}): ShapeRecord =>
    ({
      ...base(),
      kind: 'pen',
      x: 0,
      y: 0,
      strokeColor: 0x1e88e5,
      strokeWidth: 3,
      points: packPoints(points),
      ...extra,
    }) as ShapeRecord,
  line: (points: number[], extra: Record<string, unknown> = {}): ShapeRecord =>
    ({
      ...base(),
      kind: 'line',
      x: 0,
      y: 0,
      strokeColor: 0,
      strokeWidth: 2,
      points: packPoints(points),
      ...extra,
    }) as ShapeRecord,
  shape: (extra: Record<string, unknown> = {}): ShapeRecord =>
    ({
      ...base(),
      kind: 'shape',
      shapeType: 'rectangle',
      x: 0,
      y: 0,
      w: 100,
      h: 50,
      strokeColor: 0,
      strokeWidth: 2,
      ...extra,
    }) as ShapeRecord,
  sticky: (text: string, extra: Record<string, unknown> = {}): ShapeRecord =>
    ({ ...base(), kind: 'sticky', x: 0, y: 0, w: 200, h: 200, text, color: 0xfff59d, ...extra }) as ShapeRecord,
  text: (text: string, extra: Record<string, unknown> = {}): ShapeRecord =>
    ({
      ...base(),
      kind: 'text',
      x: 0,
      y: 0,
      w: 300,
      text,
      font: 'sans-serif',
      fontSize: 20,
      color: 0,
      ...extra,
    }) as ShapeRecord,
  formula: (latex: string, extra: Record<string, unknown> = {}): ShapeRecord =>
    ({
      ...base(),
      kind: 'formula',
      x: 0,
      y: 0,
      latex,
      fontSize: 20,
      color: 0,
      alignment: 'equation',
      ...extra,
    }) as ShapeRecord,
  documentPage: (page: number, x: number, y: number, extra: Record<string, unknown> = {}): ShapeRecord =>
    ({ ...base(), kind: 'documentPage', fileId: 'f1', page, x, y, w: 595, h: 842, ...extra }) as ShapeRecord,
};

/** a scene over the records, bottom to top in the given order */
export function sceneOf(shapes: ShapeRecord[]): ExportScene & { items: SceneItem[] } {
  const items = shapes.map((s, i) => ({ ...makeItem(s), rank: i }));
  const byId = new Map(items.map((it) => [it.shape.id, it]));
  return {
    items,
    order: () => items,
    get: (id) => byId.get(id),
    visible: (r: Rect) => items.filter((it) => intersects(it.bounds, r)),
    bounds: () =>
      items.length
        ? items.reduce<Rect>(
            (a, it) => ({
              minX: Math.min(a.minX, it.bounds.minX),
              minY: Math.min(a.minY, it.bounds.minY),
              maxX: Math.max(a.maxX, it.bounds.maxX),
              maxY: Math.max(a.maxY, it.bounds.maxY),
            }),
            { ...items[0]!.bounds },
          )
        : null,
  };
}
