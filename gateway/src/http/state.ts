/** Per-request state the gateway's middlewares share, kept on the request under a private symbol. */
import type { Context } from '@opentelemetry/api';
import type { Request } from 'express';
import type { Bus } from '@wb/platform';

/** What the gateway needs of the bus: tests pass an in-memory fake. */
export type GatewayBus = Pick<Bus, 'prefix' | 'request' | 'requestRaw'>;

export interface ResolvedSession {
  sessionId: string;
  userId: number;
  /** epoch ms */
  expiresAt: number;
}

export interface RequestState {
  /** monotonic start time (ns) for the duration metric */
  start: bigint;
  cookies: Record<string, string>;
  /** the session token from the cookie, when there is one */
  token?: string;
  session: ResolvedSession | null;
  /** anonymous CSRF binding (visitors without a session) */
  anonId?: string;
  /** whether the request's CSRF cookie was minted for the current binding */
  csrfCookieValid?: boolean;
  /** sessions could not be resolved (Redis and auth unreachable): API routes answer with it */
  sessionError?: Error;
  /** metric label: the route pattern, never the raw path (bounded cardinality) */
  routeLabel?: string;
  traceId?: string;
  /** the request span's context: the parent of the bus requests it makes */
  traceContext?: Context;
}

const STATE = Symbol('wb.gateway.state');
type WithState = Request & { [STATE]?: RequestState };

export function setState(req: Request, state: RequestState): void {
  (req as WithState)[STATE] = state;
}

/** the state when observe has run (error paths may meet requests it never saw) */
export function peekState(req: Request): RequestState | undefined {
  return (req as WithState)[STATE];
}

export function getState(req: Request): RequestState {
  const st = (req as WithState)[STATE];
  if (!st) throw new Error('request state missing: observe middleware not mounted');
  return st;
}
