/**
 * What a peer may change (SPEC D5–D8, D10, D11), decided on the decoded change before it is
 * applied or forwarded. Pure: reads the current document through the raw handle, never
 * materialises it; only the objects the change touches are read (one `length` to make sure the
 * object exists, one `materialize` of that object: ~0.1 ms, whatever the board's size).
 *
 * Every shape a change creates or touches is rebuilt as it will be after the change (its current
 * fields with this change's operations applied) and checked against its kind's schema
 * (`validateShapeRecord`, proto/src/shapes.ts). Map semantics are simplified on the safe side: a
 * `set` is taken as the new value and a `del` as removing the key, whatever their `pred` says, so
 * every value a change writes is validated even when a concurrent one would win over it.
 */
import { bucketOf, SHAPE_LIMITS, validateShapeRecord } from '@wb/proto';
import type { RtError } from '@wb/proto';
import { A } from './automerge';
import type { DocLayout, Handle } from './automerge';
import type { decodeChange } from './automerge';

type Decoded = ReturnType<typeof decodeChange>;
/** the fields of a decoded op this module reads (the published `Op` type lacks the list ones) */
interface RawOp {
  action: string;
  obj: string;
  key?: string;
  elemId?: string;
  insert?: boolean;
  value?: unknown;
  datatype?: string;
  pred: string[];
}

export interface ChangeAuthor {
  userId: number;
  /** owner or editor, and the board is not read-only */
  canEdit: boolean;
  /** the board's owner may delete anything */
  isOwner: boolean;
  /** the board restricts deletions to creators */
  deleteOwnOnly: boolean;
}
export type CheckResult = { ok: true } | { ok: false; code: RtError['code']; message: string };

const ok: CheckResult = { ok: true };
const invalid = (message: string): CheckResult => ({ ok: false, code: 'invalid_change', message });
const deleteOwnOnly: CheckResult = {
  ok: false,
  code: 'delete_own_only',
  message: 'only the creator may delete this object',
};

/** a nested map or list inside a shape: invalid in every record (validateShapeRecord says why) */
const NESTED_MAP: unknown = Object.freeze(Object.create(null));
const NESTED_LIST: unknown = Object.freeze([]);

/** A shape as it will be after the change. */
interface ShapeState {
  /** the object's id */
  obj: string;
  /** the shape's id (its key in its bucket), when the change names it */
  id: string | null;
  isNew: boolean;
  /** null prototype: keys are whatever the change says */
  record: Record<string, unknown>;
  /** before this change (existing shapes) */
  creatorBefore: unknown;
  kindBefore: unknown;
  creatorTouched: boolean;
}
/** A collaborative text (Automerge Text object): validated by its length (proto `TextLength`). */
interface TextState {
  textLength: number;
}
type Target = { t: 'shape'; s: ShapeState } | { t: 'text'; x: TextState } | { t: 'nested' };

function parseOpId(id: string): { counter: number; actor: string } | null {
  const at = id.indexOf('@');
  if (at <= 0) return null;
  const counter = Number(id.slice(0, at));
  return Number.isSafeInteger(counter) ? { counter, actor: id.slice(at + 1) } : null;
}

/** A value the handle returned (`materialize` of one shape) as a record value. */
function storedValue(v: unknown): unknown {
  if (typeof v === 'string') return { textLength: v.length } satisfies TextState; // a Text object
  if (typeof v === 'bigint') return Number(v); // Uint
  if (A.isImmutableString(v)) return v.val;
  return v; // numbers, booleans, null, bytes; counters, dates and objects fail validation
}

/** Datatypes of numbers a record may hold (decoded changes name them; strings, bytes,
 * booleans and null carry none). Counters, timestamps and unknown types are refused. */
const NUMBER_TYPES: ReadonlySet<string> = new Set(['int', 'uint', 'float64', 'f64']);

/** The value a `set` op writes, or a reason it may not be in a shape. */
function opValue(op: RawOp): { value: unknown } | { reason: string } {
  const v = op.value;
  if (op.datatype !== undefined) {
    if (!NUMBER_TYPES.has(op.datatype)) return { reason: `values of type ${op.datatype.slice(0, 20)} are not allowed` };
    if (typeof v === 'number') return { value: v };
    if (typeof v === 'bigint') return { value: Number(v) };
    return { reason: 'unsupported value' };
  }
  if (Array.isArray(v)) return { value: Uint8Array.from(v as number[]) }; // bytes decode as a list
  if (v instanceof Uint8Array || v === null) return { value: v };
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return { value: v };
  return { reason: 'unsupported value' };
}

export function checkChange(handle: Handle, layout: DocLayout, change: Decoded, author: ChangeAuthor): CheckResult {
  if (!author.canEdit) return { ok: false, code: 'read_only', message: 'this board is read-only for you' };
  const { actor, startOp } = change;
  const ops = change.ops as unknown as RawOp[];
  const end = startOp + ops.length;
  const createdHere = (objId: string): boolean => {
    const p = parseOpId(objId);
    return p !== null && p.actor === actor && p.counter >= startOp && p.counter < end;
  };
  /** every object this change touches, classified once */
  const targets = new Map<string, Target>();
  const shapes: ShapeState[] = [];
  /** existing texts this change edits */
  const texts: TextState[] = [];
  const deletedShapes: string[] = [];

  /**
   * An object this change did not create. Any map other than the root, the shapes map and the
   * buckets is taken for a shape (a visible one, a deleted one, or a losing concurrent version:
   * all are checked the same way); a text is a shape's collaborative text. `objInfo` would say
   * where the object sits, but costs as much again as reading it: it is only asked for messages.
   */
  const classify = (obj: string): Target | string => {
    if (createdHere(obj) || parseOpId(obj)?.counter === 0) return 'unknown object';
    // `materialize` of an id the document lacks would read the whole document: ask `length`
    // first, which refuses unknown ids
    try {
      handle.length(obj);
    } catch {
      return 'unknown object';
    }
    const stored = handle.materialize(obj) as unknown;
    if (typeof stored === 'string') {
      // D11: a shape's collaborative text (text, latex) may only take characters, within the limit
      const x: TextState = { textLength: stored.length };
      texts.push(x);
      return { t: 'text', x };
    }
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return 'nested objects are not allowed';
    const record: Record<string, unknown> = Object.create(null);
    for (const k of Object.keys(stored)) record[k] = storedValue((stored as Record<string, unknown>)[k]);
    const s: ShapeState = {
      obj,
      id: null,
      isNew: false,
      record,
      creatorBefore: record.creator,
      kindBefore: record.kind,
      creatorTouched: false,
    };
    shapes.push(s);
    return { t: 'shape', s };
  };
  /** the shape's id for a message (objInfo: only on the way out) */
  const shapeName = (s: ShapeState): string | null => {
    if (s.id !== null) return s.id;
    try {
      const path = handle.objInfo(s.obj).path;
      return path && path.length === 3 ? String(path[2]) : null;
    } catch {
      return null;
    }
  };

  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.obj === '_root' || op.obj === layout.shapes) return invalid('the document root is fixed');
    const bucket = layout.bucketIds.get(op.obj);
    if (bucket !== undefined) {
      // D7: buckets hold shapes only, each in the bucket of its id
      if (typeof op.key !== 'string' || bucketOf(op.key) !== bucket) return invalid('shape in the wrong bucket');
      if (op.action === 'makeMap') {
        const made = `${startOp + i}@${actor}`;
        const s: ShapeState = {
          obj: made,
          id: op.key,
          isNew: true,
          record: Object.create(null) as Record<string, unknown>,
          creatorBefore: undefined,
          kindBefore: undefined,
          creatorTouched: false,
        };
        targets.set(made, { t: 'shape', s });
        shapes.push(s);
      } else if (op.action !== 'del') return invalid('a shape must be a map');
      // replacing or deleting removes the shapes the op supersedes
      deletedShapes.push(...op.pred);
      continue;
    }
    let target = targets.get(op.obj);
    if (!target) {
      const found = classify(op.obj);
      if (typeof found === 'string') return invalid(found);
      target = found;
      targets.set(op.obj, target);
    }
    const made = `${startOp + i}@${actor}`;
    if (target.t === 'nested') {
      // inside a nested object made by this change: the record holding it is invalid anyway
      if (op.action.startsWith('make')) targets.set(made, { t: 'nested' });
      continue;
    }
    if (target.t === 'text') {
      // D11: characters only (no marks, blocks or nested objects in a shape's text)
      const x = target.x;
      if (op.action === 'set' && typeof op.value === 'string' && op.datatype === undefined) {
        if (op.insert) x.textLength += op.value.length;
      } else if (op.action === 'del') x.textLength = Math.max(0, x.textLength - 1);
      else return invalid('unsupported text operation');
      continue;
    }
    const s = target.s;
    const key = op.key;
    if (typeof key !== 'string') return invalid('a shape must be a map');
    // D8: the creator of an existing shape never changes
    if (key === 'creator' && !s.isNew) s.creatorTouched = true;
    switch (op.action) {
      case 'set': {
        const v = opValue(op);
        if ('reason' in v) return invalid(v.reason);
        s.record[key] = v.value;
        break;
      }
      case 'del':
        s.record[key] = undefined;
        break;
      case 'makeText': {
        const x: TextState = { textLength: 0 };
        targets.set(made, { t: 'text', x });
        s.record[key] = x;
        break;
      }
      case 'makeMap':
      case 'makeTable':
        targets.set(made, { t: 'nested' });
        s.record[key] = NESTED_MAP;
        break;
      case 'makeList':
        targets.set(made, { t: 'nested' });
        s.record[key] = NESTED_LIST;
        break;
      default:
        return invalid(op.action === 'inc' ? 'counters are not allowed' : `unsupported operation ${op.action}`);
    }
  }

  const mayDeleteOthers = !author.deleteOwnOnly || author.isOwner;
  for (const s of shapes) {
    if (s.isNew) {
      // D10: a new record is valid for its kind; D7: it names its author
      const reason = validateShapeRecord(s.record);
      if (reason) return invalid(reason);
      if (s.record.creator !== author.userId) return invalid('creator must be the author');
      continue;
    }
    // D8: creator and kind never change; D10: a changed record is as valid as a new one
    const reason = s.creatorTouched
      ? 'creator is immutable'
      : s.record.kind !== s.kindBefore
        ? 'kind is immutable'
        : validateShapeRecord(s.record);
    if (!reason) continue;
    // D6: invalidating someone else's shape erases it for everyone: it is a deletion
    const othersShape = author.userId === 0 || s.creatorBefore !== author.userId;
    if (othersShape && !mayDeleteOthers) return deleteOwnOnly;
    const name = shapeName(s);
    return invalid(name === null ? reason : `${name}: ${reason}`);
  }
  for (const x of texts) {
    if (x.textLength > SHAPE_LIMITS.maxText)
      return invalid(`a text may hold at most ${SHAPE_LIMITS.maxText} characters`);
  }
  // D6: deleteOwnOnly: only the owner deletes others' shapes; guests (user 0) cannot be told apart
  if (!mayDeleteOthers) {
    for (const shapeObj of deletedShapes) {
      if (createdHere(shapeObj)) continue; // made and replaced within this change
      const creator = handle.get(shapeObj, 'creator');
      if (author.userId === 0 || creator !== author.userId) return deleteOwnOnly;
    }
  }
  return ok;
}
