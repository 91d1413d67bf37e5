/**
 * Node CPU per committed edit, in process, by board size: a Room holding a board of N strokes
 * (bench/board.ts), one author, 29 peers in sync and optionally one peer that never answers the
 * sync protocol (a stuck or very slow client, SPEC S7). Times only the server's side: the
 * author's CHANGES frame (prepared beforehand), ingest, and the tick that forwards it.
 *
 *   node --import tsx services/realtime/bench/edit.ts                  # 0, 5000, 20000 strokes
 *   node --import tsx services/realtime/bench/edit.ts --strokes 20000 --stuck 0
 *   node --import tsx services/realtime/bench/edit.ts --edit move      # move existing strokes
 *
 * `--edit add` (default) draws new strokes; `--edit move` moves existing ones (x, y), the path
 * where the node reads the touched shape to validate its record (SPEC D10).
 */
import { parseArgs } from 'node:util';
import { encodeListFrame, MSG } from '@wb/proto';
import type { PeerIdentity } from '../src/room/room';
import { Room } from '../src/room/room';
import { A, newHandle } from '../src/doc/automerge';
import { FakeClock, FakeSocket, MemoryJournal, silentLogger } from '../src/testing/fakes';
import { addShape, penStroke, TestClient } from '../src/testing/client';
import type { BoardDoc } from '../src/testing/client';
import { generateBoard } from './board';

const { values: args } = parseArgs({
  options: {
    strokes: { type: 'string', default: '0,5000,20000' },
    peers: { type: 'string', default: '29' },
    stuck: { type: 'string', default: '1' },
    edit: { type: 'string', default: 'add' },
  },
});
if (args.edit !== 'add' && args.edit !== 'move') throw new Error('--edit is add or move');
const SIZES = args.strokes.split(',').map(Number);
const PEERS = Number(args.peers);
const STUCK = Number(args.stuck);
const EDITS = 100;
const identity = (userId: number): PeerIdentity => ({
  userId,
  name: `u${userId}`,
  guest: false,
  access: 'edit',
  readOnlyReason: null,
});

/** join a TestClient and run the sync protocol to the end (frames delivered synchronously) */
function joinInSync(room: Room, client: TestClient, userId: number): FakeSocket {
  const socket = new FakeSocket();
  socket.onSend = (f) => client.receive(f);
  const ref: { peer?: ReturnType<Room['join']> } = {};
  const early: Uint8Array[] = [];
  client.attach((f) => (ref.peer ? room.receive(ref.peer, f) : early.push(f)), undefined, false);
  const peer = room.join(socket, identity(userId));
  ref.peer = peer;
  for (const f of early.slice(1)) room.receive(peer, f); // [0] is HELLO, the server layer's
  for (let i = 0; i < 10; i++) room.tick();
  if (!client.inSync) throw new Error('peer did not get in sync');
  return socket;
}

for (const strokes of SIZES) {
  const handle = newHandle();
  handle.applyChanges(generateBoard({ strokes }).changes.map((c) => c.bytes));
  const clock = new FakeClock();
  const room = new Room({
    boardId: 'b',
    ownerId: 1,
    deleteOwnOnly: false,
    handle,
    journal: new MemoryJournal(),
    clock,
    log: silentLogger(),
  });
  const start = handle.save();
  const author = new TestClient(1);
  author.doc = A.load<BoardDoc>(start);
  const authorSocket = joinInSync(room, author, 1);
  const sockets = [authorSocket];
  for (let i = 0; i < PEERS; i++) {
    const peer = new TestClient(2 + i);
    peer.doc = A.load<BoardDoc>(start);
    sockets.push(joinInSync(room, peer, 2 + i));
  }
  for (let i = 0; i < STUCK; i++) room.join(new FakeSocket(), identity(100 + i)); // never answers
  // from here on nothing is decoded by clients: only the server's work is timed
  for (const s of sockets) s.onSend = () => undefined;

  const points = Array.from({ length: 160 }, (_, i) => i);
  const frames: Uint8Array[] = [];
  let doc = author.doc;
  // the board's strokes, spread over its buckets, to move (an empty board: strokes drawn here)
  const existing: [string, string][] = [];
  for (const [bucket, shapes] of Object.entries((doc as { shapes: Record<string, object> }).shapes))
    for (const id of Object.keys(shapes)) existing.push([bucket, id]);
  for (let i = 0; i < EDITS; i++) {
    if (args.edit === 'move' && existing.length > 0) {
      const [bucket, id] = existing[(i * 7919) % existing.length]!;
      doc = A.change(doc, (d) => {
        const s = d.shapes[bucket][id];
        s.x = i + 0.5;
        s.y = i + 0.25;
      });
    } else doc = A.change(doc, (d) => addShape(d, `n${i}`, penStroke(`n${i}`, 1, points)));
    frames.push(encodeListFrame(MSG.CHANGES, [A.getLastLocalChange(doc)!]));
  }
  const authorPeer = room.peerList()[0]!;
  let ingest = 0;
  let tick = 0;
  for (const f of frames) {
    const a = performance.now();
    room.receive(authorPeer, f);
    const b = performance.now();
    room.tick();
    ingest += b - a;
    tick += performance.now() - b;
    clock.t += 16;
  }
  process.stdout.write(
    `${String(strokes).padStart(6)} strokes, ${PEERS} peers in sync, ${STUCK} stuck, ${args.edit}: ` +
      `${((ingest + tick) / EDITS).toFixed(2)} ms per edit (ingest ${(ingest / EDITS).toFixed(2)}, tick ${(tick / EDITS).toFixed(2)})\n`,
  );
}
