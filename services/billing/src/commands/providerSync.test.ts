import type { ProviderSubscription } from '../payments/provider';
import { changesFromProvider, parsePlanId } from './providerSync';

const NOW = new Date('2025-06-15T12:00:00Z');
const base: ProviderSubscription = {
  id: 'sub-x',
  planId: 'premium-yearly',
  status: 'Active',
  amountCents: 30000,
  balanceCents: 0,
  firstBillingDate: '2025-06-15',
  nextBillingDate: '2026-06-15',
  paidThroughDate: '2026-06-14',
  trialing: false,
  paymentMethodToken: 'pm-1',
  createdAt: NOW,
};

describe("the provider's word in our columns", () => {
  it('paid through a day = active until the next midnight (UTC)', () => {
    expect(changesFromProvider(base, NOW)).toMatchObject({
      plan: 'premium',
      billing_period: 'yearly',
      status: 'Active',
      expires: new Date('2026-06-15T00:00:00Z'),
      next_billing_date: new Date('2026-06-15T00:00:00Z'),
      next_billing_amount: 30000,
    });
  });

  it('a trial lasts until its first billing date; cancelled has no next billing', () => {
    const trial = {
      ...base,
      status: 'Pending' as const,
      paidThroughDate: null,
      trialing: true,
      firstBillingDate: '2025-06-22',
    };
    expect(changesFromProvider(trial, NOW).expires).toEqual(new Date('2025-06-22T00:00:00Z'));
    const cancelled = { ...base, status: 'Canceled' as const };
    expect(changesFromProvider(cancelled, NOW)).toMatchObject({ next_billing_date: null, status: 'Canceled' });
    // cancelled before it was ever billed: the period we had stays
    const kept = new Date('2025-06-22T12:00:00Z');
    expect(
      changesFromProvider({ ...trial, status: 'Canceled', trialing: false }, NOW, { expires: kept }).expires,
    ).toEqual(kept);
  });

  it('a balance owed is part of the next bill; plan ids that are not ours change no plan', () => {
    expect(changesFromProvider({ ...base, balanceCents: 500 }, NOW).next_billing_amount).toBe(30500);
    expect(changesFromProvider({ ...base, balanceCents: -500 }, NOW).next_billing_amount).toBe(30000);
    expect(parsePlanId('gold-monthly')).toBeNull();
    expect(changesFromProvider({ ...base, planId: 'legacy' }, NOW)).not.toHaveProperty('plan');
  });
});
