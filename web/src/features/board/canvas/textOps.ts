/**
 * Text edits inside a change. Text fields (`text`, `latex`) are collaborative Automerge text
 * (plain strings in @automerge/automerge 3): updating one with A.updateText turns the new value
 * into per-character insertions and deletions, so two people typing in the same note at once both
 * keep their characters instead of one overwriting the other.
 */
import * as A from '@automerge/automerge/slim';
import { bucketOf } from '@wb/proto';
import type { BoardDoc } from '../realtime/boardDoc';

/**
 * Inside A.change: set a shape's `text` to `text`, by a character diff when the field is already
 * collaborative text, else (missing, or an atomic string of an older record) by creating it.
 * False when the shape does not exist (someone removed it meanwhile).
 */
export function setShapeText(d: BoardDoc, id: string, text: string, field: 'text' | 'latex' = 'text'): boolean {
  const bucket = bucketOf(id);
  const shape = d.shapes?.[bucket]?.[id];
  if (!shape) return false;
  if (typeof shape[field] === 'string') {
    if (shape[field] !== text) A.updateText(d as A.Doc<unknown>, ['shapes', bucket, id, field], text);
  } else {
    shape[field] = text;
  }
  return true;
}
