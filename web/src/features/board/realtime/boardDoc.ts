/**
 * The board document (schema v1, realtime SPEC D1–D4) as the web reads and writes it: shapes live
 * in `doc.shapes[bucketOf(id)][id]` (the id is the key, not a field); strings that are never
 * edited per character are ImmutableStrings; stroke points are packed bytes relative to the
 * shape's x, y (`packPoints`).
 */
import * as A from '@automerge/automerge/slim';
import { bucketOf, SHAPE_KINDS } from '@wb/proto';
import type { RenderRecord, ShapeKind, ShapeRecord } from '@wb/proto';

export type BoardDoc = {
  schema?: number;
  shapes?: Record<string, Record<string, Record<string, unknown>>>;
};

/** J5: the genesis (root and the 256 buckets) has arrived: the client may edit. */
export function isReady(doc: BoardDoc): boolean {
  return !!doc.shapes && typeof doc.shapes['00'] === 'object' && typeof doc.shapes.ff === 'object';
}

/** Fields that stay collaborative text (edited per character by later tools). */
const TEXT_FIELDS = new Set(['text', 'latex']);

/**
 * A stored record → a plain ShapeRecord (ImmutableStrings become strings); null when unreadable.
 * The id is the record's key in its bucket (SPEC D4: not stored in the record).
 */
export function readShape(id: string, raw: Record<string, unknown> | undefined): ShapeRecord | null {
  if (!raw || typeof raw !== 'object') return null;
  const out: Record<string, unknown> = {};
  // keys, not entries: no [key, value] pair per field (20,000 records on opening a big board)
  const keys = Object.keys(raw);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = raw[k];
    out[k] = A.isImmutableString(v) ? v.val : v;
  }
  out.id = id;
  if (!(SHAPE_KINDS as readonly unknown[]).includes(out.kind)) return null;
  if (typeof out.x !== 'number' || typeof out.y !== 'number' || typeof out.z !== 'string') return null;
  return out as unknown as ShapeRecord;
}

/**
 * A render snapshot's record (S9) as a ShapeRecord: it is plain JSON already (no ImmutableStrings),
 * so it is checked as readShape checks and used as it is, not copied (20,000 of them on opening a
 * big board); null when unreadable.
 */
export function previewShape(record: RenderRecord): ShapeRecord | null {
  const r = record as Record<string, unknown>;
  if (!(SHAPE_KINDS as readonly unknown[]).includes(r.kind)) return null;
  if (typeof r.x !== 'number' || typeof r.y !== 'number' || typeof r.z !== 'string') return null;
  return record as unknown as ShapeRecord;
}

export function getShape(doc: BoardDoc, id: string): ShapeRecord | null {
  return readShape(id, doc.shapes?.[bucketOf(id)]?.[id]);
}

export function allShapes(doc: BoardDoc): Map<string, ShapeRecord> {
  const out = new Map<string, ShapeRecord>();
  for (const bucket of Object.values(doc.shapes ?? {})) {
    const ids = Object.keys(bucket);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const s = readShape(id, bucket[id]);
      if (s) out.set(id, s);
    }
  }
  return out;
}

/** A ShapeRecord as stored: without its id (the key), atomic strings as ImmutableString (SPEC D3, D4). */
export function toStored(shape: ShapeRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(shape)) {
    if (v === undefined || k === 'id') continue;
    out[k] = typeof v === 'string' && !TEXT_FIELDS.has(k) ? new A.ImmutableString(v) : v;
  }
  return out;
}

/** Inside A.change: add (or replace) a shape in its bucket. */
export function putShape(d: BoardDoc, shape: ShapeRecord): void {
  d.shapes![bucketOf(shape.id)]![shape.id] = toStored(shape);
}
export function removeShape(d: BoardDoc, id: string): boolean {
  const bucket = d.shapes![bucketOf(id)]!;
  if (!(id in bucket)) return false;
  delete bucket[id];
  return true;
}
export function moveShape(d: BoardDoc, id: string, dx: number, dy: number): boolean {
  const s = d.shapes![bucketOf(id)]![id];
  if (!s) return false;
  // an axis that did not move is not written: each write is an op in the change, the journal and
  // the undo step (a nudge right writes half as much)
  if (dx !== 0) s.x = (s.x as number) + dx;
  if (dy !== 0) s.y = (s.y as number) + dy;
  return true;
}

/** The shape ids a set of patches touched (`['shapes', bucket, id, …]`). */
export function touchedShapeIds(patches: readonly A.Patch[]): Set<string> {
  const out = new Set<string>();
  for (const p of patches) {
    if (p.path[0] !== 'shapes') continue;
    if (p.path.length >= 3) out.add(String(p.path[2]));
  }
  return out;
}

/** Random ids (spec §9: 64-character alphabet, length 21). */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
export function newShapeId(random: (n: number) => Uint8Array = randomBytes): string {
  let id = '';
  for (const b of random(21)) id += ALPHABET[b & 63];
  return id;
}
function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

export const isShapeKind = (v: unknown): v is ShapeKind => (SHAPE_KINDS as readonly unknown[]).includes(v);
