/**
 * Test doubles for the gateway's component tests: an in-memory bus whose "services" are plain
 * functions, and a log sink. (Compiled with the package so integration tests can reuse them.)
 */
import { Writable } from 'node:stream';
import type { Context } from '@opentelemetry/api';
import { AppError } from '@wb/proto';
import type { RequestActor, ServiceName } from '@wb/proto';
import { createLogger } from '@wb/platform';
import type { Logger, RequestOptions, ServiceReply } from '@wb/platform';
import type { GatewayBus } from '../http/state';

export type FakeHandler = (input: unknown, actor: RequestActor) => unknown;

export interface FakeCall {
  service: ServiceName;
  operation: string;
  input: unknown;
  actor: RequestActor;
  /** the trace context the caller handed over */
  parent?: Context;
}

/** A handler's return value is the reply data, unless it returns `reply(...)` for headers. */
const REPLY = Symbol('reply');
export function reply<T>(
  data: T,
  extra: { notice?: string; redirect?: string } = {},
): ServiceReply<T> & { [REPLY]: true } {
  return { data, ...extra, [REPLY]: true };
}

export class FakeBus implements GatewayBus {
  readonly calls: FakeCall[] = [];
  private readonly handlers = new Map<string, FakeHandler>();
  constructor(readonly prefix = 'fake.') {}

  on(service: ServiceName, operation: string, handler: FakeHandler): this {
    this.handlers.set(`${service}.${operation}`, handler);
    return this;
  }

  async request<T = unknown>(
    service: ServiceName,
    operation: string,
    input: unknown,
    actor: RequestActor,
    opts?: RequestOptions,
  ): Promise<ServiceReply<T>> {
    this.calls.push({ service, operation, input, actor, parent: opts?.parent });
    const handler = this.handlers.get(`${service}.${operation}`);
    // Like the real bus: nobody listening → ERR_SERVICE_UNAVAILABLE.
    if (!handler) throw new AppError('ERR_SERVICE_UNAVAILABLE');
    const out = await handler(input, actor);
    if (out && typeof out === 'object' && REPLY in out) {
      const { [REPLY]: _marker, ...rest } = out as ServiceReply<T> & { [REPLY]: true };
      return rest;
    }
    return { data: out as T };
  }

  /** As the real bus: the data arrives as the JSON bytes the service would have sent. */
  async requestRaw(
    service: ServiceName,
    operation: string,
    input: unknown,
    actor: RequestActor,
    opts?: RequestOptions,
  ): Promise<ServiceReply<Uint8Array>> {
    const decoded = await this.request(service, operation, input, actor, opts);
    return { ...decoded, data: Buffer.from(JSON.stringify(decoded.data ?? null)) };
  }

  callsOf(service: ServiceName, operation: string): FakeCall[] {
    return this.calls.filter((c) => c.service === service && c.operation === operation);
  }
}

/** A logger whose JSON lines are kept in memory (assert on what was, and was not, logged). */
export function memoryLogger(level = 'info'): {
  log: Logger;
  lines: () => Record<string, unknown>[];
  text: () => string;
} {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  const log = createLogger({ service: 'gateway', level, destination: sink });
  const text = (): string => chunks.join('');
  const lines = (): Record<string, unknown>[] =>
    text()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { log, lines, text };
}
