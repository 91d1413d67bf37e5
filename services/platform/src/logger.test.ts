import { Writable } from 'node:stream';
import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import type { ContextManager } from '@opentelemetry/api';
import { createLogger } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('writes JSON with service, level label and ISO time', () => {
    const { lines, destination } = capture();
    createLogger({ service: 'boards', destination }).info({ boardId: 7 }, 'hello');
    expect(lines[0]).toMatchObject({ service: 'boards', level: 'info', msg: 'hello', boardId: 7 });
    expect(new Date(String(lines[0].time)).toISOString()).toBe(lines[0].time);
  });

  it('adds trace_id/span_id of the active span and nothing outside one', () => {
    const { lines, destination } = capture();
    const log = createLogger({ service: 'boards', destination });
    const spanContext = {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.SAMPLED,
    };
    // No SDK here: a minimal context manager whose active context holds a span context is enough
    // for trace.getActiveSpan(), which is what the mixin reads.
    const ctx = trace.setSpanContext(ROOT_CONTEXT, spanContext);
    const manager: ContextManager = {
      active: () => ctx,
      with: (_c, fn, thisArg, ...args) => fn.call(thisArg, ...args),
      bind: (_c, target) => target,
      enable() {
        return this;
      },
      disable() {
        return this;
      },
    };
    log.info('outside');
    context.setGlobalContextManager(manager);
    try {
      log.info('inside');
    } finally {
      context.disable();
    }
    expect(lines[0].trace_id).toBeUndefined();
    expect(lines[1]).toMatchObject({ trace_id: spanContext.traceId, span_id: spanContext.spanId });
  });

  it('redacts secrets', () => {
    const { lines, destination } = capture();
    createLogger({ service: 'auth', destination }).info({ input: { email: 'a@b.c', password: 'hunter2' } }, 'login');
    expect(JSON.stringify(lines[0])).not.toContain('hunter2');
    expect(lines[0]).toMatchObject({ input: { email: 'a@b.c' } });
  });
});
