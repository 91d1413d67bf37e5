/**
 * Arrange commands (issue 13) over a change: z-order by fractional keys, lock, group, duplicate,
 * nudge and delete. Each runs inside one host.commit (one undo step); the host's followBindings
 * keeps connectors attached afterwards. Shapes are read from the change itself, the z order and
 * overlaps from the scene (which matches the document at the start of the change).
 */
import { compareZOrder, type ShapeRecord } from '@wb/proto';
import type { BoardDoc } from '../../realtime/boardDoc';
import { getShape, moveShape, putShape, removeShape } from '../../realtime/boardDoc';
import { intersects, type Point, type Rect } from '../camera';
import { isOrderKey, keyBetween } from '../fractionalIndex';
import { utilOf } from '../shapes/registry';
import type { TextStylePatch } from '../shapes/types';
import { setShapeText } from '../textOps';
import { setFields } from './undo';

/** what arrange needs of the scene: shapes bottom to top with their bounds */
export interface ShapeOrder {
  order(): readonly { shape: ShapeRecord; bounds: Rect }[];
}

/** n ascending keys strictly between a and b (null = open); tolerates foreign or equal neighbours */
export function keysBetween(a: string | null, b: string | null, n: number): string[] {
  let lo = a !== null && isOrderKey(a) ? a : null;
  let hi = b !== null && isOrderKey(b) ? b : null;
  if (lo !== null && hi !== null && lo >= hi) hi = null;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    lo = keyBetween(lo, hi);
    out.push(lo);
  }
  return out;
}

function setZ(d: BoardDoc, items: readonly ShapeRecord[], keys: readonly string[]): void {
  items.forEach((s, i) => setFields(d, s.id, { ...s, z: keys[i]! }, ['z']));
}

/** the selected shapes in z order and their indexes in the scene's order */
function selected(ids: Iterable<string>, scene: ShapeOrder) {
  const want = new Set(ids);
  const list = scene.order();
  const at: number[] = [];
  list.forEach((it, i) => {
    if (want.has(it.shape.id)) at.push(i);
  });
  return { list, at, want };
}

/** one step up: just above the next shape above the selection that overlaps one of it */
export function bringForward(d: BoardDoc, ids: Iterable<string>, scene: ShapeOrder): boolean {
  const { list, at, want } = selected(ids, scene);
  if (!at.length) return false;
  const mine = at.map((i) => list[i]!);
  for (let i = at[at.length - 1]! + 1; i < list.length; i++) {
    const other = list[i]!;
    if (want.has(other.shape.id) || !mine.some((m) => intersects(m.bounds, other.bounds))) continue;
    setZ(
      d,
      mine.map((m) => m.shape),
      keysBetween(other.shape.z, list[i + 1]?.shape.z ?? null, mine.length),
    );
    return true;
  }
  return false;
}

/** one step down: just below the next shape below the selection that overlaps one of it */
export function sendBackward(d: BoardDoc, ids: Iterable<string>, scene: ShapeOrder): boolean {
  const { list, at, want } = selected(ids, scene);
  if (!at.length) return false;
  const mine = at.map((i) => list[i]!);
  for (let i = at[0]! - 1; i >= 0; i--) {
    const other = list[i]!;
    if (want.has(other.shape.id) || !mine.some((m) => intersects(m.bounds, other.bounds))) continue;
    setZ(
      d,
      mine.map((m) => m.shape),
      keysBetween(list[i - 1]?.shape.z ?? null, other.shape.z, mine.length),
    );
    return true;
  }
  return false;
}

export function bringToFront(d: BoardDoc, ids: Iterable<string>, scene: ShapeOrder): boolean {
  const { list, at } = selected(ids, scene);
  // already the top ones: nothing to do (no empty undo step)
  if (!at.length || at[0] === list.length - at.length) return false;
  const top = list[list.length - 1]!.shape.z;
  setZ(
    d,
    at.map((i) => list[i]!.shape),
    keysBetween(top, null, at.length),
  );
  return true;
}

export function sendToBack(d: BoardDoc, ids: Iterable<string>, scene: ShapeOrder): boolean {
  const { list, at } = selected(ids, scene);
  if (!at.length || at[at.length - 1] === at.length - 1) return false;
  setZ(
    d,
    at.map((i) => list[i]!.shape),
    keysBetween(null, list[0]!.shape.z, at.length),
  );
  return true;
}

export function setLocked(d: BoardDoc, ids: Iterable<string>, locked: boolean): number {
  let n = 0;
  for (const id of ids) {
    const s = getShape(d, id);
    if (!s || !!s.locked === locked) continue;
    setFields(d, id, { ...s, locked: locked || undefined }, ['locked']);
    n++;
  }
  return n;
}
export const lock = (d: BoardDoc, ids: Iterable<string>) => setLocked(d, ids, true);
export const unlock = (d: BoardDoc, ids: Iterable<string>) => setLocked(d, ids, false);

/** one new group of all the shapes (any earlier groups among them are merged); false with < 2 */
export function group(d: BoardDoc, ids: Iterable<string>, groupId: string): boolean {
  const shapes = [...ids].map((id) => getShape(d, id)).filter((s): s is ShapeRecord => !!s);
  if (shapes.length < 2) return false;
  for (const s of shapes) setFields(d, s.id, { ...s, groupId }, ['groupId']);
  return true;
}

export function ungroup(d: BoardDoc, ids: Iterable<string>): number {
  let n = 0;
  for (const id of ids) {
    const s = getShape(d, id);
    if (!s?.groupId) continue;
    setFields(d, id, { ...s, groupId: undefined }, ['groupId']);
    n++;
  }
  return n;
}

/** move shapes by dx, dy; locked shapes stay. Returns the ids moved. */
export function nudge(d: BoardDoc, ids: Iterable<string>, dx: number, dy: number): string[] {
  const moved: string[] = [];
  for (const id of ids) {
    const s = getShape(d, id);
    if (!s || s.locked) continue;
    if (moveShape(d, id, dx, dy)) moved.push(id);
  }
  return moved;
}

/**
 * Delete what this person may (SPEC D6 via `mayDelete`); locked shapes stay too. Connectors bound
 * to deleted shapes are unbound by the host's followBindings in the same change.
 */
export function deleteShapes(
  d: BoardDoc,
  ids: Iterable<string>,
  mayDelete: (id: string, shape: ShapeRecord) => boolean,
): { deleted: number; refused: number; locked: number; deletedIds: string[] } {
  const out = { deleted: 0, refused: 0, locked: 0, deletedIds: [] as string[] };
  for (const id of new Set(ids)) {
    const s = getShape(d, id);
    if (!s) continue;
    if (s.locked) out.locked++;
    else if (!mayDelete(id, s)) out.refused++;
    else if (removeShape(d, id)) out.deletedIds.push(id);
  }
  out.deleted = out.deletedIds.length;
  return out;
}

/** add (or replace) whole records, e.g. pasted shapes */
export function put(d: BoardDoc, shape: ShapeRecord): void {
  putShape(d, shape);
}

/**
 * Apply a style change to the shapes that have the styled property (their kind says which:
 * ShapeUtil.style and restyle): stroke fields to stroked kinds, fill to closed ones, text
 * colour/size/font to text (colour to formulas too), the sticky colour to stickies. Locked shapes
 * keep their style. Returns how many shapes changed.
 */
export function restyle(
  d: BoardDoc,
  ids: Iterable<string>,
  fields: Readonly<Record<string, unknown>>,
  patch: TextStylePatch = {},
): number {
  let n = 0;
  for (const id of ids) {
    const s = getShape(d, id);
    if (!s || s.locked) continue;
    const util = utilOf(s.kind);
    const next: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) {
      if ((k === 'fill' || k === 'fillColor') && !util.style.fill) continue;
      if ((k === 'strokeColor' || k === 'strokeWidth' || k === 'linePattern') && !util.style.stroke) continue;
      next[k] = v;
    }
    util.restyle?.(patch, next);
    const after = { ...s, ...next } as ShapeRecord;
    const keys = Object.keys(next).filter((k) => (s as unknown as Record<string, unknown>)[k] !== next[k]);
    if (!keys.length) continue;
    setFields(d, id, after, keys);
    n++;
  }
  return n;
}

/**
 * Copies of shapes with new ids, moved by dx, dy, on top (keys above `topZ`, in their order);
 * groups among them get new group ids and connector bindings among them point at the copies,
 * bindings to shapes not copied are dropped (the end keeps its point). Used by duplicate and paste.
 */
/**
 * Set fields of one unlocked shape (the formula and graph panels). `text`/`latex` stay
 * collaborative text (a character diff); `undefined` removes a field. False when nothing changed.
 */
export function patchShape(d: BoardDoc, id: string, patch: Readonly<Record<string, unknown>>): boolean {
  const s = getShape(d, id);
  if (!s || s.locked) return false;
  const plain: Record<string, unknown> = {};
  let changed = false;
  for (const [k, v] of Object.entries(patch)) {
    if (k === 'id' || k === 'kind' || k === 'creator') continue;
    if ((s as unknown as Record<string, unknown>)[k] === v) continue;
    if ((k === 'text' || k === 'latex') && typeof v === 'string') changed = setShapeText(d, id, v, k) || changed;
    else {
      plain[k] = v;
      changed = true;
    }
  }
  if (Object.keys(plain).length) setFields(d, id, { ...s, ...plain } as ShapeRecord, Object.keys(plain));
  return changed;
}

export function cloneShapes(
  shapes: readonly ShapeRecord[],
  newId: () => string,
  dx: number,
  dy: number,
  topZ: string | null,
  creator?: number,
): ShapeRecord[] {
  const sorted = [...shapes].sort((a, b) => compareZOrder(a.z, a.id, b.z, b.id));
  const ids = new Map(sorted.map((s) => [s.id, newId()]));
  const groups = new Map<string, string>();
  const keys = keysBetween(topZ, null, sorted.length);
  return sorted.map((s, i) => {
    const copy = { ...s, id: ids.get(s.id)!, z: keys[i]!, x: s.x + dx, y: s.y + dy } as ShapeRecord;
    if (creator !== undefined) copy.creator = creator;
    if (s.groupId) {
      if (!groups.has(s.groupId)) groups.set(s.groupId, newId());
      copy.groupId = groups.get(s.groupId)!;
    }
    if (copy.kind === 'connector' && s.kind === 'connector') {
      copy.fromId = s.fromId ? (ids.get(s.fromId) ?? null) : null;
      copy.toId = s.toId ? (ids.get(s.toId) ?? null) : null;
    }
    return copy;
  });
}

export const DUPLICATE_OFFSET = 20;

/**
 * Duplicate the shapes (+20, +20, on top) in the change; returns the copies' ids. `read` gives
 * the records (the scene's); `creator` makes the copies this person's (SPEC D6: their own to delete).
 */
export function duplicate(
  d: BoardDoc,
  ids: Iterable<string>,
  read: (id: string) => ShapeRecord | null,
  opts: { newId: () => string; topZ: string | null; creator?: number },
): string[] {
  const shapes = [...new Set(ids)].map((id) => read(id) ?? getShape(d, id)).filter((s): s is ShapeRecord => !!s);
  const copies = cloneShapes(shapes, opts.newId, DUPLICATE_OFFSET, DUPLICATE_OFFSET, opts.topZ, opts.creator);
  for (const c of copies) putShape(d, c);
  return copies.map((c) => c.id);
}

/** selecting one member of a group selects the whole group (the ids, then the other members) */
export function expandGroups(
  ids: Iterable<string>,
  scene: ShapeOrder & { get(id: string): { shape: ShapeRecord } | undefined },
): string[] {
  const out = new Set(ids);
  const groups = new Set<string>();
  for (const id of out) {
    const g = scene.get(id)?.shape.groupId;
    if (g) groups.add(g);
  }
  // the whole board is walked only when a group is involved
  if (groups.size)
    for (const it of scene.order()) if (it.shape.groupId && groups.has(it.shape.groupId)) out.add(it.shape.id);
  return [...out];
}

/** the union of rects (null for none) */
export function unionRect(rects: Iterable<Rect>): Rect | null {
  let r: Rect | null = null;
  for (const b of rects)
    r = r
      ? {
          minX: Math.min(r.minX, b.minX),
          minY: Math.min(r.minY, b.minY),
          maxX: Math.max(r.maxX, b.maxX),
          maxY: Math.max(r.maxY, b.maxY),
        }
      : { ...b };
  return r;
}

export const rectCentre = (r: Rect): Point => ({ x: (r.minX + r.maxX) / 2, y: (r.minY + r.maxY) / 2 });
