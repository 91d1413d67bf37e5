/**
 * Domain events: the envelope every event on the stream has, and the catalogue of event types
 * with their payload schemas. Event type = "<service>.<entity>.<verb>.v<N>"; subject = "evt." + type.
 */
import { z } from 'zod';
import { ROLES } from './settings';

export interface EventEnvelope<T = unknown> {
  /** outbox id; also the JetStream Nats-Msg-Id, so a re-published event is de-duplicated */
  id: string;
  type: string;
  occurredAt: string;
  data: T;
}

export const EVENT_SCHEMAS = {
  'auth.user.created.v1': z.object({ userId: z.number().int(), email: z.string(), name: z.string() }),
  'auth.user.email_verified.v1': z.object({ userId: z.number().int(), email: z.string() }),
  'auth.user.role_changed.v1': z.object({
    userId: z.number().int(),
    role: z.enum(ROLES),
    previousRole: z.enum(ROLES).nullable(),
  }),
  'auth.user.terminated.v1': z.object({ userId: z.number().int() }),
} as const;
export type EventType = keyof typeof EVENT_SCHEMAS;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_SCHEMAS)[T]>;
