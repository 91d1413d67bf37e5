/**
 * The shapes to draw, kept in sync with the board document by touched ids (the realtime client
 * reports which shapes a change touched), ordered by z (fractional index, then id) and indexed
 * in an R-tree (rbush) by their world bounds, so culling, hit tests and marquees look at the few
 * shapes near the question instead of all of them. Items cache their unpacked points, bounds and
 * the painters' paths, so a redraw never re-reads Automerge.
 */
import RBush from 'rbush';
import { compareZOrder, type ShapeRecord } from '@wb/proto';
import type { BoardDoc } from '../realtime/boardDoc';
import { allShapes, getShape } from '../realtime/boardDoc';
import type { DocUpdate } from '../realtime/boardClient';
import { contains, intersects, type Point, type Rect } from './camera';
import { hitsShape, localPoints, shapeBounds, shapeTouchesRect } from './geometry';

export interface SceneItem {
  shape: ShapeRecord;
  points: Float32Array;
  bounds: Rect;
  /** renderer's cache (a Path2D), dropped when the shape changes */
  path?: unknown;
  /** painters' cache (paths, fitted font size), dropped when the shape changes */
  paint?: unknown;
  /** position in z order (bottom = 0), valid while the scene's order is */
  rank: number;
  /** the scene query that last found this item (marks big answers without a Set) */
  mark?: number;
}

/** the R-tree entry of an item (rbush wants minX … maxY on the entry) */
interface Entry extends Rect {
  item: SceneItem;
}

const byZ = (a: SceneItem, b: SceneItem) => compareZOrder(a.shape.z, a.shape.id, b.shape.z, b.shape.id);

/**
 * `items` sorted by byZ. The keys are read once into a flat array first: the comparator then
 * touches two strings per side instead of two objects (a 20,000-shape board sorts in about half
 * the time).
 */
function sortByZ(items: Iterable<SceneItem>): SceneItem[] {
  const keyed: { z: string; id: string; it: SceneItem }[] = [];
  for (const it of items) keyed.push({ z: it.shape.z, id: it.shape.id, it });
  keyed.sort((a, b) => compareZOrder(a.z, a.id, b.z, b.id));
  const out = new Array<SceneItem>(keyed.length);
  for (let i = 0; i < keyed.length; i++) out[i] = keyed[i]!.it;
  return out;
}

/** a query rectangle over more than this share of the board's bounds scans the z order instead */
const LINEAR_SCAN_SHARE = 0.25;
/** more touched ids than this: re-sort once instead of splicing one by one */
const SPLICE_LIMIT = 64;

export class Scene {
  private readonly items = new Map<string, SceneItem>();
  private readonly entries = new Map<string, Entry>();
  private readonly tree = new RBush<Entry>(16);
  /** entries of a load() not yet bulk-loaded into the tree (built on first need: index()) */
  private unindexed: Entry[] | null = null;
  private ordered: SceneItem[] = [];
  private ranksDirty = false;
  private query = 0;
  /** world rectangles that changed since the renderer last asked ('all': everything) */
  private changes: Rect[] | 'all' = 'all';
  private cachedBounds: Rect | null | undefined;
  /** connector ids by the shape they are bound to (fromId / toId) */
  private readonly connectors = new Map<string, Set<string>>();
  /** bumped on every change: the renderer redraws when it differs from what it drew */
  version = 0;
  /** shapes being dragged: drawn displaced until the move is committed */
  readonly offsets = new Map<string, Point>();
  /** live resize / rotate previews: drawn instead of the committed record until it is committed */
  readonly overrides = new Map<string, ShapeRecord>();
  private readonly overrideItems = new WeakMap<ShapeRecord, SceneItem>();
  /** shapes not drawn for now (the one whose text is being edited in place) */
  readonly hidden = new Set<string>();

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
      this.load(allShapes(doc).values());
      return;
    } else {
      const ids = [...update.ids];
      const splice = ids.length <= SPLICE_LIMIT;
      for (const id of ids) {
        const old = this.items.get(id);
        const shape = getShape(doc, id);
        // the same z (a move, a restyle): the new item takes the old one's place in the order
        let at = -1;
        if (old) {
          this.changed(old.bounds);
          this.index().remove(this.entries.get(id)!);
          this.entries.delete(id);
          this.items.delete(id);
          this.bind(old.shape, false);
          if (splice && shape?.z === old.shape.z) at = this.indexOf(old);
          if (splice && at < 0) this.unorder(old);
        }
        if (!shape) continue;
        const it = makeItem(shape);
        this.changed(it.bounds);
        this.items.set(id, it);
        const e = entryOf(it);
        this.entries.set(id, e);
        this.index().insert(e);
        this.bind(shape, true);
        if (at >= 0) this.ordered[at] = it;
        else if (splice) this.ordered.splice(this.lowerBound(it), 0, it);
      }
      if (!splice) this.ordered = sortByZ(this.items.values());
      this.ranksDirty = true;
    }
    this.cachedBounds = undefined;
    this.version++;
  }

  /**
   * Replace everything with these shapes: a whole document, or a render snapshot's records before
   * the document has loaded (S9).
   */
  load(shapes: Iterable<ShapeRecord>): void {
    this.items.clear();
    this.entries.clear();
    this.connectors.clear();
    this.tree.clear();
    this.unindexed = null;
    const entries: Entry[] = [];
    for (const shape of shapes) {
      const it = makeItem(shape);
      this.items.set(shape.id, it);
      const e = entryOf(it);
      this.entries.set(shape.id, e);
      entries.push(e);
      this.bind(shape, true);
    }
    // the R-tree waits for its first query: the first paint scans the bounds instead (~1 ms for
    // 20,000), and the bulk load (~30–50 ms) moves out of a board's time to first paint
    this.unindexed = entries;
    this.ordered = sortByZ(this.items.values());
    this.ranksDirty = true;
    this.changes = 'all';
    this.cachedBounds = undefined;
    this.version++;
  }

  private changed(r: Rect): void {
    if (this.changes === 'all') return;
    // past this many, redrawing everything is cheaper than tracking
    if (this.changes.length >= 512) this.changes = 'all';
    else this.changes.push(r);
  }

  /**
   * World rectangles whose drawing changed through apply() since the last call ('all': assume
   * everything did). The renderer's tile cache drops the tiles under them.
   */
  takeChanges(): Rect[] | 'all' {
    const out = this.changes;
    this.changes = [];
    return out;
  }

  /** first index whose item sorts at or after `it` */
  private lowerBound(it: SceneItem): number {
    let lo = 0;
    let hi = this.ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byZ(this.ordered[mid]!, it) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** where `it` is in the order (-1 when absent) */
  private indexOf(it: SceneItem): number {
    let i = this.lowerBound(it);
    // the same z and id can only be this item, but be safe with equal keys
    while (i < this.ordered.length && this.ordered[i] !== it && byZ(this.ordered[i]!, it) === 0) i++;
    return this.ordered[i] === it ? i : this.ordered.indexOf(it);
  }

  private unorder(it: SceneItem): void {
    const i = this.indexOf(it);
    if (i >= 0) this.ordered.splice(i, 1);
  }

  private bind(shape: ShapeRecord, add: boolean): void {
    if (shape.kind !== 'connector') return;
    for (const target of [shape.fromId, shape.toId]) {
      if (!target) continue;
      let set = this.connectors.get(target);
      if (add) {
        if (!set) this.connectors.set(target, (set = new Set()));
        set.add(shape.id);
      } else if (set) {
        set.delete(shape.id);
        if (set.size === 0) this.connectors.delete(target);
      }
    }
  }

  /** shapes that have connectors bound to them */
  boundShapeIds(): string[] {
    return [...this.connectors.keys()];
  }

  /** connectors whose fromId or toId is this shape (they follow it when it moves) */
  connectorsOf(shapeId: string): string[] {
    const set = this.connectors.get(shapeId);
    return set ? [...set] : [];
  }

  /** all items, bottom to top */
  order(): readonly SceneItem[] {
    if (this.ranksDirty) {
      for (let i = 0; i < this.ordered.length; i++) this.ordered[i]!.rank = i;
      this.ranksDirty = false;
    }
    return this.ordered;
  }

  /** index answers in z order: small sets are sorted, big ones mark their items and filter the ordered list */
  private inZOrder(found: SceneItem[]): SceneItem[] {
    const list = this.order();
    if (found.length === list.length) return list.slice();
    if (found.length > 256 && found.length * 8 > list.length) {
      const q = ++this.query;
      for (const it of found) it.mark = q;
      const out: SceneItem[] = [];
      for (const it of list) if (it.mark === q) out.push(it);
      return out;
    }
    return found.sort((a, b) => a.rank - b.rank);
  }

  /** the item as drawn: a live override or the committed one */
  drawn(it: SceneItem): SceneItem {
    const o = this.overrides.get(it.shape.id);
    if (!o) return it;
    let d = this.overrideItems.get(o);
    if (!d) {
      d = makeItem(o);
      d.rank = it.rank;
      this.overrideItems.set(o, d);
    }
    return d;
  }

  /**
   * Items whose bounds meet `rect`, bottom to top. A rectangle covering much of the board is
   * answered by one pass over the z order (cheaper than searching and re-ordering most items).
   */
  private candidates(rect: Rect): SceneItem[] {
    const all = this.bounds();
    if (!all) return [];
    const list = this.order();
    if (contains(rect, all)) return list.slice();
    const area = (all.maxX - all.minX) * (all.maxY - all.minY);
    const w = Math.min(rect.maxX, all.maxX) - Math.max(rect.minX, all.minX);
    const h = Math.min(rect.maxY, all.maxY) - Math.max(rect.minY, all.minY);
    if (w < 0 || h < 0) return [];
    if (list.length > 1024 && w * h > area * LINEAR_SCAN_SHARE) {
      const out: SceneItem[] = [];
      for (const it of list) if (intersects(it.bounds, rect)) out.push(it);
      return out;
    }
    if (this.unindexed) {
      const out: SceneItem[] = [];
      for (const it of list) if (intersects(it.bounds, rect)) out.push(it);
      return out;
    }
    return this.inZOrder(this.tree.search(rect).map((e) => e.item));
  }

  /** bulk-load the R-tree now if a load() left it empty (the renderer's idle warm-up does) */
  buildIndex(): void {
    this.index();
  }

  /** the R-tree, bulk-loaded first if a load() left it empty */
  private index(): RBush<Entry> {
    if (this.unindexed) {
      this.tree.load(this.unindexed);
      this.unindexed = null;
    }
    return this.tree;
  }

  /** items whose drawn bounds (offsets and overrides applied) meet `rect`, bottom to top; hidden ones left out */
  visible(rect: Rect): SceneItem[] {
    const found = this.candidates(rect);
    if (this.offsets.size === 0 && this.overrides.size === 0 && this.hidden.size === 0) return found;
    // moved or reshaped items are found where they are drawn, not where the index has them
    const out = found.filter(
      (it) => !this.offsets.has(it.shape.id) && !this.overrides.has(it.shape.id) && !this.hidden.has(it.shape.id),
    );
    const seen = new Set<string>();
    for (const id of [...this.offsets.keys(), ...this.overrides.keys()]) {
      if (seen.has(id)) continue;
      seen.add(id);
      const it = this.items.get(id);
      if (it && !this.hidden.has(id) && intersects(this.displaced(it), rect)) out.push(it);
    }
    return this.inZOrder(out);
  }

  /** bounds as drawn: the override's bounds, moved by the drag offset */
  displaced(it: SceneItem): Rect {
    const b = this.drawn(it).bounds;
    const o = this.offsets.get(it.shape.id);
    return o ? { minX: b.minX + o.x, minY: b.minY + o.y, maxX: b.maxX + o.x, maxY: b.maxY + o.y } : b;
  }

  /** the top-most shape at world point p (precise per kind) */
  hitTest(p: Point, tolerance: number): SceneItem | null {
    const found = this.index().search({
      minX: p.x - tolerance,
      minY: p.y - tolerance,
      maxX: p.x + tolerance,
      maxY: p.y + tolerance,
    });
    if (found.length === 0) return null;
    this.order();
    found.sort((a, b) => b.item.rank - a.item.rank);
    for (const e of found) {
      const it = e.item;
      if (hitsShape(it.shape, it.points, it.bounds, p, tolerance)) return it;
    }
    return null;
  }

  /** every shape at world point p by `hits` (e.g. geometry.bindsShape), top-most first */
  allAt(p: Point, tolerance: number, hits: typeof hitsShape): SceneItem[] {
    const found = this.index().search({
      minX: p.x - tolerance,
      minY: p.y - tolerance,
      maxX: p.x + tolerance,
      maxY: p.y + tolerance,
    });
    if (found.length === 0) return [];
    this.order();
    found.sort((a, b) => b.item.rank - a.item.rank);
    return found.map((e) => e.item).filter((it) => hits(it.shape, it.points, it.bounds, p, tolerance));
  }

  /** shapes entirely inside a world rectangle, bottom to top */
  inside(rect: Rect): SceneItem[] {
    return this.candidates(rect).filter((it) => contains(rect, it.bounds));
  }

  /** shapes touching a world rectangle (strokes precisely: the eraser, a touching marquee), bottom to top */
  intersecting(rect: Rect): SceneItem[] {
    return this.candidates(rect).filter((it) => shapeTouchesRect(it.shape, it.points, it.bounds, rect));
  }

  topZ(): string | null {
    const n = this.ordered.length;
    return n ? this.ordered[n - 1]!.shape.z : null;
  }
  bottomZ(): string | null {
    return this.ordered.length ? this.ordered[0]!.shape.z : null;
  }

  /** bounds of everything (the R-tree's root), null when empty */
  bounds(): Rect | null {
    if (this.cachedBounds !== undefined) return this.cachedBounds;
    if (this.items.size === 0) return (this.cachedBounds = null);
    if (this.unindexed) {
      const b = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
      for (const e of this.unindexed) {
        if (e.minX < b.minX) b.minX = e.minX;
        if (e.minY < b.minY) b.minY = e.minY;
        if (e.maxX > b.maxX) b.maxX = e.maxX;
        if (e.maxY > b.maxY) b.maxY = e.maxY;
      }
      return (this.cachedBounds = b);
    }
    const root = this.tree.toJSON() as Rect;
    return (this.cachedBounds = { minX: root.minX, minY: root.minY, maxX: root.maxX, maxY: root.maxY });
  }

  touch(): void {
    this.version++;
  }
}

function entryOf(it: SceneItem): Entry {
  const b = it.bounds;
  return { minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY, item: it };
}

export function makeItem(shape: ShapeRecord): SceneItem {
  const points = localPoints(shape);
  return { shape, points, bounds: shapeBounds(shape, points), rank: 0 };
}
