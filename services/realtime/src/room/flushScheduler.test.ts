/**
 * SPEC S8 (flush scheduling) and P1 (group commit) with fake timers and a fake monotonic clock:
 * a quiet room flushes at once, frames of one event-loop turn and a burst are batched, a busy
 * room's flush rate is capped by its window (longer on a loaded node), journal appends chain.
 */
import { decodeEphemeralBatch, encodeEphemeral, EPHEMERAL_KIND, MSG, splitFrame } from '@wb/proto';
import { Room } from './room';
import type { JournalEntry, Peer, PeerIdentity, RoomJournal } from './room';
import { FlushScheduler } from './flushScheduler';
import type { FlushMode, FlushPolicy, FlushTimers } from './flushScheduler';
import { FakeClock, FakeSocket, freshBoardHandle, silentLogger } from '../testing/fakes';
import { addShape, penStroke, TestClient } from '../testing/client';

/** Immediates run at the end of the current "event-loop turn" (runImmediates); timeouts on advance(). */
class FakeTimers implements FlushTimers {
  now = 0;
  private immediates = new Set<{ fn: () => void }>();
  private timeouts = new Set<{ fn: () => void; at: number }>();
  setImmediate(fn: () => void): unknown {
    const h = { fn };
    this.immediates.add(h);
    return h;
  }
  clearImmediate(h: unknown): void {
    this.immediates.delete(h as { fn: () => void });
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const h = { fn, at: this.now + ms };
    this.timeouts.add(h);
    return h;
  }
  clearTimeout(h: unknown): void {
    this.timeouts.delete(h as { fn: () => void; at: number });
  }
  get pendingTimeouts(): number[] {
    return [...this.timeouts].map((t) => t.at - this.now);
  }
  runImmediates(): void {
    while (this.immediates.size > 0) {
      const batch = [...this.immediates];
      this.immediates.clear();
      for (const h of batch) h.fn();
    }
  }
  /** move the clock forward, firing due timeouts in order (each followed by its immediates) */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const next = [...this.timeouts].filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timeouts.delete(next);
      this.now = Math.max(this.now, next.at);
      next.fn();
      this.runImmediates();
    }
    this.now = end;
  }
}

/** A journal whose appends complete when the test says so (an append "in flight"). */
class GatedJournal implements RoomJournal {
  batches: string[][] = [];
  private waiting: (() => void)[] = [];
  append(entries: JournalEntry[]): Promise<void> {
    this.batches.push(entries.map((e) => e.hash));
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  get inFlight(): number {
    return this.waiting.length;
  }
  commitAll(): void {
    for (const r of this.waiting.splice(0)) r();
  }
}

const editor = (userId: number): PeerIdentity => ({
  userId,
  name: `u${userId}`,
  guest: false,
  access: 'edit',
  readOnlyReason: null,
});
// costFactor 0: the room times its flushes with the real clock, which a loaded CI machine slows down
// (a 2 ms flush would widen the window to 16 ms); the test of that rule sets it itself
const POLICY: FlushPolicy = { quietMs: 8, minDelayMs: 4, maxDelayMs: 16, loadLow: 0.5, loadHigh: 0.85, costFactor: 0 };

function setup(opts: { load?: () => number; policy?: Partial<FlushPolicy> } = {}) {
  const timers = new FakeTimers();
  const journal = new GatedJournal();
  const flushes: { mode: FlushMode; at: number }[] = [];
  const ref: { room?: Room } = {};
  const scheduler = new FlushScheduler({
    flush: (mode) => {
      flushes.push({ mode, at: timers.now });
      ref.room!.flush(mode);
    },
    persist: () => void ref.room!.flushPersist(),
    timers,
    now: () => timers.now,
    load: opts.load,
    policy: { ...POLICY, ...opts.policy },
  });
  const room = new Room({
    boardId: 'b1',
    ownerId: 1,
    deleteOwnOnly: false,
    handle: freshBoardHandle(),
    journal,
    clock: new FakeClock(),
    log: silentLogger(),
    scheduler,
  });
  ref.room = room;
  /** a raw peer: its socket keeps what it is sent */
  const peer = (userId: number): { peer: Peer; socket: FakeSocket } => {
    const socket = new FakeSocket();
    return { peer: room.join(socket, editor(userId)), socket };
  };
  const batches = (socket: FakeSocket) =>
    socket
      .take()
      .filter((f) => splitFrame(f).type === MSG.EPHEMERAL_BATCH)
      .map((f) => decodeEphemeralBatch(splitFrame(f).payload));
  const cursor = (p: Peer, x: number) => room.receive(p, encodeEphemeral(EPHEMERAL_KIND.CURSOR, Uint8Array.of(x)));
  /** a protocol client in sync with the room; frames reach it synchronously */
  const client = (userId: number): { client: TestClient; socket: FakeSocket; peer: Peer } => {
    const c = new TestClient(userId);
    const socket = new FakeSocket();
    socket.onSend = (f) => c.receive(f);
    const ref: { peer?: Peer } = {};
    const early: Uint8Array[] = [];
    c.attach((f) => (ref.peer ? room.receive(ref.peer, f) : early.push(f)));
    ref.peer = room.join(socket, editor(userId));
    for (const f of early.slice(1)) room.receive(ref.peer, f); // [0] is HELLO (the server layer's)
    timers.runImmediates();
    expect(c.inSync).toBe(true);
    return { client: c, socket, peer: ref.peer };
  };
  return { room, timers, journal, scheduler, flushes, peer, client, batches, cursor };
}

describe('flush scheduling (S8)', () => {
  it('S8: a quiet room flushes at once, after the frames of the same event-loop turn', () => {
    const { timers, flushes, peer, batches, cursor } = setup();
    const a = peer(2);
    const b = peer(3);
    const c = peer(4);
    timers.advance(100);
    for (const s of [a, b, c]) s.socket.take();
    cursor(a.peer, 1);
    cursor(b.peer, 2); // read in the same turn: same flush
    expect(batches(c.socket)).toEqual([]); // nothing before the turn ends
    timers.runImmediates();
    expect(flushes).toEqual([{ mode: 'immediate', at: 100 }]);
    const got = batches(c.socket);
    expect(got).toHaveLength(1);
    expect(got[0]!.map((e) => [e.peerId, [...e.data]])).toEqual([
      [a.peer.id, [1]],
      [b.peer.id, [2]],
    ]);
    expect(timers.pendingTimeouts).toEqual([]);
  });

  it('S8/E1: a burst in a busy room is batched into one flush at the end of its window', () => {
    const { timers, flushes, peer, batches, cursor } = setup();
    const peers = [2, 3, 4, 5].map(peer);
    const watcher = peer(9);
    timers.advance(100);
    cursor(peers[0]!.peer, 0);
    timers.runImmediates(); // quiet: at once
    watcher.socket.take();
    // the burst starts 1 ms later: the room is no longer quiet, a 4 ms window opens
    timers.advance(1);
    for (let i = 0; i < 12; i++) {
      cursor(peers[i % 4]!.peer, i);
      timers.runImmediates();
      timers.advance(0.25);
    }
    expect(flushes.map((f) => f.mode)).toEqual(['immediate']);
    timers.advance(4);
    expect(flushes.map((f) => f.mode)).toEqual(['immediate', 'batched']);
    expect(flushes[1]!.at).toBe(105); // 4 ms after the first item of the burst, not later
    const got = batches(watcher.socket);
    expect(got).toHaveLength(1);
    // E1: the latest cursor per peer
    expect(got[0]!.map((e) => [...e.data][0])).toEqual([8, 9, 10, 11]);
  });

  it('S8: a continuous stream is capped at one flush per window; no item waits longer than the window', () => {
    const { timers, flushes, peer, cursor } = setup();
    const peers = Array.from({ length: 30 }, (_, i) => peer(i + 2));
    const arrivals: number[] = [];
    const waited: number[] = [];
    const orig = flushes.push.bind(flushes);
    flushes.push = (...f) => {
      for (const t of arrivals.splice(0)) waited.push(f[0]!.at - t);
      return orig(...f);
    };
    // one cursor every 0.5 ms for 200 ms (30 peers at ~67 Hz)
    for (let i = 0; i < 400; i++) {
      arrivals.push(timers.now);
      cursor(peers[i % 30]!.peer, i % 256);
      timers.runImmediates();
      timers.advance(0.5);
    }
    timers.advance(20);
    expect(flushes.length).toBeLessThanOrEqual(200 / 4 + 1);
    expect(flushes.length).toBeGreaterThanOrEqual(200 / 4.5 - 1);
    expect(Math.max(...waited)).toBeLessThanOrEqual(4);
  });

  it('S8: on a loaded node the window grows to maxDelayMs (never beyond), and with the room’s own flush cost', () => {
    let load = 0;
    const { scheduler, timers, flushes, peer, cursor } = setup({ load: () => load, policy: { costFactor: 8 } });
    expect(scheduler.delayMs()).toBe(4);
    load = 0.675; // halfway between loadLow and loadHigh
    expect(scheduler.delayMs()).toBeCloseTo(10);
    load = 1;
    expect(scheduler.delayMs()).toBe(16);
    const peers = [2, 3, 4].map(peer);
    for (let i = 0; i < 400; i++) {
      cursor(peers[i % 3]!.peer, 1);
      timers.runImmediates();
      timers.advance(0.5);
    }
    expect(flushes.length).toBeLessThanOrEqual(200 / 16 + 1);
    // a room whose flush took 1.5 ms waits at least 8 × that on an idle node
    load = 0;
    scheduler.flushed(1.5);
    expect(scheduler.delayMs()).toBe(12);
    scheduler.flushed(10);
    expect(scheduler.delayMs()).toBe(16);
  });

  it('S8: a committed change in a room busy with cursors leaves at once; a second one right after waits', () => {
    const { timers, flushes, peer, client, cursor } = setup();
    const a = client(2).client;
    const watcher = client(4);
    watcher.socket.onSend = null;
    const b = peer(3);
    timers.advance(100);
    flushes.length = 0;
    cursor(b.peer, 1);
    timers.runImmediates();
    timers.advance(1);
    cursor(b.peer, 2); // opens a 4 ms window
    expect(timers.pendingTimeouts).toEqual([4]);
    watcher.socket.take();
    a.edit((d) => addShape(d, 's1', penStroke('s1', 2, [0, 0, 1, 1])));
    timers.runImmediates();
    expect(flushes.map((f) => f.mode)).toEqual(['immediate', 'immediate']);
    expect(timers.pendingTimeouts).toEqual([]); // the window's flush was this one
    const types = watcher.socket.take().map((f) => splitFrame(f).type);
    expect(types).toContain(MSG.CHANGES_S);
    expect(types).toContain(MSG.EPHEMERAL_BATCH); // the waiting cursor went with it
    timers.advance(1);
    a.edit((d) => addShape(d, 's2', penStroke('s2', 2, [2, 2, 3, 3])));
    timers.runImmediates();
    expect(flushes).toHaveLength(2);
    timers.advance(4);
    expect(flushes.map((f) => f.mode)).toEqual(['immediate', 'immediate', 'batched']);
  });

  it('S8: the housekeeping tick leaves flushing to the scheduler; tick() still flushes everything (tests)', () => {
    const { room, timers, flushes, peer, batches, cursor } = setup();
    const a = peer(2);
    const b = peer(3);
    timers.advance(100);
    cursor(a.peer, 1);
    timers.runImmediates();
    b.socket.take();
    timers.advance(1);
    cursor(a.peer, 2);
    room.housekeep();
    expect(batches(b.socket)).toEqual([]);
    expect(timers.pendingTimeouts).toEqual([4]); // one window, not a second flush
    room.tick(); // flushes now and cancels the scheduled one
    expect(batches(b.socket)).toHaveLength(1);
    expect(timers.pendingTimeouts).toEqual([]);
    expect(flushes).toHaveLength(1);
  });

  it('E3: a batch holding only one peer’s entries is not echoed back to that peer', () => {
    const { timers, peer, batches, cursor } = setup();
    const a = peer(2);
    const b = peer(3);
    timers.advance(100);
    for (const s of [a, b]) s.socket.take();
    cursor(a.peer, 1);
    timers.runImmediates();
    expect(batches(a.socket)).toEqual([]);
    expect(batches(b.socket)).toHaveLength(1);
  });

  it('P1/P2: journal appends are group commits — at once, then what arrived meanwhile in one append', async () => {
    const { timers, journal, client } = setup();
    const a = client(2).client;

    const h1 = a.edit((d) => addShape(d, 's1', penStroke('s1', 2, [0, 0, 1, 1])));
    expect(journal.batches).toEqual([]); // after this turn's reads
    timers.runImmediates();
    expect(journal.batches).toEqual([[h1]]);
    // three edits while that append is in flight: no second append yet
    const later = [2, 3, 4].map((i) => a.edit((d) => addShape(d, `s${i}`, penStroke(`s${i}`, 2, [i, i]))));
    timers.runImmediates();
    expect(journal.batches).toHaveLength(1);
    journal.commitAll();
    await new Promise((r) => setImmediate(r));
    expect(a.savedHashes).toEqual(new Set([h1])); // SAVED as soon as the append committed
    timers.runImmediates();
    expect(journal.batches).toEqual([[h1], later]); // the next append right after, all three in it
    journal.commitAll();
    await new Promise((r) => setImmediate(r));
    expect(a.savedHashes).toEqual(new Set([h1, ...later]));
    timers.runImmediates();
    expect(journal.batches).toHaveLength(2);
  });
});
