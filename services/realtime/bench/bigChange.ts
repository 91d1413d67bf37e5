/**
 * Big edits on a big board (SPEC L4): M existing strokes of an N-stroke board (bench/board.ts,
 * loaded from a snapshot as a node holds it) moved (x and y of each: 2·M overwrites).
 *
 *   node --import tsx services/realtime/bench/bigChange.ts                  # one change each: phases on the node
 *   node --import tsx services/realtime/bench/bigChange.ts --room           # one change through a Room (L4 refuses)
 *   node --import tsx services/realtime/bench/bigChange.ts --room --split 25 --moves 4000
 *
 * Without `--room`: decode, the document checks (D10), Automerge's `applyChanges` and the encode
 * of the forwarded frame, timed apart. With `--room`: what the node spends on the author's CHANGES
 * frame(s) in a Room and what the author gets back; `--split K` sends the edit as changes of K
 * moves (what the web editor does), reporting the total and the slowest change.
 */
import { parseArgs } from 'node:util';
import { encodeListFrame, MSG, RT_LIMITS } from '@wb/proto';
import { Room } from '../src/room/room';
import { A, decodeChange, layoutOf, loadHandle, newHandle } from '../src/doc/automerge';
import { checkChange } from '../src/doc/checks';
import { FakeClock, FakeSocket, MemoryJournal, silentLogger } from '../src/testing/fakes';
import { generateBoard } from './board';

const { values: args } = parseArgs({
  options: {
    strokes: { type: 'string', default: '20000' },
    moves: { type: 'string', default: '250,500,1000,2000,4000' },
    room: { type: 'boolean', default: false },
    split: { type: 'string', default: '0' },
  },
});
const STROKES = Number(args.strokes);
const MOVES = args.moves.split(',').map(Number);
const SPLIT = Number(args.split);
const AUTHOR = 'f'.repeat(32);

const snapshot = (() => {
  const h = newHandle();
  h.applyChanges(generateBoard({ strokes: STROKES }).changes.map((c) => c.bytes));
  const bytes = h.saveNoCompress();
  h.free();
  return bytes;
})();
type Shapes = Record<string, Record<string, { x: number; y: number }>>;
const author0 = A.load<{ shapes: Shapes }>(snapshot, { actor: AUTHOR });
const ids: [string, string][] = [];
for (const [bucket, b] of Object.entries(author0.shapes)) for (const id of Object.keys(b)) ids.push([bucket, id]);

/** `moves` strokes moved, as changes of `per` moves each (one change: per = moves) */
function moveChanges(moves: number, per: number): Uint8Array[] {
  if (ids.length < moves) throw new Error(`board has ${ids.length} strokes, fewer than ${moves}`);
  let doc = A.clone(author0);
  const out: Uint8Array[] = [];
  for (let from = 0; from < moves; from += per) {
    doc = A.change(doc, (d) => {
      for (let i = from; i < Math.min(moves, from + per); i++) {
        const [bucket, id] = ids[(i * 7919) % ids.length]!;
        d.shapes[bucket]![id]!.x += 10;
        d.shapes[bucket]![id]!.y += 10;
      }
    });
    out.push(A.getLastLocalChange(doc)!);
  }
  return out;
}

const ms = (t: number): string => `${t.toFixed(0).padStart(6)} ms`;
for (const moves of MOVES) {
  const handle = loadHandle(snapshot);
  const changes = moveChanges(moves, SPLIT > 0 ? SPLIT : moves);
  if (args.room) {
    const room = new Room({
      boardId: 'b',
      ownerId: 1,
      deleteOwnOnly: false,
      handle,
      journal: new MemoryJournal(),
      clock: new FakeClock(),
      log: silentLogger(),
    });
    const socket = new FakeSocket();
    const peer = room.join(socket, { userId: 1, name: 'a', guest: false, access: 'own', readOnlyReason: null });
    socket.take();
    let total = 0;
    let worst = 0;
    for (const c of changes) {
      const t0 = performance.now();
      room.receive(peer, encodeListFrame(MSG.CHANGES, [c]));
      room.tick();
      const t = performance.now() - t0;
      total += t;
      worst = Math.max(worst, t);
    }
    const errors = socket
      .take()
      .filter((f) => f[0] === MSG.ERROR)
      .map((f) => Buffer.from(f.subarray(1)).toString());
    process.stdout.write(
      `${STROKES} strokes, ${moves} moved in ${changes.length} change(s) through a Room ` +
        `(L4: ≤ ${RT_LIMITS.maxChangeOverwrites} overwrites): total ${ms(total)}, slowest change ${ms(worst)}; ` +
        `${errors.length ? errors.join(', ') : 'all applied'}\n`,
    );
    room.dispose();
    continue;
  }
  const layout = layoutOf(handle)!;
  const bytes = changes[0]!;
  const t0 = performance.now();
  const change = decodeChange(bytes);
  const t1 = performance.now();
  const verdict = checkChange(handle, layout, change, {
    userId: 1,
    canEdit: true,
    isOwner: true,
    deleteOwnOnly: false,
  });
  const t2 = performance.now();
  if (!verdict.ok) throw new Error(verdict.message);
  handle.applyChanges([bytes]);
  const t3 = performance.now();
  encodeListFrame(MSG.CHANGES_S, [bytes]);
  const t4 = performance.now();
  process.stdout.write(
    `${STROKES} strokes, ${moves} moved in one change (${change.ops.length} ops, ${(bytes.length / 1024).toFixed(0)} KiB): ` +
      `decode ${ms(t1 - t0)}, checks ${ms(t2 - t1)}, applyChanges ${ms(t3 - t2)}, encode ${ms(t4 - t3)}\n`,
  );
  handle.free();
}
