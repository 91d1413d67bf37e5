/**
 * What a business's licences give (issue 12). The business's plan is its owner's own
 * subscription plan, while that plan has the `team` feature; a licence gives it while the holder
 * is active. Licences = the subscription's seats (at least the owner's one); a trial gives one.
 * The effective plan of a person is NOT decided here: auth applies effectivePlanName (proto) to
 * what billing and teams say.
 */
import { isTrialSubscription, PLANS } from '@wb/proto';
import type { PlanName } from '@wb/proto';

export interface SubscriptionWord {
  subscription_id: string;
  plan: PlanName | null;
  seats: number;
}

/** the plan the team's licences give, or null (no subscription, ended, or a plan without teams) */
export function teamPlanOf(sub: Pick<SubscriptionWord, 'plan'> | null): PlanName | null {
  if (!sub?.plan) return null;
  return PLANS[sub.plan].features.team ? sub.plan : null;
}

/** the licences a subscription pays for: a trial gives one; never fewer than the owner's own */
export function licencesOf(sub: SubscriptionWord | null): number {
  if (!sub) return 0;
  if (isTrialSubscription({ id: sub.subscription_id })) return 1;
  return Math.max(1, sub.seats);
}

/** what a member's licence gives: the team's plan while active */
export function licencePlan(active: boolean, teamPlan: PlanName | null): PlanName | null {
  return active ? teamPlan : null;
}
