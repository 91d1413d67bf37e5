/**
 * NATS: one connection per process (`connectBus`), request/reply endpoints through the official
 * services API (`createService`: subject <prefix>svc.<service>.<op>, queue group = service name),
 * typed errors carried as AppError bodies, W3C trace context and the request actor in headers.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { z } from 'zod';
import type { RequestActor, ServiceName } from '@wb/proto';
import type { Logger } from './logger';

export interface Bus {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  jsm(): Promise<JetStreamManager>;
  /** deployment prefix (NATS_PREFIX) */
  readonly prefix: string;
  /** stream holding domain events for this prefix (created on connect if missing: subjects <prefix>evt.>) */
  readonly eventStream: string;
  /**
   * Request an operation of a service. Sends JSON `input`, the actor and the active trace context
   * as headers; resolves with the decoded reply and its notice/redirect headers; rejects with an
   * AppError carrying the service's code (ERR_SERVICE_UNAVAILABLE when nobody answers,
   * ERR_TIMEOUT after `timeoutMs`, default 5000).
   */
  request<T = unknown>(service: ServiceName, operation: string, input: unknown, actor: RequestActor, opts?: { timeoutMs?: number }): Promise<ServiceReply<T>>;
  /** drain subscriptions and close (graceful shutdown) */
  drain(): Promise<void>;
}
export interface ServiceReply<T> {
  data: T;
  notice?: string;
  redirect?: string;
}

export interface BusOptions {
  url: string;
  prefix: string;
  /** connection name shown in NATS monitoring */
  name: string;
  log: Logger;
}
export async function connectBus(_opts: BusOptions): Promise<Bus> {
  throw new Error('not implemented');
}

/** What a handler receives besides its validated input. */
export interface RequestContext {
  actor: RequestActor;
  /** child logger bound to the operation and trace */
  log: Logger;
  /** ask the gateway to show an info notice (spec §7 notice header), e.g. 'VERIFICATION_EMAIL_SENT' */
  notice(code: string): void;
  /** ask the gateway to send the browser to a path (spec §7 redirect header) */
  redirect(path: string): void;
}

export interface Endpoint<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** operation name: the last part of the subject, e.g. 'login', 'settings.get' */
  operation: string;
  input: I;
  /** reply schema; replies are checked in development/test and documented */
  output: O;
  handler(input: z.infer<I>, ctx: RequestContext): Promise<z.infer<O>>;
}
/** Helper that keeps the input/output types of one endpoint tied together. */
export function endpoint<I extends z.ZodType, O extends z.ZodType>(e: Endpoint<I, O>): Endpoint<I, O> {
  return e;
}

export interface ServiceOptions {
  name: ServiceName;
  version: string;
  description: string;
  log: Logger;
  endpoints: Endpoint[];
}
export interface RunningService {
  /** stop taking requests, finish in-flight ones */
  stop(): Promise<void>;
}
/**
 * Register endpoints with the NATS services API. Invalid input → ERR_INVALID_INPUT with the
 * offending fields; AppError → its code; anything else → ERR_UNKNOWN (logged with stack, never sent).
 * Every request runs in a server span that continues the caller's trace.
 */
export async function createService(_bus: Bus, _opts: ServiceOptions): Promise<RunningService> {
  throw new Error('not implemented');
}

/** Publish/subscribe broadcasts (core NATS, fire-and-forget) with JSON payloads. */
export function publishBroadcast(_bus: Bus, _subject: string, _data: unknown): void {
  throw new Error('not implemented');
}
export function subscribeBroadcast(_bus: Bus, _subject: string, _onMessage: (data: unknown) => void): { unsubscribe(): void } {
  throw new Error('not implemented');
}
