/**
 * The plans that end with time: a card-less trial that ran out (spec §4 "trial expired": back to
 * starter), a cancelled subscription whose paid period is over. Run by the maintenance job with
 * the injected clock. A subscription at the provider that looks lapsed here is re-read there
 * first (its renewal may just not have been notified yet).
 */
import { withTransaction } from '@wb/platform';
import { givesPlan } from '../policies/subscriptionRules';
import { lockUser } from '../repositories/db';
import { findCurrentSubscription, findLapseCandidates, findSubscriptionById } from '../repositories/subscriptions';
import type { BillingDeps } from './deps';
import { announceEntitlement } from './entitlements';
import { syncFromProvider } from './providerSync';

/** returns how many users lost their subscription's plan */
export async function expireLapsed(deps: BillingDeps, batch = 200): Promise<number> {
  const now = deps.now();
  let lapsed = 0;
  for (const candidate of await findLapseCandidates(deps.pool, now, batch)) {
    if (givesPlan(candidate, now)) continue;
    try {
      if (candidate.at_provider && candidate.status !== 'Canceled' && candidate.status !== 'Expired') {
        const synced = await syncFromProvider(deps, candidate.id);
        if (synced && !givesPlan(synced, now)) {
          lapsed += 1;
          deps.metrics.lapsed.inc({ reason: 'provider' });
        }
        continue;
      }
      const changed = await withTransaction(deps.pool, async (client) => {
        await lockUser(client, candidate.user_id);
        const row = await findSubscriptionById(client, candidate.id, { forUpdate: true });
        const current = await findCurrentSubscription(client, candidate.user_id);
        if (!row || current?.id !== row.id) return false;
        return (await announceEntitlement(client, row, now)).changed;
      });
      if (changed) {
        lapsed += 1;
        deps.metrics.lapsed.inc({ reason: candidate.trial ? 'trial_ended' : 'period_ended' });
        deps.log.info({ userId: candidate.user_id, subscriptionId: candidate.id }, 'subscription period ended');
      }
    } catch (err) {
      deps.log.warn({ subscriptionId: candidate.id, err: (err as Error).message }, 'lapse check failed; next run');
    }
  }
  return lapsed;
}
