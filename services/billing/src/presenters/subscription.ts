/** row → spec §3 Subscription (what leaves the service). */
import type { Subscription } from '@wb/proto';
import type { SubscriptionRow } from '../repositories/subscriptions';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function presentSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    plan: row.plan,
    billing_period: row.billing_period,
    seats: row.seats,
    status: row.status,
    next_billing_date: iso(row.next_billing_date),
    next_billing_amount: row.next_billing_amount,
    balance: row.balance,
    created: row.created_at.toISOString(),
    expires: iso(row.expires),
    trial: row.trial ? 1 : 0,
    first_billing_date: iso(row.first_billing_date),
    // only subscriptions at the provider have a payment method; a card-less trial lives here only
    payment_method: row.at_provider ? 1 : 0,
  };
}
