/**
 * Big edits as several small changes (realtime SPEC L4): a node refuses a change that overwrites
 * more than RT_LIMITS.maxChangeOverwrites values (Automerge's cost per overwrite jumps past that:
 * one change moving 4,000 strokes stalled a node ~19 s, the same move in changes of 25 shapes
 * costs ~1 s in all). Tools and commands write one change function as if it were one change;
 * `recordChange` runs it against a recording view of the document (reads see the writes made so
 * far) and returns the writes grouped by shape, which `replay` applies inside real changes, as
 * many shapes per change as the limits allow.
 */
import * as A from '@automerge/automerge/slim';
import { bucketOf, RT_LIMITS } from '@wb/proto';
import type { BoardDoc } from '../../realtime/boardDoc';
import type { ChangeCost } from '../../realtime/boardClient';

const DELETED = Symbol('deleted');
type Value = unknown;

/** What one change function did to one shape. */
export interface ShapeWrites {
  id: string;
  /** the record was removed (and perhaps put again afterwards) */
  removed: boolean;
  /** a whole new record was put */
  put: Record<string, Value> | null;
  /** fields set (or DELETED) on the record as it then was */
  fields: Map<string, Value>;
  /** the shape existed before the change (its writes are overwrites) */
  existed: boolean;
}

/** The writes could not be recorded (e.g. collaborative text edited per character): run it directly. */
export class NotRecordable extends Error {}

/**
 * Runs `fn` against a recording view of `doc` and returns the shapes it wrote, in first-write
 * order; `fn` may ask which shapes it has written so far (`written()`). Throws NotRecordable for
 * writes outside `shapes.<bucket>.<id>[.<field>]`.
 */
export function recordChange(doc: BoardDoc, fn: (d: BoardDoc, written: () => Iterable<string>) => void): ShapeWrites[] {
  const writes = new Map<string, ShapeWrites>();
  const real = (id: string) => doc.shapes?.[bucketOf(id)]?.[id] as Record<string, Value> | undefined;
  const entry = (id: string): ShapeWrites => {
    let w = writes.get(id);
    if (!w) {
      w = { id, removed: false, put: null, fields: new Map(), existed: real(id) !== undefined };
      writes.set(id, w);
    }
    return w;
  };
  /** the record as the change has made it so far, or undefined when absent */
  const current = (id: string): Record<string, Value> | undefined => {
    const w = writes.get(id);
    if (!w) return real(id);
    if (w.put) return w.put;
    return w.removed ? undefined : real(id);
  };
  /** one field as the change has made it so far */
  const fieldOf = (id: string, field: string): Value => {
    const w = writes.get(id);
    if (w && !w.put && w.fields.has(field)) {
      const v = w.fields.get(field);
      return v === DELETED ? undefined : v;
    }
    return current(id)?.[field];
  };
  const recordView = (id: string): Record<string, Value> =>
    new Proxy({} as Record<string, Value>, {
      get: (_t, field) => (typeof field === 'string' ? fieldOf(id, field) : undefined),
      set(_t, field, value) {
        if (typeof field !== 'string') throw new NotRecordable('symbol field');
        const w = entry(id);
        if (w.put) w.put[field] = value;
        else w.fields.set(field, value);
        return true;
      },
      deleteProperty(_t, field) {
        if (typeof field !== 'string') throw new NotRecordable('symbol field');
        const w = entry(id);
        if (w.put) delete w.put[field];
        else w.fields.set(field, DELETED);
        return true;
      },
      has: (_t, field) => typeof field === 'string' && current(id)?.[field] !== undefined,
      ownKeys: () => Reflect.ownKeys(materialise(id)),
      // per field, not a whole copy: Object.keys asks for each key's descriptor
      getOwnPropertyDescriptor: (_t, field) => {
        const value = typeof field === 'string' ? fieldOf(id, field) : undefined;
        return value === undefined ? undefined : { value, enumerable: true, configurable: true, writable: true };
      },
    });
  /** the record with the recorded field writes applied (for enumeration) */
  const materialise = (id: string): Record<string, Value> => {
    const base = { ...(current(id) ?? {}) };
    const w = writes.get(id);
    if (w && !w.put)
      for (const [k, v] of w.fields) {
        if (v === DELETED) delete base[k];
        else base[k] = v;
      }
    return base;
  };
  const bucketView = (bucket: string): Record<string, Value> =>
    new Proxy({} as Record<string, Value>, {
      get(_t, id) {
        if (typeof id !== 'string') return undefined;
        return current(id) === undefined ? undefined : recordView(id);
      },
      set(_t, id, value) {
        if (typeof id !== 'string' || bucketOf(id) !== bucket || typeof value !== 'object' || value === null)
          throw new NotRecordable('not a shape record');
        const w = entry(id);
        if (w.existed || w.put) w.removed = true;
        w.put = { ...(value as Record<string, Value>) };
        w.fields.clear();
        return true;
      },
      deleteProperty(_t, id) {
        if (typeof id !== 'string') throw new NotRecordable('symbol id');
        const w = entry(id);
        w.removed = true;
        w.put = null;
        w.fields.clear();
        return true;
      },
      has: (_t, id) => typeof id === 'string' && current(id) !== undefined,
      ownKeys: () => {
        const keys = new Set(Object.keys(doc.shapes?.[bucket] ?? {}));
        for (const [id, w] of writes)
          if (bucketOf(id) === bucket) {
            if (w.put) keys.add(id);
            else if (w.removed) keys.delete(id);
          }
        return [...keys];
      },
      getOwnPropertyDescriptor: (_t, id) =>
        typeof id === 'string' && current(id) !== undefined
          ? { value: recordView(id), enumerable: true, configurable: true, writable: true }
          : undefined,
    });
  const buckets = new Map<string, Record<string, Value>>();
  const shapesView: Record<string, Record<string, Value>> = new Proxy({} as Record<string, Record<string, Value>>, {
    get(_t, bucket) {
      if (typeof bucket !== 'string' || !doc.shapes?.[bucket]) return undefined;
      let v = buckets.get(bucket);
      if (!v) buckets.set(bucket, (v = bucketView(bucket)));
      return v;
    },
    set: () => {
      throw new NotRecordable('buckets are fixed (SPEC D2)');
    },
    has: (_t, bucket) => typeof bucket === 'string' && !!doc.shapes?.[bucket],
    ownKeys: () => Object.keys(doc.shapes ?? {}),
    getOwnPropertyDescriptor: (_t, bucket): PropertyDescriptor | undefined =>
      typeof bucket === 'string' && doc.shapes?.[bucket]
        ? { value: shapesView[bucket], enumerable: true, configurable: true, writable: true }
        : undefined,
  });
  const root = new Proxy({} as BoardDoc, {
    get: (_t, key) => (key === 'shapes' ? shapesView : (doc as Record<string | symbol, unknown>)[key]),
    set: () => {
      throw new NotRecordable('only shapes are written');
    },
  });
  fn(root, () => [...writes.keys()]);
  return [...writes.values()];
}

/** What the node will count for one shape's writes (SPEC L4; text counts a character each). */
export function writesCost(w: ShapeWrites): ChangeCost {
  const size = (v: Value) => (typeof v === 'string' ? 1 + v.length : 1);
  let ops = 0;
  let overwrites = 0;
  if (w.removed && w.existed) {
    ops++;
    overwrites++;
  }
  if (w.put) {
    ops++;
    for (const v of Object.values(w.put)) ops += size(v);
  }
  for (const v of w.fields.values()) {
    ops += v === DELETED ? 1 : size(v);
    if (w.existed) overwrites++;
  }
  return { ops, overwrites };
}

/**
 * A recorded value as a fresh value: what was read from the document (bytes, an ImmutableString,
 * a map) may belong to it, and Automerge refuses to assign its own objects again
 * ("Cannot create a reference to an existing document object").
 */
function detached(v: Value): Value {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Uint8Array) return new Uint8Array(v);
  if (A.isImmutableString(v)) return new A.ImmutableString(v.val);
  if (Array.isArray(v)) return v.map(detached);
  // a map (or a document proxy of one): copied field by field
  return Object.fromEntries(Object.entries(v as Record<string, Value>).map(([k, x]) => [k, detached(x)]));
}

/** Inside a real change: apply what `recordChange` recorded for these shapes. */
export function replay(d: BoardDoc, writes: readonly ShapeWrites[]): void {
  // each proxy read is a lookup in Automerge's op set (~15 µs on a 20,000-object board): the
  // shapes map and each bucket are read once per change, not once per shape
  const shapes = d.shapes!;
  const buckets = new Map<string, Record<string, Record<string, Value>>>();
  for (const w of writes) {
    const key = bucketOf(w.id);
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = shapes[key]!));
    if (w.removed && !w.put) {
      delete bucket[w.id];
      continue;
    }
    if (w.put) bucket[w.id] = detached(w.put) as Record<string, Value>;
    const record = bucket[w.id];
    if (!record) continue;
    for (const [k, v] of w.fields) {
      if (v === DELETED) delete record[k];
      else record[k] = detached(v);
    }
  }
}

/** do these writes fit one change? */
export function fitsOneChange(writes: readonly ShapeWrites[]): boolean {
  let ops = 0;
  let overwrites = 0;
  for (const w of writes) {
    const c = writesCost(w);
    ops += c.ops;
    overwrites += c.overwrites;
  }
  return ops <= RT_LIMITS.maxChangeOps && overwrites <= RT_LIMITS.maxChangeOverwrites;
}
