/**
 * A user's effective plan from their plan sources (issue 12): billing says what their own
 * subscription gives, teams what a licence gives; auth keeps the latest word of each and stores
 * effectivePlanName (proto, the one rule) as users.plan, which plan.get, the boards limits and
 * the realtime nodes' read-only answers read. A change is announced as auth.user.plan_changed.v1
 * in the same transaction.
 */
import { appendEvent } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import { effectivePlanName } from '@wb/proto';
import type { PlanName } from '@wb/proto';
import { lockPlanSources, setPlanSource } from '../repositories/planSources';
import type { PlanSourceKind } from '../repositories/planSources';
import { findUserById, updatePlan } from '../repositories/users';
import { SCHEMA } from './deps';

export interface PlanSourceUpdate {
  userId: number;
  kind: PlanSourceKind;
  /** the plan this source gives while active, null when it gives none */
  plan: PlanName | null;
  /** the producer's outbox sequence: only a newer word than the last applied one counts */
  seq: bigint;
}

export type PlanSourceOutcome =
  { applied: false; reason: 'unknown_user' | 'stale' } | { applied: true; plan: PlanName; previousPlan: PlanName };

export async function applyPlanSource(client: PoolClient, update: PlanSourceUpdate): Promise<PlanSourceOutcome> {
  // users row first, then plan_sources: one lock order for every writer of a user's plan
  const user = await findUserById(client, update.userId, { forUpdate: true });
  if (!user) return { applied: false, reason: 'unknown_user' };
  const sources = await lockPlanSources(client, update.userId);
  const lastSeq = BigInt(update.kind === 'subscription' ? sources.subscription_seq : sources.team_seq);
  if (update.seq <= lastSeq) return { applied: false, reason: 'stale' };
  await setPlanSource(client, update.userId, update.kind, update.plan, update.seq);
  const plan = effectivePlanName({
    subscription: update.kind === 'subscription' ? update.plan : sources.subscription_plan,
    teamLicence: update.kind === 'team' ? update.plan : sources.team_plan,
  });
  if (plan !== user.plan) {
    await updatePlan(client, update.userId, plan);
    await appendEvent(client, SCHEMA, 'auth.user.plan_changed.v1', {
      userId: update.userId,
      plan,
      previousPlan: user.plan,
    });
  }
  return { applied: true, plan, previousPlan: user.plan };
}

/** "billing:42" → 42n: the producer's outbox sequence inside an event id */
export function sequenceOf(eventId: string): bigint {
  const digits = eventId.slice(eventId.lastIndexOf(':') + 1);
  if (!/^\d+$/.test(digits)) throw new Error(`event id without a sequence: ${eventId}`);
  return BigInt(digits);
}
