import {
  billingOperations,
  CANCEL_SUBSCRIPTION_CONFIRMATION_PHRASE,
  fileReplySchema,
  invoiceIdSchema,
  PAID_PLAN_NAMES,
  promoCodeSchema,
  subscribeInputSchema,
  subscriptionChangeInputSchema,
  trialInputSchema,
  webhookInputSchema,
} from './index';

const billing = {
  first_name: 'Ann',
  last_name: 'Tamm',
  email: ' Ann@Example.com ',
  country_code: 'ee',
  city_region: 'Tallinn',
  postal_code: '10111',
  street_address: 'Narva mnt 1',
};

describe('billing operation contracts', () => {
  it('lists every operation of the billing service', () => {
    expect(Object.keys(billingOperations).sort()).toEqual([
      'clientToken.get',
      'invoice.pdf',
      'invoices.list',
      'subscription.cancel',
      'subscription.create',
      'subscription.get',
      'subscription.update',
      'trial.available',
      'trial.start',
      'webhook.receive',
    ]);
    expect(CANCEL_SUBSCRIPTION_CONFIRMATION_PHRASE).toBe('CANCEL');
    expect(PAID_PLAN_NAMES).not.toContain('starter');
  });

  it('the trial needs the terms agreed and a paid plan', () => {
    expect(trialInputSchema.safeParse({ plan: 'premium', billing_period: 'monthly', terms: true }).success).toBe(true);
    expect(trialInputSchema.safeParse({ plan: 'premium', billing_period: 'monthly', terms: false }).success).toBe(
      false,
    );
    expect(trialInputSchema.safeParse({ plan: 'premium', billing_period: 'monthly' }).success).toBe(false);
    expect(trialInputSchema.safeParse({ plan: 'starter', billing_period: 'monthly', terms: true }).success).toBe(false);
  });

  it('subscribe: seats, nonce and billing form; the form is normalised; unknown keys refused', () => {
    const ok = subscribeInputSchema.parse({
      plan: 'standard',
      billing_period: 'yearly',
      seats: 3,
      nonce: 'fake-valid-nonce',
      billing,
      promo: ' school20 ',
    });
    expect(ok.billing).toMatchObject({
      email: 'ann@example.com',
      country_code: 'EE',
      company: '',
      extended_address: '',
    });
    expect(ok.promo).toBe('SCHOOL20');
    const base = { plan: 'standard', billing_period: 'yearly', seats: 1, nonce: 'n', billing };
    expect(subscribeInputSchema.safeParse({ ...base, seats: 0 }).success).toBe(false);
    expect(subscribeInputSchema.safeParse({ ...base, seats: 1.5 }).success).toBe(false);
    expect(subscribeInputSchema.safeParse({ ...base, nonce: '' }).success).toBe(false);
    expect(subscribeInputSchema.safeParse({ ...base, billing: { ...billing, country_code: 'XX' } }).success).toBe(
      false,
    );
    expect(subscribeInputSchema.safeParse({ ...base, extra: 1 }).success).toBe(false);
    expect(promoCodeSchema.safeParse('a b').success).toBe(false);
  });

  it('a change names at least one thing', () => {
    expect(subscriptionChangeInputSchema.safeParse({}).success).toBe(false);
    expect(subscriptionChangeInputSchema.safeParse({ seats: 4 }).success).toBe(true);
    expect(subscriptionChangeInputSchema.safeParse({ nonce: 'fake-valid-nonce' }).success).toBe(true);
  });

  it('invoice ids, file replies and webhook bodies are bounded', () => {
    expect(invoiceIdSchema.safeParse('abc123').success).toBe(true);
    expect(invoiceIdSchema.safeParse('../x').success).toBe(false);
    expect(invoiceIdSchema.safeParse('x'.repeat(65)).success).toBe(false);
    expect(
      fileReplySchema.safeParse({ filename: 'invoice-1.pdf', contentType: 'application/pdf', base64: 'JVBERg==' })
        .success,
    ).toBe(true);
    expect(fileReplySchema.safeParse({ filename: 'a"b.pdf', contentType: 'application/pdf', base64: '' }).success).toBe(
      false,
    );
    expect(webhookInputSchema.safeParse({ bt_signature: 'pk|sig', bt_payload: 'PHg+' }).success).toBe(true);
    expect(webhookInputSchema.safeParse({ bt_signature: '', bt_payload: 'x' }).success).toBe(false);
  });
});
