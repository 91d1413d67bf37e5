import fc from 'fast-check';
import {
  AppError,
  billingFormSchema,
  billingPlanId,
  centsToDecimal,
  COUNTRY_CODES,
  decimalToCents,
  EU_STANDARD_VAT_RATES,
  formatEur,
  invoiceSchema,
  planIsActive,
  priceOf,
  showTrialEndedBanner,
  splitGross,
  subscriptionSchema,
  subscriptionState,
  trialWithPaymentMethod,
  trialFirstBillingDate,
  vatFor,
  vatNumberFormatValid,
  vatOnNet,
  withVat,
  type Subscription,
} from './index';

const NOW = new Date('2025-06-15T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

function buildSubscription(over: Partial<Subscription> = {}): Subscription {
  return {
    id: 'sub-1',
    plan: 'premium',
    billing_period: 'yearly',
    seats: 1,
    status: 'Active',
    next_billing_date: '2026-06-15',
    next_billing_amount: 30000,
    balance: 0,
    created: '2025-06-15T12:00:00.000Z',
    expires: '2026-06-15T00:00:00.000Z',
    trial: 0,
    first_billing_date: '2025-06-15',
    payment_method: 1,
    ...over,
  };
}

describe('priceOf (spec §9: EUR per seat per month, integer cents)', () => {
  it('monthly: the monthly price per seat', () => {
    expect(priceOf('standard', 'monthly', 1)).toMatchObject({ perSeatMonthlyCents: 1000, totalCents: 1000, months: 1 });
    expect(priceOf('ultimate', 'monthly', 1).totalCents).toBe(17900);
  });
  it('yearly: 12 × the yearly monthly price per seat', () => {
    expect(priceOf('standard', 'yearly', 1)).toMatchObject({ perSeatMonthlyCents: 900, perSeatCycleCents: 10800 });
    expect(priceOf('premium', 'yearly', 1).totalCents).toBe(30000);
    expect(priceOf('ultimate', 'yearly', 1).totalCents).toBe(178800);
  });
  it('many seats multiply the per-seat cycle price', () => {
    expect(priceOf('premium', 'yearly', 3).totalCents).toBe(90000);
    expect(priceOf('premium', 'monthly', 250).totalCents).toBe(725000);
    expect(priceOf('ultimate', 'yearly', 10000).totalCents).toBe(1788000000);
  });
  it('starter costs nothing', () => {
    expect(priceOf('starter', 'yearly', 5).totalCents).toBe(0);
  });
  it('always integers', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('starter', 'standard', 'premium', 'ultimate' as const),
        fc.constantFrom('monthly', 'yearly' as const),
        fc.integer({ min: 1, max: 10000 }),
        (plan, period, seats) => Number.isInteger(priceOf(plan, period, seats).totalCents),
      ),
    );
  });
  it.each([0, -1, 1.5, 10001, NaN])('refuses %p seats with ERR_INVALID_INPUT', (seats) => {
    expect(() => priceOf('premium', 'monthly', seats)).toThrow(AppError);
    try {
      priceOf('premium', 'monthly', seats);
    } catch (err) {
      expect((err as AppError).code).toBe('ERR_INVALID_INPUT');
    }
  });
});

describe('money formatting', () => {
  it('two decimals, optionally dropping .00', () => {
    expect(formatEur(900)).toBe('9.00');
    expect(formatEur(900, { dropZeroCents: true })).toBe('9');
    expect(formatEur(950, { dropZeroCents: true })).toBe('9.50');
    expect(formatEur(5)).toBe('0.05');
    expect(formatEur(0, { dropZeroCents: true })).toBe('0');
    expect(formatEur(-1250)).toBe('-12.50');
    expect(formatEur(178800)).toBe('1788.00');
  });
  it('refuses non-integer cents', () => {
    expect(() => formatEur(9.5)).toThrow(RangeError);
  });
  it('decimal strings round-trip exactly', () => {
    expect(decimalToCents('12')).toBe(1200);
    expect(decimalToCents('12.5')).toBe(1250);
    expect(decimalToCents('0.07')).toBe(7);
    expect(decimalToCents('-3.10')).toBe(-310);
    expect(() => decimalToCents('1.005')).toThrow(RangeError);
    expect(() => decimalToCents('abc')).toThrow(RangeError);
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (c) => decimalToCents(centsToDecimal(c)) === c));
  });
});

describe('VAT (spec §9; seller in Estonia)', () => {
  it('has the 27 EU standard rates, Estonia 24 %', () => {
    expect(Object.keys(EU_STANDARD_VAT_RATES)).toHaveLength(27);
    expect(EU_STANDARD_VAT_RATES.EE).toBe(24);
    expect(EU_STANDARD_VAT_RATES.FI).toBe(25.5);
  });
  it('Estonian clients always pay Estonian VAT, even with a valid VAT number', () => {
    expect(vatFor({ countryCode: 'EE' })).toEqual({ applies: true, ratePercent: 24, rule: 'domestic' });
    expect(vatFor({ countryCode: 'ee', vatNumber: 'EE100000000', vatNumberValid: true })).toEqual({
      applies: true,
      ratePercent: 24,
      rule: 'domestic',
    });
  });
  it('other EU clients pay their country rate unless they give a valid VAT number', () => {
    expect(vatFor({ countryCode: 'DE' })).toEqual({ applies: true, ratePercent: 19, rule: 'euConsumer' });
    expect(vatFor({ countryCode: 'FI', vatNumber: 'FI12345678', vatNumberValid: false })).toEqual({
      applies: true,
      ratePercent: 25.5,
      rule: 'euConsumer',
    });
    expect(vatFor({ countryCode: 'DE', vatNumber: '  ', vatNumberValid: true }).applies).toBe(true);
    expect(vatFor({ countryCode: 'DE', vatNumber: 'DE123456789', vatNumberValid: true })).toEqual({
      applies: false,
      ratePercent: 0,
      rule: 'euReverseCharge',
    });
  });
  it('clients outside the EU pay no VAT (export of services)', () => {
    expect(vatFor({ countryCode: 'US' })).toEqual({ applies: false, ratePercent: 0, rule: 'outsideEu' });
    expect(vatFor({ countryCode: 'GB' }).applies).toBe(false);
    expect(vatFor({ countryCode: 'NO', vatNumber: 'NO123', vatNumberValid: false }).applies).toBe(false);
  });
  it('rounds VAT half up to the cent', () => {
    expect(vatOnNet(900, 24)).toBe(216);
    expect(vatOnNet(1, 25.5)).toBe(0); // 0.255
    expect(vatOnNet(2, 25.5)).toBe(1); // 0.51
    expect(vatOnNet(2, 25)).toBe(1); // 0.5 → up
    expect(vatOnNet(10, 19)).toBe(2); // 1.9
    expect(vatOnNet(0, 24)).toBe(0);
    expect(vatOnNet(-900, 24)).toBe(-216);
    expect(withVat(30000, vatFor({ countryCode: 'EE' }))).toEqual({
      netCents: 30000,
      vatCents: 7200,
      grossCents: 37200,
    });
    expect(withVat(30000, vatFor({ countryCode: 'US' }))).toEqual({ netCents: 30000, vatCents: 0, grossCents: 30000 });
  });
  it('splits a gross charge into parts that add up', () => {
    expect(splitGross(37200, 24)).toEqual({ netCents: 30000, vatCents: 7200 });
    expect(splitGross(1, 24)).toEqual({ netCents: 1, vatCents: 0 });
    expect(splitGross(-12400, 24)).toEqual({ netCents: -10000, vatCents: -2400 });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.constantFrom(...Object.values(EU_STANDARD_VAT_RATES)),
        (net, rate) => {
          const gross = net + vatOnNet(net, rate);
          const split = splitGross(gross, rate);
          return split.netCents + split.vatCents === gross && Math.abs(split.netCents - net) <= 1;
        },
      ),
    );
  });
});

describe('vatNumberFormatValid', () => {
  it.each([
    ['EE', 'EE100931558'],
    ['EE', '100931558'],
    ['EE', 'ee 1009 315 58'],
    ['DE', 'DE123456789'],
    ['FR', 'FR40303265045'],
    ['FR', 'FRXX123456789'],
    ['IT', 'IT12345678901'],
    ['ES', 'ESA1234567B'],
    ['ES', 'ES12345678Z'],
    ['PL', 'PL1234567890'],
    ['FI', 'FI12345678'],
    ['LV', 'LV12345678901'],
    ['LT', 'LT123456789'],
    ['LT', 'LT123456789012'],
    ['NL', 'NL123456789B01'],
    ['BE', 'BE0123456789'],
    ['AT', 'ATU12345678'],
    ['AT', 'U12345678'],
    ['SE', 'SE123456789001'],
    ['IE', 'IE1234567T'],
    ['IE', 'IE1234567TW'],
    ['IE', 'IE1A23456T'],
    ['GR', 'EL123456789'],
    ['CH', 'CHE123456789'],
  ])('%s %s is well formed', (country, nr) => {
    expect(vatNumberFormatValid(country, nr)).toBe(true);
  });
  it.each([
    ['EE', 'EE10093155'], // 8 digits
    ['EE', 'EE200931558'], // must start with 10
    ['EE', 'DE123456789'], // another country's prefix
    ['DE', 'DE12345678'],
    ['DE', 'DE1234567890'],
    ['FR', 'FR4030326504'],
    ['IT', 'IT1234567890'],
    ['ES', 'ES123456789A1'],
    ['PL', 'PL123456789'],
    ['FI', 'FI1234567'],
    ['LV', 'LV1234567890'],
    ['LT', 'LT1234567890'],
    ['NL', 'NL123456789A01'],
    ['BE', 'BE2123456789'],
    ['AT', 'AT12345678'],
    ['SE', 'SE123456789000'],
    ['IE', 'IE12345678'],
    ['GR', 'GR123456789'], // Greece uses EL
    ['CH', 'CH1'],
    ['DE', ''],
  ])('%s %s is refused', (country, nr) => {
    expect(vatNumberFormatValid(country, nr)).toBe(false);
  });
});

describe('schemas', () => {
  it('a subscription parses and amounts must be integer cents', () => {
    expect(subscriptionSchema.parse(buildSubscription())).toEqual(buildSubscription());
    expect(subscriptionSchema.safeParse(buildSubscription({ next_billing_amount: 9.5 })).success).toBe(false);
    expect(subscriptionSchema.safeParse(buildSubscription({ seats: 0 })).success).toBe(false);
    expect(subscriptionSchema.safeParse({ ...buildSubscription(), status: 'active' }).success).toBe(false);
  });
  it('the billing form normalises and checks the country against ISO 3166', () => {
    const form = billingFormSchema.parse({
      first_name: ' Mari ',
      last_name: 'Maasikas',
      email: 'Mari@Example.com',
      country_code: 'ee',
      city_region: 'Tallinn',
      postal_code: '10111',
      street_address: 'Narva mnt 5',
      vat_nr: '',
    });
    expect(form).toMatchObject({ first_name: 'Mari', email: 'mari@example.com', country_code: 'EE', company: '' });
    expect(form.vat_nr).toBeUndefined();
    const bad = billingFormSchema.safeParse({ ...form, country_code: 'XX' });
    expect(bad.success).toBe(false);
    expect(billingFormSchema.safeParse({ ...form, first_name: ' ' }).success).toBe(false);
    expect(COUNTRY_CODES).toHaveLength(250);
  });
  it('an invoice is in EUR with integer cents', () => {
    const invoice = {
      id: 'tx1',
      date: '2025-06-15T12:00:00Z',
      amount: 37200,
      currency: 'EUR',
      type: 'payment',
      status: 'settled',
      vat_amount: 7200,
      net_amount: 30000,
      vat_rate: 24,
    };
    expect(invoiceSchema.parse(invoice)).toEqual(invoice);
    expect(invoiceSchema.safeParse({ ...invoice, currency: 'USD' }).success).toBe(false);
    expect(invoiceSchema.safeParse({ ...invoice, type: 'charge' }).success).toBe(false);
  });
});

describe('trialWithPaymentMethod (issue 26 #11)', () => {
  const now = new Date('2026-06-10T12:00:00Z');
  const trial = buildSubscription({
    id: 'trial-abc',
    status: 'Pending',
    trial: 1,
    first_billing_date: '2026-06-15T12:00:00.000Z',
    expires: '2026-06-15T12:00:00.000Z',
    next_billing_amount: 37200,
  });
  it('a running trial with a card on file', () => {
    expect(trialWithPaymentMethod(trial, now)).toBe(true);
  });
  it('not a card-less trial, an ended trial, a paid subscription or none', () => {
    expect(trialWithPaymentMethod({ ...trial, payment_method: 0, next_billing_amount: 0 }, now)).toBe(false);
    expect(trialWithPaymentMethod(trial, new Date('2026-06-16T00:00:00Z'))).toBe(false);
    expect(trialWithPaymentMethod(buildSubscription(), now)).toBe(false);
    expect(trialWithPaymentMethod(null, now)).toBe(false);
  });
});

describe('subscriptionState (spec §4)', () => {
  const trial = (over: Partial<Subscription> = {}) =>
    buildSubscription({
      id: 'trial-abc',
      trial: 1,
      first_billing_date: at(3 * 86400000),
      expires: at(3 * 86400000),
      ...over,
    });

  it('none without a subscription', () => {
    expect(subscriptionState(null, NOW)).toBe('none');
    expect(subscriptionState(undefined, NOW)).toBe('none');
  });
  it('trial while the first billing date is in the future; not at that instant', () => {
    expect(subscriptionState(trial(), NOW)).toBe('trial');
    expect(subscriptionState(trial({ first_billing_date: at(1) }), NOW)).toBe('trial');
    expect(subscriptionState(trial({ first_billing_date: at(0), expires: at(0) }), NOW)).toBe('trialExpired');
    expect(subscriptionState(trial({ trial: 0 }), NOW)).toBe('active');
  });
  it('a date-only first billing date counts from UTC midnight', () => {
    expect(subscriptionState(trial({ first_billing_date: '2025-06-16' }), NOW)).toBe('trial');
    expect(subscriptionState(trial({ first_billing_date: '2025-06-15', expires: '2025-06-15' }), NOW)).toBe(
      'trialExpired',
    );
  });
  it('trial expired: an id "trial-…" whose expiry is past (exactly now included)', () => {
    const expired = trial({ first_billing_date: at(-1000), expires: at(-1) });
    expect(subscriptionState(expired, NOW)).toBe('trialExpired');
    expect(subscriptionState({ ...expired, expires: at(0) }, NOW)).toBe('trialExpired');
    expect(subscriptionState({ ...expired, expires: at(1) }, NOW)).toBe('active');
    // not a trial id: an expired period is just over
    expect(subscriptionState({ ...expired, id: 'sub-1', status: 'Expired' }, NOW)).toBe('none');
  });
  it('past due', () => {
    expect(subscriptionState(buildSubscription({ status: 'Past Due' }), NOW)).toBe('pastDue');
  });
  it('cancelled keeps the plan until the paid period ends, then none', () => {
    expect(subscriptionState(buildSubscription({ status: 'Canceled', expires: at(1) }), NOW)).toBe('cancelled');
    expect(subscriptionState(buildSubscription({ status: 'Canceled', expires: at(0) }), NOW)).toBe('none');
    expect(subscriptionState(buildSubscription({ status: 'Canceled', expires: null }), NOW)).toBe('none');
    expect(planIsActive(buildSubscription({ status: 'Canceled', expires: at(1) }), NOW)).toBe(true);
    expect(planIsActive(buildSubscription({ status: 'Canceled', expires: at(0) }), NOW)).toBe(false);
  });
  it('active: status Active, or expiry in the future', () => {
    expect(subscriptionState(buildSubscription({ expires: null }), NOW)).toBe('active');
    expect(subscriptionState(buildSubscription({ status: 'Pending', expires: at(1) }), NOW)).toBe('active');
    expect(subscriptionState(buildSubscription({ status: 'Expired', expires: at(0) }), NOW)).toBe('none');
    expect(subscriptionState(buildSubscription({ status: 'Pending', expires: null }), NOW)).toBe('none');
  });
  it('a trial starts now and bills 7 days later', () => {
    expect(trialFirstBillingDate(NOW).toISOString()).toBe('2025-06-22T12:00:00.000Z');
    expect(billingPlanId('premium', 'yearly')).toBe('premium-yearly');
  });
});

describe('showTrialEndedBanner (spec §4)', () => {
  const expired = buildSubscription({
    id: 'trial-x',
    trial: 1,
    created: '2025-03-01T10:00:00Z',
    first_billing_date: at(-1),
    expires: at(-1),
  });
  const ctx = { country: 'DE', page: 'dashboard', now: NOW };

  it('shows for an expired trial created after 2025-01-13', () => {
    expect(showTrialEndedBanner(expired, ctx)).toBe(true);
    expect(showTrialEndedBanner({ ...expired, created: '2025-01-14T00:00:00Z' }, ctx)).toBe(true);
  });
  it('not for subscriptions created on or before 2025-01-13', () => {
    expect(showTrialEndedBanner({ ...expired, created: '2025-01-13T23:59:59Z' }, ctx)).toBe(false);
    expect(showTrialEndedBanner({ ...expired, created: '2024-12-01' }, ctx)).toBe(false);
  });
  it('hidden in Estonia and on the update-subscription page', () => {
    expect(showTrialEndedBanner(expired, { ...ctx, country: 'EE' })).toBe(false);
    expect(showTrialEndedBanner(expired, { ...ctx, country: 'ee' })).toBe(false);
    expect(showTrialEndedBanner(expired, { ...ctx, page: 'subscription/update' })).toBe(false);
    expect(showTrialEndedBanner(expired, { ...ctx, page: '/settings/subscription/update/' })).toBe(false);
    expect(showTrialEndedBanner(expired, { ...ctx, page: '/settings/subscription' })).toBe(true);
    expect(showTrialEndedBanner(expired, { ...ctx, country: null })).toBe(true);
  });
  it('not while the trial runs, for paid subscriptions or without one', () => {
    expect(showTrialEndedBanner({ ...expired, first_billing_date: at(1), expires: at(1) }, ctx)).toBe(false);
    expect(showTrialEndedBanner({ ...expired, id: 'sub-1' }, ctx)).toBe(false);
    expect(showTrialEndedBanner(null, ctx)).toBe(false);
  });
});
