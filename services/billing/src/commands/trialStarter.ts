/**
 * POST /api/billing/trial (spec §4, §5, §9): 7 days of a paid plan without a card, once per
 * person ever, the terms agreed (the schema refuses terms ≠ true). The trial exists only here
 * (`trial-<random>`, status Pending, trial 1, first billing date = its end); the maintenance job
 * takes the plan away when it ends unless the person subscribed with a card meanwhile.
 */
import { withTransaction } from '@wb/platform';
import { trialFirstBillingDate } from '@wb/proto';
import type { RequestActor, Subscription, TrialInput } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { assertTrialAvailable } from '../policies/subscriptionRules';
import { presentSubscription } from '../presenters/subscription';
import { lockUser } from '../repositories/db';
import { countSubscriptions, upsertSubscription } from '../repositories/subscriptions';
import { claimTrial, hasTrialClaim } from '../repositories/trials';
import type { BillingDeps } from './deps';
import { announceEntitlement } from './entitlements';

export async function startTrial(deps: BillingDeps, input: TrialInput, actor: RequestActor): Promise<Subscription> {
  const userId = requireUserId(actor);
  const now = deps.now();
  const row = await withTransaction(deps.pool, async (client) => {
    await lockUser(client, userId);
    assertTrialAvailable({
      claimedBefore: await hasTrialClaim(client, userId),
      subscriptions: await countSubscriptions(client, userId),
    });
    const id = `trial-${deps.newKey()}`;
    await claimTrial(client, userId, id, now);
    const end = trialFirstBillingDate(now);
    const created = await upsertSubscription(client, {
      id,
      user_id: userId,
      plan: input.plan,
      billing_period: input.billing_period,
      seats: 1,
      status: 'Pending',
      trial: true,
      at_provider: false,
      first_billing_date: end,
      next_billing_date: end,
      // nothing is charged without a card
      next_billing_amount: 0,
      balance: 0,
      expires: end,
      vat_rate: 0,
      vat_rule: 'none',
      promo_code: null,
      promo_percent: 0,
      created_at: now,
      synced_at: null,
    });
    await announceEntitlement(client, created, now);
    return created;
  });
  deps.metrics.subscriptions.inc({ kind: 'trial', outcome: 'ok' });
  deps.log.info({ userId, subscriptionId: row.id, plan: row.plan, ends: row.expires }, 'free trial started');
  return presentSubscription(row);
}
