/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/**
 * Offline edits and dead connections (realtime SPEC K2–K4): the board client against the in-memory
 * node with a manual clock. The IndexedDB store itself runs in real Chromium (web/e2e
 * offline.e2e.spec.ts); here its in-memory twin, same contract.
 */
import { readFileSync } from 'node:fs';
import * as A from '@automerge/automerge/slim';
import { RT_HEARTBEAT, SHAPE_STYLE_DEFAULTS } from '@wb/proto';
import type { PenShape } from '@wb/proto';
import { BoardClient } from './boardClient';
import { putShape } from './boardDoc';
import { MemoryChangeStore } from './changeStore';
import { MemoryServer } from './testing/memoryServer';
import { FakeTimers } from './testing/fakeTimers';

beforeAll(async () => {
  await A.initializeWasm(readFileSync(require.resolve('@automerge/automerge/automerge.wasm')));
});

async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}

function pen(id: string, creator: number): PenShape {
  return {
    id,
    kind: 'pen',
    creator,
    z: 'a0',
    x: 5,
    y: 6,
    strokeColor: SHAPE_STYLE_DEFAULTS.strokeColor,
    strokeWidth: SHAPE_STYLE_DEFAULTS.strokeWidth,
    points: new Uint8Array(new Float32Array([0, 0, 10, 10]).buffer),
  };
}

function open(server: MemoryServer, opts: { store?: MemoryChangeStore; timers?: FakeTimers } = {}) {
  const timers = opts.timers ?? new FakeTimers();
  const client = new BoardClient({
    transport: server.transport(7),
    userId: 7,
    timers,
    random: () => 0.5,
    store: opts.store ?? null,
  });
  client.start();
  return { client, timers };
}

/** advance the fake clock in steps, letting frames (microtasks) through between them */
async function pass(timers: FakeTimers, ms: number, step = 250): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    timers.advance(Math.min(step, ms - t));
    await settle(4);
  }
}

describe('K4: unsent changes outlive the tab', () => {
  it('a change made while cut off is kept; a new tab of the same person sends it (same hash, not doubled)', async () => {
    const server = new MemoryServer();
    const store = new MemoryChangeStore();
    const first = open(server, { store });
    await settle();
    expect(first.client.getSnapshot().status).toBe('live');
    server.closeAll(1006); // the network is gone
    await settle();
    const hash = first.client.change((d) => putShape(d, pen('drawn-offline', 7)))!;
    expect(first.client.getSnapshot().saveState).toBe('offline');
    expect(first.client.hasUnsent()).toBe(true);
    expect([...store.rows.keys()]).toEqual([hash]);
    first.client.stop(); // the tab is closed before the network returns
    expect(server.shapeIds()).toEqual([]);

    const second = open(server, { store });
    await settle();
    await pass(second.timers, 500);
    expect(second.client.getSnapshot()).toMatchObject({ status: 'live', saveState: 'saved', pending: 0 });
    expect(server.shapeIds()).toEqual(['drawn-offline']);
    expect(A.getHeads(server.doc)).toContain(hash); // the same change, not a copy
    expect(store.rows.size).toBe(0); // SAVED removed it

    // opened once more (the store is empty now): nothing is sent again
    const received = server.received.length;
    const third = open(server, { store });
    await settle();
    expect(third.client.getSnapshot().status).toBe('live');
    expect(server.received.length).toBe(received);
    expect(server.shapeIds()).toEqual(['drawn-offline']);
  });

  it('a stored change the node already has is acknowledged once and dropped from the store', async () => {
    const server = new MemoryServer();
    server.autoSave = false; // applied, never acknowledged: the tab closes before SAVED
    const store = new MemoryChangeStore();
    const first = open(server, { store });
    await settle();
    const hash = first.client.change((d) => putShape(d, pen('s1', 7)))!;
    await settle();
    expect(server.shapeIds()).toEqual(['s1']);
    first.client.stop();
    expect(store.rows.has(hash)).toBe(true);

    server.autoSave = true;
    const second = open(server, { store });
    await settle();
    await pass(second.timers, 500);
    expect(second.client.getSnapshot()).toMatchObject({ status: 'live', saveState: 'saved' });
    expect(server.shapeIds()).toEqual(['s1']);
    expect(store.rows.size).toBe(0);
  });

  it('changes saved while connected leave nothing behind', async () => {
    const server = new MemoryServer();
    const store = new MemoryChangeStore();
    const { client } = open(server, { store });
    await settle();
    client.change((d) => putShape(d, pen('s1', 7)));
    await settle();
    expect(client.hasUnsent()).toBe(false);
    expect(store.rows.size).toBe(0);
  });
});

describe('K2: a silent connection is given up', () => {
  it('pings after clientIdleMs of silence; a live node answers and the connection stays', async () => {
    const server = new MemoryServer();
    const { client, timers } = open(server);
    await settle();
    await pass(timers, RT_HEARTBEAT.clientDeadMs * 2);
    expect(server.pings).toBeGreaterThanOrEqual(2);
    expect(client.getSnapshot().status).toBe('live');
    expect(server.livePeers).toHaveLength(1);
  });

  it('a frozen node (no frames, no close) is given up after clientDeadMs; the chip says offline, then it reconnects', async () => {
    const server = new MemoryServer();
    const { client, timers } = open(server);
    await settle();
    server.freeze();
    const frozenAt = timers.now();
    client.change((d) => putShape(d, pen('while-frozen', 7)));
    await settle();
    expect(client.getSnapshot().saveState).toBe('saving');
    let offlineAt: number | null = null;
    client.subscribe((snap) => {
      if (snap.saveState === 'offline') offlineAt ??= timers.now();
    });
    await pass(timers, RT_HEARTBEAT.clientDeadMs + 1000);
    expect(server.pings).toBeGreaterThanOrEqual(1);
    expect(offlineAt).not.toBeNull(); // the chip said offline, not saving, once it was given up
    expect(offlineAt! - frozenAt).toBeLessThanOrEqual(RT_HEARTBEAT.clientDeadMs + 1000);
    await pass(timers, 2000);
    expect(client.getSnapshot()).toMatchObject({ status: 'live', saveState: 'saved' });
    expect(server.shapeIds()).toEqual(['while-frozen']);
  });
});

describe('K3: reconnect at once when the network may be back', () => {
  it('wake() (online, focus) skips the backoff wait', async () => {
    const server = new MemoryServer();
    const { client, timers } = open(server);
    await settle();
    server.refuseWith = 1006;
    for (let i = 0; i < 5; i++) {
      server.closeAll(1006);
      await settle();
      timers.advance(timers.pending[0] ?? 0);
      await settle();
    }
    expect(timers.pending[0]).toBeGreaterThan(1000); // backing off
    server.refuseWith = null;
    client.wake();
    await settle();
    expect(client.getSnapshot().status).toBe('live'); // no clock advanced: at once
  });

  it('networkLost() (offline) gives the socket up at once; a probe on wake() replaces a dead-looking one', async () => {
    const server = new MemoryServer();
    const { client, timers } = open(server);
    await settle();
    client.networkLost();
    await settle();
    expect(client.getSnapshot().status).toBe('reconnecting');
    client.wake();
    await settle();
    expect(client.getSnapshot().status).toBe('live');

    // a connection that looks live but is frozen: the probe's PING gets nothing back
    server.freeze();
    await pass(timers, 1200, 100);
    const pingsBefore = server.pings;
    client.wake();
    expect(server.pings).toBe(pingsBefore); // sent on a microtask
    await settle();
    expect(server.pings).toBe(pingsBefore + 1);
    await pass(timers, RT_HEARTBEAT.clientProbeMs + 100, 100);
    expect(client.getSnapshot().status).not.toBe('live');
    await pass(timers, 1000, 100);
    expect(client.getSnapshot().status).toBe('live');
  });
});
