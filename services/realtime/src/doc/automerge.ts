/**
 * The raw Automerge handle (never a materialised document, architecture brief fact 2) and the
 * board's genesis change.
 *
 * `@automerge/automerge` does not export the wasm `SyncState` constructor. The high-level
 * generateSyncMessage() imports a JS sync state into a wasm one and hands it to the handle; we
 * catch one fresh wasm state there once and `clone()` it for every peer (SPEC S1).
 */
import type * as AutomergeApi from '@automerge/automerge' with { 'resolution-mode': 'import' };
import { BOARD_DOC_SCHEMA_VERSION, bucketOf, BUCKET_NAMES, packPoints } from '@wb/proto';

/**
 * The package is ESM-typed but ships a CommonJS build (its "require" export): load that build and
 * type it with the ESM declarations.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const A = require('@automerge/automerge') as typeof AutomergeApi;

export type Doc<T> = AutomergeApi.Doc<T>;
export type Handle = ReturnType<typeof A.getBackend>;
export type RawSyncState = Parameters<Handle['generateSyncMessage']>[0];

/** Fixed actor and time: every node builds byte-identical genesis changes (same hash). */
export const GENESIS_ACTOR = '00000000000000000000000000000000';

let genesis: Uint8Array | undefined;
/** root = {schema, shapes: {"00"…"ff": {}}} as one change. */
export function genesisChange(): Uint8Array {
  if (!genesis) {
    const doc = A.change(
      A.init<Record<string, unknown>>({ actor: GENESIS_ACTOR }),
      { time: 0 },
      (d: Record<string, unknown>) => {
        d.schema = new A.Int(BOARD_DOC_SCHEMA_VERSION);
        const shapes: Record<string, object> = {};
        for (const b of BUCKET_NAMES) shapes[b] = {};
        d.shapes = shapes;
      },
    );
    genesis = A.getLastLocalChange(doc)!;
  }
  return genesis;
}

export function newHandle(): Handle {
  return A.getBackend(A.init());
}
/** Load saved bytes into a fresh handle (no materialised document is ever built). */
export function loadHandle(snapshot: Uint8Array): Handle {
  const h = newHandle();
  h.loadIncremental(snapshot);
  return h;
}

/**
 * Prepare the document engine before the node takes boards, so that its first board loads as fast
 * as later ones (bench/load.ts --fresh-process: a 20k-stroke board's first load took ~700 ms in a
 * fresh process against ~250 ms in a warm node):
 * - reserve wasm memory in one step: Automerge's allocator otherwise grows it page group by page
 *   group while loading a big board, and V8 collects garbage at every step. Wasm memory never
 *   shrinks; a node holding boards uses it anyway (an open 20k-stroke board takes ~40–50 MiB);
 * - run the load path (snapshot, then a journal tail) on small made-up boards, so V8 has
 *   optimised the wasm code that the first real load would otherwise run unoptimised.
 * Returns the milliseconds it took.
 */
export function warmUpDocEngine({ memoryMb = 128, rounds = 5, strokes = 300 } = {}): number {
  const started = performance.now();
  if (memoryMb > 0) {
    // the bytes are copied into wasm memory (one allocation), refused as a document, then freed
    const h = newHandle();
    try {
      h.loadIncremental(new Uint8Array(memoryMb * 2 ** 20));
    } catch {
      // expected: zeros are not a document
    }
    h.free();
  }
  const points = packPoints(Array.from({ length: 120 }, (_, i) => i * 1.5));
  for (let r = 0; r < rounds; r++) {
    const board = newHandle();
    board.applyChanges([genesisChange()]);
    const layout = layoutOf(board)!;
    const bucketId = new Map([...layout.bucketIds].map(([id, name]) => [name, id]));
    let snapshot: Uint8Array = new Uint8Array(0);
    const tail: Uint8Array[] = [];
    for (let i = 0; i < strokes; i++) {
      const id = `warm${r}-${i}`;
      const shape = board.putObject(bucketId.get(bucketOf(id))!, id, {});
      board.put(shape, 'kind', 'pen', 'str');
      board.put(shape, 'z', `a${i}`, 'str');
      board.put(shape, 'x', i, 'f64');
      board.put(shape, 'points', points, 'bytes');
      board.commit(null, 0);
      // as a real load: a snapshot, then a journal tail after it
      if (i === strokes - 51) snapshot = board.saveNoCompress();
      else if (i > strokes - 51) tail.push(board.getLastLocalChange()!);
    }
    board.free();
    const loaded = loadHandle(snapshot);
    loaded.loadIncremental(Buffer.concat(tail));
    loaded.free();
  }
  return performance.now() - started;
}

let template: RawSyncState | undefined;
export function newSyncState(): RawSyncState {
  if (!template) {
    const doc = A.init();
    const handle = A.getBackend(doc);
    const original = handle.generateSyncMessage.bind(handle);
    handle.generateSyncMessage = (state: RawSyncState) => {
      template = state.clone();
      return original(state);
    };
    A.generateSyncMessage(doc, A.initSyncState());
    if (!template) throw new Error('could not capture an Automerge sync state');
  }
  return template.clone();
}

/** object ids of the root's shapes map and its buckets, read once per loaded handle */
export interface DocLayout {
  shapes: string;
  /** bucket object id → bucket name */
  bucketIds: Map<string, string>;
}
export function layoutOf(handle: Handle): DocLayout | null {
  const shapes = handle.getWithType('_root', 'shapes');
  if (!shapes || shapes[0] !== 'map') return null;
  const shapesId = shapes[1] as string;
  const bucketIds = new Map<string, string>();
  for (const name of BUCKET_NAMES) {
    const b = handle.getWithType(shapesId, name);
    if (!b || b[0] !== 'map') return null;
    bucketIds.set(b[1] as string, name);
  }
  return { shapes: shapesId, bucketIds };
}

export const decodeChange = A.decodeChange;
export const decodeSyncMessage = A.decodeSyncMessage;

/** Automerge chunk: 4 magic + 4 checksum bytes, 1 type byte (0 = document), ULEB128 length, data. */
const CHUNK_TYPE_OFFSET = 8;
const DOCUMENT_CHUNK = 0;

/** Split concatenated chunks (Automerge may pack several changes into one item). */
export function splitChunks(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let o = 0;
  while (o < bytes.length) {
    let p = o + CHUNK_TYPE_OFFSET + 1;
    let len = 0;
    let shift = 0;
    for (;;) {
      if (p >= bytes.length || shift > 35) throw new RangeError('truncated chunk header');
      const b = bytes[p++]!;
      len += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if ((b & 0x80) === 0) break;
    }
    const end = p + len;
    if (end > bytes.length) throw new RangeError('truncated chunk');
    out.push(bytes.subarray(o, end));
    o = end;
  }
  return out;
}

/**
 * The individual changes inside a sync message's `changes`: an item may be several change chunks
 * back to back, or a document-format chunk (Automerge packs many changes that way). A document
 * chunk is loaded into a fork and only the changes `handle` lacks are taken from it, so each
 * change is checked on its own before it is applied (S3).
 */
export function expandSyncChanges(handle: Handle, items: Uint8Array[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const item of items) {
    for (const chunk of splitChunks(item)) {
      if (chunk[CHUNK_TYPE_OFFSET] === DOCUMENT_CHUNK) {
        // the chunk's changes depend on history the server has: load it into a fork (cheap,
        // measured 7 ms at 20k shapes) and take what the fork gained
        const aside = handle.fork();
        try {
          aside.loadIncremental(chunk);
          out.push(...handle.getChangesAdded(aside)); // changes in `aside` that `handle` lacks
        } finally {
          aside.free();
        }
      } else out.push(chunk);
    }
  }
  return out;
}
