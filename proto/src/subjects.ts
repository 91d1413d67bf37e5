/**
 * NATS subject naming. Every subject may carry a deployment prefix (NATS_PREFIX, e.g. "t42.")
 * so that test runs and several local stacks can share one NATS server without crossing.
 *   request/reply: <prefix>svc.<service>.<operation>      (queue group = service name)
 *   domain events: <prefix>evt.<service>.<entity>.<verb>.v<N>  (JetStream, outbox-published)
 *   broadcasts:    <prefix>bc.<service>.<what>              (core NATS, fire-and-forget)
 */
export const SERVICE_NAMES = [
  'auth',
  'boards',
  'files',
  'courses',
  'assignments',
  'billing',
  'teams',
  'tutors',
  'insights',
  'realtime',
  'calls',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export function serviceSubject(prefix: string, service: ServiceName, operation: string): string {
  return `${prefix}svc.${service}.${operation}`;
}
export function eventSubject(prefix: string, eventType: string): string {
  return `${prefix}evt.${eventType}`;
}
export function broadcastSubject(prefix: string, service: ServiceName, what: string): string {
  return `${prefix}bc.${service}.${what}`;
}
/** The JetStream stream holding every domain event of one deployment. */
export function eventStreamName(prefix: string): string {
  return `${prefix.replace(/[^A-Za-z0-9_-]/g, '_')}EVENTS`;
}

/** Headers carried on every service request (besides W3C trace context). */
export const HEADER_CONTEXT = 'Wb-Context';
/** Reply header: a notice code the gateway passes to the browser as `x-notice`. */
export const HEADER_NOTICE = 'Wb-Notice';
/** Reply header: a path the gateway passes to the browser as `x-redirect`. */
export const HEADER_REDIRECT = 'Wb-Redirect';
/** Request header ('1'): the caller can take a gzip-compressed reply (the gateway, for a browser that accepts gzip). */
export const HEADER_ACCEPT_GZIP = 'Wb-Accept-Gzip';
/** Reply header ('gzip'): the reply bytes are gzip-compressed JSON. */
export const HEADER_ENCODING = 'Wb-Encoding';

/** Who is asking: set by the gateway from the session, trusted by services. userId 0 = guest. */
export interface RequestActor {
  userId: number;
  /** sha256 hex of the session token, when logged in */
  sessionId?: string;
  ip?: string;
  country?: string;
  userAgent?: string;
  locale?: string;
}
