/**
 * One socket write per event-loop turn instead of one per NATS message.
 *
 * nats.js flushes its outbound buffer in a microtask after each message, so messages produced in
 * separate I/O callbacks (one per incoming HTTP request in the gateway, one per request in a
 * service) each cost a write syscall. On loopback that syscall also runs the receiver's TCP path:
 * profiled, it was ~38 % of the gateway's busy CPU at 1,500 req/s. Corking the socket until
 * setImmediate (after the poll phase has run every ready callback) turns the writes of one turn
 * into a single writev; a lone message is delayed by nothing but the rest of that turn.
 *
 * The transport is not public API: this patches the prototype of the connection's transport
 * (NodeTransport of @nats-io/transport-node; every reconnect makes a new instance of it) and
 * checks the shape it relies on, so a library change that breaks it fails loudly at connect
 * (and in natsWrites.test.ts), never silently.
 */
import type { NatsConnection } from '@nats-io/nats-core';

interface TransportShape {
  socket?: { cork(): void; uncork(): void; writableCorked: number; destroyed: boolean };
  _send: (this: TransportShape, frame: Uint8Array) => Promise<void>;
}

const PATCHED = Symbol.for('wb.natsCoalescedWrites');

export function coalesceNatsWrites(nc: NatsConnection): void {
  const transport = (nc as unknown as { protocol?: { transport?: TransportShape } }).protocol?.transport;
  const proto = transport && (Object.getPrototypeOf(transport) as TransportShape & { [PATCHED]?: true });
  if (!proto || typeof proto._send !== 'function' || !transport.socket || typeof transport.socket.cork !== 'function') {
    throw new Error('nats.js transport changed: cannot coalesce writes (see services/platform/src/natsWrites.ts)');
  }
  if (proto[PATCHED]) return;
  const send = proto._send;
  proto._send = function (this: TransportShape, frame: Uint8Array): Promise<void> {
    const socket = this.socket;
    if (socket && !socket.destroyed && socket.writableCorked === 0) {
      socket.cork();
      setImmediate(() => socket.uncork());
    }
    return send.call(this, frame);
  };
  proto[PATCHED] = true;
}
