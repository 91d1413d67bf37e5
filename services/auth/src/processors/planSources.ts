/**
 * Consumes the plan sources' events (billing.subscription.changed.v1, teams.licence.changed.v1)
 * and recomputes the user's effective plan (commands/planSources).
 */
import { EventProcessor } from '@wb/platform';
import type { Logger, PoolClient } from '@wb/platform';
import { EVENT_SCHEMAS } from '@wb/proto';
import type { EventEnvelope, EventType } from '@wb/proto';
import { applyPlanSource, sequenceOf } from '../commands/planSources';

export class PlanSourcesProcessor extends EventProcessor {
  readonly name = 'auth-plan-sources';
  readonly eventTypes: readonly EventType[] = ['billing.subscription.changed.v1', 'teams.licence.changed.v1'];

  constructor(private readonly deps: { log: Logger }) {
    super();
  }

  async handle(event: EventEnvelope, client: PoolClient): Promise<void> {
    const update =
      event.type === 'billing.subscription.changed.v1'
        ? { ...EVENT_SCHEMAS['billing.subscription.changed.v1'].parse(event.data), kind: 'subscription' as const }
        : { ...EVENT_SCHEMAS['teams.licence.changed.v1'].parse(event.data), kind: 'team' as const };
    const outcome = await applyPlanSource(client, {
      userId: update.userId,
      kind: update.kind,
      plan: update.plan,
      seq: sequenceOf(event.id),
    });
    const fields = { userId: update.userId, source: update.kind, sourcePlan: update.plan, eventId: event.id };
    if (!outcome.applied) this.deps.log.info({ ...fields, reason: outcome.reason }, 'plan source event ignored');
    else if (outcome.plan !== outcome.previousPlan)
      this.deps.log.info(
        { ...fields, plan: outcome.plan, previousPlan: outcome.previousPlan },
        'effective plan changed',
      );
  }
}
