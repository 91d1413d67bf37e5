/** The boards service's collaboration-minutes counter over NATS, as the room meters need it. */
import { z } from 'zod';
import { subscribeBroadcast } from '@wb/platform';
import type { Bus } from '@wb/platform';
import { collaborationUsageSchema, EVENT_SCHEMAS, eventSubject } from '@wb/proto';
import type { CollaborationSpan, CollaborationUsage } from '@wb/proto';
import type { CollaborationMeter, UsageSource } from '../room/collaboration';

/** a lock decision waits for this answer: fail fast, the next checkpoint asks again */
const REQUEST_TIMEOUT_MS = 3000;

export class BoardsUsageSource implements UsageSource {
  constructor(private readonly bus: Pick<Bus, 'request'>) {}

  /** boards checks that the actor is the span's owner: the node acts for the board's owner */
  async checkpoint(span: CollaborationSpan, opts: { freshPlan?: boolean } = {}): Promise<CollaborationUsage> {
    const reply = await this.bus.request(
      'boards',
      'collaboration.checkpoint',
      { span, ...(opts.freshPlan ? { freshPlan: true } : {}) },
      { userId: span.ownerId },
      { timeoutMs: REQUEST_TIMEOUT_MS },
    );
    return collaborationUsageSchema.parse(reply.data);
  }

  async usage(ownerId: number, opts: { freshPlan?: boolean } = {}): Promise<CollaborationUsage> {
    const reply = await this.bus.request(
      'boards',
      'collaboration.usage',
      opts.freshPlan ? { freshPlan: true } : {},
      { userId: ownerId },
      { timeoutMs: REQUEST_TIMEOUT_MS },
    );
    return collaborationUsageSchema.parse(reply.data);
  }
}

const planChangedEnvelope = z.object({ data: EVENT_SCHEMAS['auth.user.plan_changed.v1'] });

/**
 * An owner's plan change re-asks boards for the minutes of their open rooms at once (core NATS,
 * like PlanLookup.listenForChanges): an upgrade unlocks, a downgrade re-arms on the new limit.
 */
export function listenForPlanChanges(
  bus: Bus,
  metersOf: (ownerId: number) => (CollaborationMeter | undefined)[],
): { unsubscribe(): void } {
  return subscribeBroadcast(bus, eventSubject(bus.prefix, 'auth.user.plan_changed.v1'), (data) => {
    const event = planChangedEnvelope.safeParse(data);
    if (event.success) for (const m of metersOf(event.data.data.userId)) m?.planChanged();
  });
}
