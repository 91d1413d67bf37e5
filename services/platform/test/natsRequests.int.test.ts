/**
 * NATS requests without an Error per answer (src/natsRequests.ts) against the real NATS server:
 * answered requests build no RequestError; no responders, timeouts and a closed connection still
 * reject as nats.js does.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { skipSettledRequestErrors } from '../src/natsRequests';
import { DEFAULT_TEST_NATS_URL } from '../src/testing/stack';

// request.js reads RequestError from this module object at each use (the package's exports map
// hides the path, an absolute one does not): swap in a counting subclass
// eslint-disable-next-line @typescript-eslint/no-require-imports
const errorsModule = require(join(dirname(require.resolve('@nats-io/nats-core')), 'errors.js')) as {
  RequestError: new (message?: string, options?: ErrorOptions) => Error;
};
const OriginalRequestError = errorsModule.RequestError;
let built = 0;
class CountingRequestError extends OriginalRequestError {
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    built++;
  }
}

const subject = `t${process.pid}x${Date.now()}.requests`;
let nc: NatsConnection;

beforeAll(async () => {
  errorsModule.RequestError = CountingRequestError;
  skipSettledRequestErrors();
  nc = await connect({ servers: DEFAULT_TEST_NATS_URL, noAsyncTraces: true });
  nc.subscribe(`${subject}.echo`, { callback: (_e, m) => m.respond(m.data) });
  await nc.flush();
});

afterAll(async () => {
  errorsModule.RequestError = OriginalRequestError;
  await nc?.close();
});

describe('NATS requests without an Error per answer', () => {
  it('100 answered requests build no RequestError (nats.js alone builds one each)', async () => {
    built = 0;
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => nc.request(`${subject}.echo`, `m${i}`, { timeout: 2000 })),
    );
    expect(replies.map((r) => r.string())).toEqual(Array.from({ length: 100 }, (_, i) => `m${i}`));
    expect(built).toBe(0);
  });

  it('patching twice is harmless', async () => {
    skipSettledRequestErrors();
    expect((await nc.request(`${subject}.echo`, 'again', { timeout: 2000 })).string()).toBe('again');
  });

  it('no responders and timeouts still reject', async () => {
    await expect(nc.request(`${subject}.nobody`, 'x', { timeout: 2000 })).rejects.toThrow(/no responders/i);
    nc.subscribe(`${subject}.silent`, { callback: () => undefined });
    await nc.flush();
    await expect(nc.request(`${subject}.silent`, 'x', { timeout: 100 })).rejects.toThrow(/timeout/i);
  });

  it('a request pending when the connection closes is rejected', async () => {
    const other = await connect({ servers: DEFAULT_TEST_NATS_URL, noAsyncTraces: true });
    other.subscribe(`${subject}.slow`, { callback: () => undefined });
    await other.flush();
    const pending = other.request(`${subject}.slow`, 'x', { timeout: 10_000 });
    await other.close();
    await expect(pending).rejects.toThrow();
  });
});
