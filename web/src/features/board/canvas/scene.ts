/**
 * The shapes to draw, kept in sync with the board document by touched ids (the realtime client
 * reports which shapes a change touched), ordered by z (fractional index, then id). Items cache
 * their unpacked points, bounds and the renderer's path, so a redraw never re-reads Automerge.
 */
import type { ShapeRecord } from '@wb/proto';
import type { BoardDoc } from '../realtime/boardDoc';
import { allShapes, getShape } from '../realtime/boardDoc';
import type { DocUpdate } from '../realtime/boardClient';
import { contains, intersects, type Point, type Rect } from './camera';
import { hitsShape, localPoints, shapeBounds } from './geometry';

export interface SceneItem {
  shape: ShapeRecord;
  points: Float32Array;
  bounds: Rect;
  /** renderer's cache (a Path2D in item coordinates), dropped when the shape changes */
  path?: unknown;
}

const byZ = (a: SceneItem, b: SceneItem) =>
  a.shape.z < b.shape.z
    ? -1
    : a.shape.z > b.shape.z
      ? 1
      : a.shape.id < b.shape.id
        ? -1
        : a.shape.id > b.shape.id
          ? 1
          : 0;

export class Scene {
  private readonly items = new Map<string, SceneItem>();
  private ordered: SceneItem[] = [];
  private orderDirty = false;
  /** bumped on every change: the renderer redraws when it differs from what it drew */
  version = 0;
  /** shapes being dragged: drawn displaced until the move is committed */
  readonly offsets = new Map<string, Point>();

  get size(): number {
    return this.items.size;
  }
  get(id: string): SceneItem | undefined {
    return this.items.get(id);
  }
  ids(): string[] {
    return [...this.items.keys()];
  }

  /** apply a document update (all, or the touched ids) */
  apply(doc: BoardDoc, update: DocUpdate): void {
    if (update.all) {
      this.items.clear();
      for (const shape of allShapes(doc).values()) this.items.set(shape.id, makeItem(shape));
    } else {
      for (const id of update.ids) {
        const shape = getShape(doc, id);
        if (shape) this.items.set(id, makeItem(shape));
        else this.items.delete(id);
      }
    }
    this.orderDirty = true;
    this.version++;
  }

  /** all items, bottom to top */
  order(): readonly SceneItem[] {
    if (this.orderDirty) {
      this.ordered = [...this.items.values()].sort(byZ);
      this.orderDirty = false;
    }
    return this.ordered;
  }

  /** items whose bounds meet `rect`, bottom to top */
  visible(rect: Rect): SceneItem[] {
    return this.order().filter((it) => intersects(this.displaced(it), rect));
  }

  /** bounds with a drag offset applied */
  displaced(it: SceneItem): Rect {
    const o = this.offsets.get(it.shape.id);
    return o
      ? {
          minX: it.bounds.minX + o.x,
          minY: it.bounds.minY + o.y,
          maxX: it.bounds.maxX + o.x,
          maxY: it.bounds.maxY + o.y,
        }
      : it.bounds;
  }

  /** the top-most shape at world point p */
  hitTest(p: Point, tolerance: number): SceneItem | null {
    const list = this.order();
    for (let i = list.length - 1; i >= 0; i--) {
      const it = list[i]!;
      if (hitsShape(it.shape, it.points, it.bounds, p, tolerance)) return it;
    }
    return null;
  }

  /** shapes entirely inside a world rectangle */
  inside(rect: Rect): SceneItem[] {
    return this.order().filter((it) => contains(rect, it.bounds));
  }

  topZ(): string | null {
    const list = this.order();
    return list.length ? list[list.length - 1]!.shape.z : null;
  }

  bounds(): Rect | null {
    let r: Rect | null = null;
    for (const it of this.items.values())
      r = r
        ? {
            minX: Math.min(r.minX, it.bounds.minX),
            minY: Math.min(r.minY, it.bounds.minY),
            maxX: Math.max(r.maxX, it.bounds.maxX),
            maxY: Math.max(r.maxY, it.bounds.maxY),
          }
        : { ...it.bounds };
    return r;
  }

  touch(): void {
    this.version++;
  }
}

export function makeItem(shape: ShapeRecord): SceneItem {
  const points = localPoints(shape);
  return { shape, points, bounds: shapeBounds(shape, points) };
}
