/**
 * S9 render snapshots: a board's shapes as plain records, for painting before the Automerge
 * document they come from is loaded (the client replaces them with that document's shapes once it
 * is). The realtime node makes one per catch-up DOC in a worker thread; the browser decodes it.
 *
 *   payload = u32 json length (big-endian) + JSON array of records + byte area
 *   RENDER frame = gzip(payload)   (the browser inflates it with DecompressionStream)
 *
 * A record is a shape as stored (id added, atomic strings as plain strings); a byte field (stroke
 * points, pressures) is `{"$b": [offset, length]}` into the byte area, so the packed points cost
 * their own size instead of a JSON array of numbers.
 */
import { FrameError } from './realtime';

export type RenderRecord = Record<string, unknown> & { id: string };

export function encodeRenderSnapshot(records: readonly RenderRecord[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  const plain = records.map((r) => {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(r)) {
      const v = r[k];
      if (v instanceof Uint8Array) {
        out[k] = { $b: [offset, v.length] };
        chunks.push(v);
        offset += v.length;
      } else out[k] = v;
    }
    return out;
  });
  const json = new TextEncoder().encode(JSON.stringify(plain));
  const out = new Uint8Array(4 + json.length + offset);
  new DataView(out.buffer).setUint32(0, json.length);
  out.set(json, 4);
  let o = 4 + json.length;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** The records of a payload; byte fields are views into it. Throws FrameError when unreadable. */
export function decodeRenderSnapshot(payload: Uint8Array): RenderRecord[] {
  if (payload.length < 4) throw new FrameError('render snapshot too short');
  const jsonLength = new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getUint32(0);
  if (4 + jsonLength > payload.length) throw new FrameError('render snapshot: JSON longer than the frame');
  const bytes = payload.subarray(4 + jsonLength);
  let records: unknown;
  try {
    records = JSON.parse(new TextDecoder().decode(payload.subarray(4, 4 + jsonLength)));
  } catch {
    throw new FrameError('render snapshot: malformed JSON');
  }
  if (!Array.isArray(records)) throw new FrameError('render snapshot: not a list');
  for (const r of records as unknown[]) {
    if (typeof r !== 'object' || r === null || typeof (r as { id?: unknown }).id !== 'string')
      throw new FrameError('render snapshot: a record without an id');
    const rec = r as Record<string, unknown>;
    for (const k of Object.keys(rec)) {
      const v = rec[k] as { $b?: unknown } | null;
      if (typeof v !== 'object' || v === null || !Array.isArray(v.$b)) continue;
      const [off, len] = v.$b as unknown[];
      if (!Number.isInteger(off) || !Number.isInteger(len) || (off as number) < 0 || (len as number) < 0)
        throw new FrameError('render snapshot: a malformed byte field');
      if ((off as number) + (len as number) > bytes.length)
        throw new FrameError('render snapshot: a byte field out of range');
      rec[k] = bytes.subarray(off as number, (off as number) + (len as number));
    }
  }
  return records as RenderRecord[];
}
