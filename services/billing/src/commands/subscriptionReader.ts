/** GET /api/billing/subscription, GET /api/billing/free-trial, GET /api/billing/client-token. */
import type { RequestActor, Subscription } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { canHaveFreeTrial } from '../policies/subscriptionRules';
import { presentSubscription } from '../presenters/subscription';
import { findCustomer } from '../repositories/customers';
import { countSubscriptions, findCurrentSubscription } from '../repositories/subscriptions';
import { hasTrialClaim } from '../repositories/trials';
import type { BillingDeps } from './deps';
import { settlePending } from './operations';

/** The current subscription (the newest), after finishing a pending operation the provider has decided. */
export async function getSubscription(deps: BillingDeps, actor: RequestActor): Promise<Subscription | null> {
  const userId = requireUserId(actor);
  try {
    await settlePending(deps, userId);
  } catch (err) {
    deps.log.warn({ userId, err: (err as Error).message }, 'could not reconcile a pending operation');
  }
  const row = await findCurrentSubscription(deps.pool, userId);
  return row ? presentSubscription(row) : null;
}

export async function freeTrialAvailable(
  deps: BillingDeps,
  actor: RequestActor,
): Promise<{ canHaveFreeTrial: boolean }> {
  const userId = requireUserId(actor);
  const [claimedBefore, subscriptions] = await Promise.all([
    hasTrialClaim(deps.pool, userId),
    countSubscriptions(deps.pool, userId),
  ]);
  return { canHaveFreeTrial: canHaveFreeTrial({ claimedBefore, subscriptions }) };
}

/** A Drop-in client token; a known customer sees their saved payment methods. */
export async function clientToken(deps: BillingDeps, actor: RequestActor): Promise<{ clientToken: string }> {
  const userId = requireUserId(actor);
  const customer = await findCustomer(deps.pool, userId);
  return { clientToken: await deps.provider.clientToken(customer?.provider_customer_id) };
}
