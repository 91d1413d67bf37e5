/**
 * Per-person undo/redo (issue 13). Each local commit is one step holding the touched shapes'
 * records before and after; undoing reverts only what this person changed, field by field, so
 * other people's concurrent edits to other fields survive (last writer wins on a shared field,
 * as in Figma). The stacks live in memory beside the document, independent of the Automerge
 * instance, so they survive reconnects and D7 document drops.
 *
 * Host protocol: after every successful local commit call `record(before, after)`. For undo:
 *   const step = undo.undo(read); if (step && commitWithoutRecord(step.apply)) step.done();
 * The undo/redo commit itself is not recorded (it would clear redo); `done()` moves the step to
 * the other stack, so a refused commit (read-only, not ready) keeps it where it was.
 */
import { bucketOf } from '@wb/proto';
import type { ShapeRecord } from '@wb/proto';
import type { BoardDoc } from '../../realtime/boardDoc';
import { putShape, removeShape, toStored } from '../../realtime/boardDoc';

type Rec = ShapeRecord | null;
interface Entry {
  before: Rec;
  after: Rec;
}
/** one commit: shape id → its record before and after (null = absent) */
type Step = Map<string, Entry>;

/** an undo or redo ready to run: `apply` inside one change, then `done()` once it committed */
export interface UndoStep {
  readonly apply: (d: BoardDoc) => void;
  readonly done: () => void;
}

export class UndoManager {
  private readonly undos: Step[] = [];
  private readonly redos: Step[] = [];

  constructor(private readonly limit = 200) {}

  get canUndo(): boolean {
    return this.undos.length > 0;
  }
  get canRedo(): boolean {
    return this.redos.length > 0;
  }
  clear(): void {
    this.undos.length = 0;
    this.redos.length = 0;
  }

  record(before: ReadonlyMap<string, Rec>, after: ReadonlyMap<string, Rec>): void {
    const step: Step = new Map();
    for (const id of new Set([...before.keys(), ...after.keys()])) {
      const b = before.get(id) ?? null;
      const a = after.get(id) ?? null;
      if (changedFields(b, a).length || (b === null) !== (a === null)) step.set(id, { before: b, after: a });
    }
    if (!step.size) return;
    this.undos.push(step);
    if (this.undos.length > this.limit) this.undos.splice(0, this.undos.length - this.limit);
    this.redos.length = 0;
  }

  undo(current: (id: string) => ShapeRecord | null): UndoStep | null {
    return this.revert(this.undos, this.redos, current);
  }
  redo(current: (id: string) => ShapeRecord | null): UndoStep | null {
    return this.revert(this.redos, this.undos, current);
  }

  /**
   * Pop steps from `from` until one still has an effect (steps whose shapes others deleted are
   * dropped, so a shortcut never seems to do nothing); `done` moves its inverse to `to`.
   */
  private revert(from: Step[], to: Step[], current: (id: string) => ShapeRecord | null): UndoStep | null {
    while (from.length) {
      const step = from[from.length - 1]!;
      const ops: ((d: BoardDoc) => void)[] = [];
      const inverse: Step = new Map();
      for (const [id, { before, after }] of step) {
        const now = current(id);
        if (before === null) {
          // I created it: remove it (as it is now, so redo brings back others' edits too)
          if (!now) continue;
          ops.push((d) => void removeShape(d, id));
          inverse.set(id, { before: now, after: null });
        } else if (after === null) {
          // I deleted it: restore it
          if (now) continue;
          ops.push((d) => putShape(d, before));
          inverse.set(id, { before: null, after: before });
        } else {
          // an edit: someone else's delete wins (never resurrect)
          if (!now) continue;
          const fields = changedFields(before, after);
          if (!fields.some((k) => !sameValue(fieldOf(now, k), fieldOf(before, k)))) continue;
          ops.push((d) => setFields(d, id, before, fields));
          inverse.set(id, { before: after, after: before });
        }
      }
      if (!ops.length) {
        from.pop();
        continue;
      }
      let finished = false;
      return {
        apply: (d) => {
          for (const op of ops) op(d);
        },
        done: () => {
          if (finished) return;
          finished = true;
          const at = from.lastIndexOf(step);
          if (at >= 0) from.splice(at, 1);
          to.push(inverse);
          if (to.length > this.limit) to.splice(0, to.length - this.limit);
        },
      };
    }
    return null;
  }
}

const fieldOf = (s: ShapeRecord, k: string): unknown => (s as unknown as Record<string, unknown>)[k];

/** fields whose values differ between two records (both non-null), id excluded */
export function changedFields(a: Rec, b: Rec): string[] {
  if (!a || !b) return [];
  const out: string[] = [];
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
    if (k !== 'id' && !sameValue(fieldOf(a, k), fieldOf(b, k))) out.push(k);
  return out;
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  return false;
}

/**
 * Inside a change: set `fields` of shape `id` to their values in `to` (absent → deleted). Text
 * fields are set whole; other strings become ImmutableStrings, as `putShape` stores them.
 */
export function setFields(d: BoardDoc, id: string, to: ShapeRecord, fields: Iterable<string>): void {
  const raw = d.shapes![bucketOf(id)]![id];
  if (!raw) return;
  const stored = toStored(to);
  for (const k of fields) {
    if (k === 'id') continue;
    if (stored[k] === undefined) {
      if (k in raw) delete raw[k];
    } else raw[k] = stored[k];
  }
}

/** Inside a change: write only the fields in which `after` differs from `before` (a minimal edit). */
export function patchShape(d: BoardDoc, before: ShapeRecord, after: ShapeRecord): void {
  const fields = changedFields(before, after);
  if (fields.length) setFields(d, after.id, after, fields);
}
