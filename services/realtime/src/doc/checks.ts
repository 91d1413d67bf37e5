/**
 * What a peer may change (SPEC D5–D8), decided on the decoded change before it is applied or
 * forwarded. Pure: reads the current document through the raw handle, never materialises it.
 */
import { bucketOf, SHAPE_KINDS } from '@wb/proto';
import type { RtError } from '@wb/proto';
import type { DocLayout, Handle } from './automerge';
import type { decodeChange } from './automerge';

type Decoded = ReturnType<typeof decodeChange>;

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

const SHAPE_KIND_SET: ReadonlySet<string> = new Set(SHAPE_KINDS);
const ok: CheckResult = { ok: true };
const invalid = (message: string): CheckResult => ({ ok: false, code: 'invalid_change', message });

function parseOpId(id: string): { counter: number; actor: string } | null {
  const at = id.indexOf('@');
  if (at <= 0) return null;
  const counter = Number(id.slice(0, at));
  return Number.isSafeInteger(counter) ? { counter, actor: id.slice(at + 1) } : null;
}

export function checkChange(handle: Handle, layout: DocLayout, change: Decoded, author: ChangeAuthor): CheckResult {
  if (!author.canEdit) return { ok: false, code: 'read_only', message: 'this board is read-only for you' };
  const { actor, startOp, ops } = change;
  const end = startOp + ops.length;
  const createdHere = (objId: string): boolean => {
    const p = parseOpId(objId);
    return p !== null && p.actor === actor && p.counter >= startOp && p.counter < end;
  };
  // new shape object id → what this change sets on it
  const newShapes = new Map<string, { kind?: unknown; creator?: unknown }>();
  const deletedShapes: string[] = [];

  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.obj === '_root' || op.obj === layout.shapes) return invalid('the document root is fixed');
    const bucket = layout.bucketIds.get(op.obj);
    if (bucket !== undefined) {
      // D5: buckets hold shapes only, each in the bucket of its id
      if (typeof op.key !== 'string' || bucketOf(op.key) !== bucket) return invalid('shape in the wrong bucket');
      if (op.action === 'makeMap') newShapes.set(`${startOp + i}@${actor}`, {});
      else if (op.action !== 'del') return invalid('a shape must be a map');
      // replacing or deleting removes the shapes the op supersedes
      deletedShapes.push(...op.pred);
      continue;
    }
    const fresh = newShapes.get(op.obj);
    if (fresh) {
      if (op.key === 'kind') fresh.kind = op.action === 'set' ? op.value : undefined;
      if (op.key === 'creator') fresh.creator = op.action === 'set' ? op.value : undefined;
      continue;
    }
    // D8: the creator of an existing shape never changes
    if (op.key === 'creator' && !createdHere(op.obj)) return invalid('creator is immutable');
  }
  for (const s of newShapes.values()) {
    if (typeof s.kind !== 'string' || !SHAPE_KIND_SET.has(s.kind)) return invalid('unknown shape kind');
    if (s.creator !== author.userId) return invalid('creator must be the author');
  }
  // D6: deleteOwnOnly: only the owner deletes others' shapes; guests (user 0) cannot be told apart
  if (author.deleteOwnOnly && !author.isOwner && deletedShapes.length > 0) {
    for (const shapeId of deletedShapes) {
      const creator = handle.get(shapeId, 'creator');
      if (author.userId === 0 || creator !== author.userId) {
        return { ok: false, code: 'delete_own_only', message: 'only the creator may delete this object' };
      }
    }
  }
  return ok;
}
