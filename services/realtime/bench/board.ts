/**
 * A realistic big board for load benchmarks: pen strokes exactly as the web client writes them
 * (`penStroke` in src/testing/client.ts: ImmutableString kind/z, numbers, 50–100 points packed
 * by `packPoints`, SPEC D3), one change per stroke, made by a handful of actors that see
 * each other's strokes now and then, plus moves (x/y) and deletes of own strokes.
 *
 * The changes are made on raw handles with `putObjectFromHydrate`, the path `A.change` takes for an
 * object assignment: byte-identical changes (same hashes) at a fraction of the cost of the
 * high-level API (checked by `sameAsHighLevel`). Deterministic for a given seed.
 */
import { bucketOf } from '@wb/proto';
import { A, genesisChange, layoutOf } from '../src/doc/automerge';
import type { Handle } from '../src/doc/automerge';
import { addShape, penStroke } from '../src/testing/client';
import type { BoardDoc } from '../src/testing/client';

export interface BoardOptions {
  /** strokes left on the board at the end */
  strokes: number;
  actors?: number;
  /** share of strokes later moved (one change each) */
  moveShare?: number;
  /** share of strokes drawn and later deleted (not counted in `strokes`) */
  deleteShare?: number;
  /** every actor catches up with the others after this many strokes */
  syncEvery?: number;
  seed?: number;
}
export interface GeneratedBoard {
  /** every change in causal order, genesis first */
  changes: { hash: string; bytes: Uint8Array }[];
  strokes: number;
  moves: number;
  deletes: number;
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x1_0000_0000;
  };
}

/** A wandering pen path of 50–100 points (what a hand-drawn stroke looks like). */
function strokePoints(rnd: () => number): number[] {
  const n = 50 + Math.floor(rnd() * 51);
  let x = rnd() * 4000;
  let y = rnd() * 3000;
  const pts: number[] = [];
  for (let k = 0; k < n; k++) {
    x += rnd() * 6 - 3;
    y += rnd() * 6 - 3;
    pts.push(x, y);
  }
  return pts;
}

export function generateBoard(opts: BoardOptions): GeneratedBoard {
  const rnd = rng(opts.seed ?? 42);
  const actors = opts.actors ?? 5;
  const moveShare = opts.moveShare ?? 0.05;
  const deleteShare = opts.deleteShare ?? 0.03;
  const syncEvery = opts.syncEvery ?? 40;
  const drawn = Math.round(opts.strokes * (1 + deleteShare));
  const genesis = genesisChange();
  const changes: { hash: string; bytes: Uint8Array }[] = [{ hash: A.decodeChange(genesis).hash, bytes: genesis }];
  const handles: Handle[] = [];
  const pending: Uint8Array[][] = [];
  const own: string[][] = [];
  for (let a = 0; a < actors; a++) {
    const h = A.getBackend(A.init<BoardDoc>({ actor: (a + 1).toString(16).padStart(32, 'a') }));
    h.applyChanges([genesis]);
    handles.push(h);
    pending.push([]);
    own.push([]);
  }
  const layout = layoutOf(handles[0]!)!;
  const bucketObj = new Map([...layout.bucketIds].map(([obj, name]) => [name, obj]));
  let time = 1_700_000_000;
  let moves = 0;
  let deletes = 0;
  const commit = (a: number): void => {
    const h = handles[a]!;
    h.commit(null, time++);
    const bytes = h.getLastLocalChange()!;
    changes.push({ hash: A.decodeChange(bytes).hash, bytes });
    for (let b = 0; b < actors; b++) if (b !== a) pending[b]!.push(bytes);
  };
  const moveTarget = Math.round(opts.strokes * moveShare);
  const deleteTarget = drawn - opts.strokes;
  for (let i = 0; i < drawn; i++) {
    const a = i % actors;
    const h = handles[a]!;
    const id = `${(i + 1).toString(36).padStart(4, '0')}${a}${Math.floor(rnd() * 1e9).toString(36)}`;
    h.putObjectFromHydrate(
      bucketObj.get(bucketOf(id))!,
      id,
      penStroke(id, a + 1, strokePoints(rnd), `a${i.toString(36).padStart(4, '0')}`),
    );
    commit(a);
    own[a]!.push(id);
    // spread moves and deletes evenly over the drawing session
    if (deletes < (deleteTarget * (i + 1)) / drawn && own[a]!.length > 3) {
      const victim = own[a]!.splice(Math.floor(rnd() * (own[a]!.length - 1)), 1)[0]!;
      h.delete(bucketObj.get(bucketOf(victim))!, victim);
      commit(a);
      deletes++;
    }
    if (moves < (moveTarget * (i + 1)) / drawn && own[a]!.length > 0) {
      const target = own[a]![Math.floor(rnd() * own[a]!.length)]!;
      const shape = h.getWithType(bucketObj.get(bucketOf(target))!, target)![1] as string;
      h.put(shape, 'x', Math.round(rnd() * 4000) + 0.5);
      h.put(shape, 'y', Math.round(rnd() * 3000) + 0.5);
      commit(a);
      moves++;
    }
    if (i % syncEvery === syncEvery - 1) {
      for (let b = 0; b < actors; b++) {
        handles[b]!.applyChanges(pending[b]!);
        pending[b] = [];
      }
    }
  }
  for (const h of handles) h.free();
  return { changes, strokes: drawn - deletes, moves, deletes };
}

/** The raw-handle path makes the same change bytes as the client's `A.change` (same hash). */
export function sameAsHighLevel(): boolean {
  const actor = 'ab'.repeat(16);
  const points = [1.5, 2.25, 3, 4];
  let doc = A.init<BoardDoc>({ actor });
  [doc] = A.applyChanges(doc, [genesisChange()]);
  doc = A.change(doc, { time: 7 }, (d: BoardDoc) => addShape(d, 'sX', penStroke('sX', 3, points, 'a1')));
  const h = A.getBackend(A.init<BoardDoc>({ actor }));
  h.applyChanges([genesisChange()]);
  const layout = layoutOf(h)!;
  const bucket = [...layout.bucketIds].find(([, name]) => name === bucketOf('sX'))![0];
  h.putObjectFromHydrate(bucket, 'sX', penStroke('sX', 3, points, 'a1'));
  h.commit(null, 7);
  const same = A.decodeChange(h.getLastLocalChange()!).hash === A.decodeChange(A.getLastLocalChange(doc)!).hash;
  h.free();
  return same;
}
