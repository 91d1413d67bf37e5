/**
 * No Error object per answered NATS request.
 *
 * nats.js settles a request (`RequestOne.resolver`) and then calls its own `cancel()`, which
 * unsubscribes the reply and rejects the already-settled promise with `new RequestError(...)`: a
 * no-op, but the Error still captures a stack trace. Profiled under `make bench`, that was 6.6 %
 * of the gateway's busy CPU. While a request is settling, `cancel()` here only stops the timer
 * and drops the reply subscription; an explicit cancel (or a timeout) still rejects as before.
 *
 * `RequestOne` comes from the package's `./internal` export; its methods are checked when
 * connectBus applies the patch, and natsRequests.int.test.ts checks the behaviour against the real
 * server, so a library change fails loudly, never silently.
 */
import { RequestOne } from '@nats-io/nats-core/internal';

interface RequestShape {
  timer?: { cancel(): void };
  mux: { cancel(r: unknown): void };
  resolver: (this: RequestShape, err: Error | null, msg: unknown) => void;
  cancel: (this: RequestShape, err?: Error) => void;
  [SETTLING]?: boolean;
}

const SETTLING = Symbol('wb.settling');
const PATCHED = Symbol.for('wb.natsRequestsWithoutErrors');

export function skipSettledRequestErrors(): void {
  const proto = RequestOne.prototype as unknown as RequestShape & { [PATCHED]?: true };
  if (typeof proto.resolver !== 'function' || typeof proto.cancel !== 'function') {
    throw new Error('nats.js RequestOne changed: see services/platform/src/natsRequests.ts');
  }
  if (proto[PATCHED]) return;
  const { resolver, cancel } = proto;
  proto.resolver = function (err, msg) {
    this[SETTLING] = true;
    try {
      resolver.call(this, err, msg);
    } finally {
      this[SETTLING] = false;
    }
  };
  proto.cancel = function (err) {
    if (!this[SETTLING] || err) return cancel.call(this, err);
    // settled already: what cancel() does, minus rejecting the settled promise with a new Error
    this.timer?.cancel();
    this.mux.cancel(this);
  };
  proto[PATCHED] = true;
}
