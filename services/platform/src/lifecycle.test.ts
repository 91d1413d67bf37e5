import { Writable } from 'node:stream';
import { createLogger } from './logger';
import { createLifecycle } from './lifecycle';

function quietLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  return { log: createLogger({ service: 'test', level: 'debug', destination }), lines };
}

describe('lifecycle', () => {
  it('runs steps in reverse registration order and exits 0', async () => {
    const { log } = quietLogger();
    const exit = jest.fn();
    const lc = createLifecycle(log, { handleSignals: false, exit });
    const order: string[] = [];
    lc.onShutdown('close pool', async () => void order.push('pool'));
    lc.onShutdown('drain nats', async () => void order.push('nats'));
    lc.onShutdown('not ready', async () => void order.push('health'));
    await lc.shutdown('test');
    expect(order).toEqual(['health', 'nats', 'pool']);
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('bounds each step by the timeout, keeps going and exits 1', async () => {
    const { log, lines } = quietLogger();
    const exit = jest.fn();
    const lc = createLifecycle(log, { handleSignals: false, exit, stepTimeoutMs: 50 });
    const order: string[] = [];
    lc.onShutdown('last', async () => void order.push('last'));
    lc.onShutdown('hangs', () => new Promise<void>(() => undefined));
    lc.onShutdown('first', async () => void order.push('first'));
    const started = Date.now();
    await lc.shutdown('test');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(order).toEqual(['first', 'last']);
    expect(exit).toHaveBeenCalledWith(1);
    expect(
      lines.some(
        (l) =>
          l.step === 'hangs' &&
          l.level === 'error' &&
          String((l.err as { message: string }).message).includes('timed out'),
      ),
    ).toBe(true);
  });

  it('counts a throwing step (sync or async) as failed without skipping the rest', async () => {
    const { log } = quietLogger();
    const exit = jest.fn();
    const lc = createLifecycle(log, { handleSignals: false, exit });
    const ran: string[] = [];
    lc.onShutdown('a', async () => void ran.push('a'));
    lc.onShutdown('sync throw', () => {
      throw new Error('boom');
    });
    lc.onShutdown('async throw', async () => {
      throw new Error('boom');
    });
    await lc.shutdown('test');
    expect(ran).toEqual(['a']);
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('runs the steps once however often shutdown is called', async () => {
    const { log } = quietLogger();
    const exit = jest.fn();
    const lc = createLifecycle(log, { handleSignals: false, exit });
    const step = jest.fn(async () => undefined);
    lc.onShutdown('once', step);
    await Promise.all([lc.shutdown('a'), lc.shutdown('b')]);
    await lc.shutdown('c');
    expect(step).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledTimes(1);
  });

  it('exits 1 when asked to (fatal errors)', async () => {
    const { log } = quietLogger();
    const exit = jest.fn();
    const lc = createLifecycle(log, { handleSignals: false, exit });
    lc.onShutdown('ok', async () => undefined);
    await lc.shutdown('uncaughtException', 1);
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('starts on SIGTERM and forces exit on a second signal', async () => {
    const { log } = quietLogger();
    const exit = jest.fn();
    const before = process.listenerCount('SIGTERM');
    const lc = createLifecycle(log, { exit });
    let release!: () => void;
    const started = new Promise<void>((resolveStarted) => {
      lc.onShutdown('slow', () => {
        resolveStarted();
        return new Promise<void>((r) => (release = r));
      });
    });
    process.emit('SIGTERM', 'SIGTERM');
    await started;
    expect(exit).not.toHaveBeenCalled();
    process.emit('SIGINT', 'SIGINT');
    expect(exit).toHaveBeenCalledWith(1);
    release();
    await lc.shutdown('again');
    // handlers are removed once shutdown has finished
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
