/**
 * Coalesced NATS writes (src/natsWrites.ts) against the real NATS server: messages published in
 * separate callbacks of one event-loop turn leave in one socket write, in order, and still arrive
 * after a reconnect (a new transport instance).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { coalesceNatsWrites } from '../src/natsWrites';
import { DEFAULT_TEST_NATS_URL } from '../src/testing/stack';

const subject = `t${process.pid}x${Date.now()}.writes`;
let sender: NatsConnection;
let receiver: NatsConnection;

interface SocketLike {
  _write(...args: unknown[]): unknown;
  _writev(...args: unknown[]): unknown;
}
const socketOf = (nc: NatsConnection): SocketLike =>
  (nc as unknown as { protocol: { transport: { socket: SocketLike } } }).protocol.transport.socket;

/** counts the writes the socket hands to the OS (one _write or one _writev each) */
function countWrites(socket: SocketLike): { count(): number } {
  let n = 0;
  for (const name of ['_write', '_writev'] as const) {
    const original = socket[name].bind(socket);
    socket[name] = (...args: unknown[]) => {
      n++;
      return original(...args);
    };
  }
  return { count: () => n };
}

async function receive(count: number, publish: () => void): Promise<string[]> {
  const got: string[] = [];
  const sub = receiver.subscribe(subject, { max: count });
  await receiver.flush();
  const done = (async () => {
    for await (const m of sub) got.push(m.string());
  })();
  publish();
  await done;
  return got;
}

beforeAll(async () => {
  sender = await connect({ servers: DEFAULT_TEST_NATS_URL, noAsyncTraces: true, reconnectTimeWait: 50 });
  receiver = await connect({ servers: DEFAULT_TEST_NATS_URL });
  coalesceNatsWrites(sender);
});

afterAll(async () => {
  await sender?.close();
  await receiver?.close();
});

describe('coalesced NATS writes', () => {
  // setImmediate callbacks queued together all run in one check phase (each followed by its
  // microtasks, where nats.js flushes); the uncork queued by the first runs in the next turn
  it('50 messages from 50 callbacks of one turn leave in one write, in order', async () => {
    const writes = countWrites(socketOf(sender));
    const got = await receive(50, () => {
      for (let i = 0; i < 50; i++) setImmediate(() => sender.publish(subject, `m${i}`));
    });
    expect(got).toEqual(Array.from({ length: 50 }, (_, i) => `m${i}`));
    expect(writes.count()).toBe(1);
  });

  it('patching twice is harmless, and a request/reply round trip still works', async () => {
    coalesceNatsWrites(sender);
    const sub = receiver.subscribe(`${subject}.echo`, { callback: (_e, m) => m.respond(m.data) });
    await receiver.flush();
    const reply = await sender.request(`${subject}.echo`, 'ping', { timeout: 2000 });
    expect(reply.string()).toBe('ping');
    sub.unsubscribe();
  });

  it('a reconnect gets a new transport that coalesces too', async () => {
    const reconnected = (async () => {
      for await (const s of sender.status()) if (s.type === 'reconnect') return;
    })();
    await sender.reconnect();
    await reconnected;
    await sender.flush(); // let the reconnect's own traffic (subscription replay, PING) settle
    const writes = countWrites(socketOf(sender));
    const got = await receive(20, () => {
      for (let i = 0; i < 20; i++) setImmediate(() => sender.publish(subject, `r${i}`));
    });
    expect(got).toEqual(Array.from({ length: 20 }, (_, i) => `r${i}`));
    expect(writes.count()).toBe(1);
  });
});
