/**
 * Billing contracts and pure rules (issue 12): subscription, billing form and invoice schemas
 * (spec §3), prices in integer cents (spec §9), VAT (spec §9) and the subscription states and
 * trial-ended banner (spec §4). No I/O: the billing service, the gateway and the web share these.
 *
 * Money is always an integer number of euro cents (`…Cents`, or the `amount` fields of the
 * schemas below): never a float. Amounts are formatted only for display (`formatEur`).
 */
import { z } from 'zod';
import { AppError } from './errors';
import { PLANS, PLAN_NAMES, type PlanName } from './plans';

// ---------------------------------------------------------------------------------------------
// Periods, prices, formatting

export const BILLING_PERIODS = ['monthly', 'yearly'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/** Months paid per billing cycle. */
export const MONTHS_PER_PERIOD: Record<BillingPeriod, number> = { monthly: 1, yearly: 12 };

/** Spec §9: the free trial lasts 7 days, with no charge until it ends. */
export const TRIAL_DAYS = 7;
export const CURRENCY = 'EUR';
/** Licences one subscription may hold (a sanity bound for input validation, not a spec value). */
export const MAX_SEATS = 10_000;

/**
 * Spec §3 says the default subscription is "basic, yearly, 1 seat", but there is no "basic" plan
 * in §9; standard is the cheapest paid plan, so it is the default choice here.
 */
export const DEFAULT_SUBSCRIPTION_CHOICE = { plan: 'standard', billing_period: 'yearly', seats: 1 } as const;

const centsSchema = z.number().int();

export interface Price {
  plan: PlanName;
  period: BillingPeriod;
  seats: number;
  /** the plan's price per seat per month for this period (spec §9 table), in cents */
  perSeatMonthlyCents: number;
  /** what one seat costs per billing cycle (1 or 12 months), in cents */
  perSeatCycleCents: number;
  /** what the whole subscription costs per billing cycle, before VAT, in cents */
  totalCents: number;
  /** months in one billing cycle */
  months: number;
}

/**
 * The net price of `seats` licences of `plan` billed `period`ly. Spec §9 prices are EUR per seat
 * per month; a yearly subscription is billed once a year as 12 × the yearly monthly price
 * (premium yearly, 3 seats: 25 € × 12 × 3 = 900 €). Throws ERR_INVALID_INPUT for a seat count
 * that is not an integer in 1…MAX_SEATS.
 */
export function priceOf(plan: PlanName, period: BillingPeriod, seats: number): Price {
  if (!Number.isInteger(seats) || seats < 1 || seats > MAX_SEATS) {
    throw new AppError('ERR_INVALID_INPUT', `seats must be a whole number from 1 to ${MAX_SEATS}`, {
      seats: 'invalid',
    });
  }
  const perSeatMonthlyCents = eurosToCents(PLANS[plan].price[period]);
  const months = MONTHS_PER_PERIOD[period];
  const perSeatCycleCents = perSeatMonthlyCents * months;
  return { plan, period, seats, perSeatMonthlyCents, perSeatCycleCents, totalCents: perSeatCycleCents * seats, months };
}

/** Euros (a price from the plan table, at most two decimals) to integer cents. */
export function eurosToCents(euros: number): number {
  if (!Number.isFinite(euros)) throw new RangeError(`not an amount: ${euros}`);
  return Math.round(euros * 100);
}

/** Integer cents to Braintree's decimal string ("1234.50"): exact, no float arithmetic. */
export function centsToDecimal(cents: number): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * A decimal string as sent by Braintree ("12", "12.5", "-1234.50") to integer cents; throws
 * RangeError for anything else (more than two decimals included: no silent rounding of money).
 */
export function decimalToCents(decimal: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(decimal.trim());
  if (!m) throw new RangeError(`not a money amount: ${JSON.stringify(decimal)}`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '0').padEnd(2, '0'));
  return m[1] === '-' ? -cents : cents;
}

/**
 * Spec §9: amounts are shown with two decimals, optionally dropping ".00" — `formatEur(900)` is
 * "9.00", `formatEur(900, { dropZeroCents: true })` is "9", `formatEur(950, …)` stays "9.50".
 * The currency sign is left to the caller's locale.
 */
export function formatEur(cents: number, options: { dropZeroCents?: boolean } = {}): string {
  const decimal = centsToDecimal(cents);
  return options.dropZeroCents && decimal.endsWith('.00') ? decimal.slice(0, -3) : decimal;
}

function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`money must be integer cents, got ${cents}`);
}

// ---------------------------------------------------------------------------------------------
// Countries

/**
 * ISO 3166-1 alpha-2 codes (the 249 officially assigned, plus XK for Kosovo, which payment
 * providers and the EU use). Generated from ICU's region names, minus reserved/withdrawn codes.
 */
export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ ' +
  'BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM ' +
  'DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS ' +
  'GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN ' +
  'KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ ' +
  'MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
  'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV ' +
  'SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI ' +
  'VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');
const COUNTRY_SET = new Set(COUNTRY_CODES);

export const countryCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .refine((c) => COUNTRY_SET.has(c), { message: 'Unknown country code (ISO 3166-1 alpha-2)' });

// ---------------------------------------------------------------------------------------------
// VAT

/** The seller's country: the company is Estonian. */
export const SELLER_COUNTRY = 'EE';

/**
 * Standard VAT rates of the 27 EU member states, in percent, keyed by ISO country code (Greece is
 * GR here; its VAT numbers use the prefix EL). Source: European Commission, "VAT rates applied in
 * the Member States of the European Union" (taxation-customs.ec.europa.eu), the rates in force on
 * 1 January 2026, checked in November 2026. Recent changes it includes: FI 25.5 % since
 * 1 September 2024, SK 23 % since 1 January 2025, EE 24 % since 1 July 2025, RO 21 % since
 * 1 August 2025 (LU is back at 17 % since 2024). Rates change: check the Commission's list before
 * each release; `vatRates.test.ts` lists every rate so a change is a visible, reviewed edit.
 */
export const EU_STANDARD_VAT_RATES: Readonly<Record<string, number>> = {
  AT: 20,
  BE: 21,
  BG: 20,
  CY: 19,
  CZ: 21,
  DE: 19,
  DK: 25,
  EE: 24,
  ES: 21,
  FI: 25.5,
  FR: 20,
  GR: 24,
  HR: 25,
  HU: 27,
  IE: 23,
  IT: 22,
  LT: 21,
  LU: 17,
  LV: 21,
  MT: 18,
  NL: 21,
  PL: 23,
  PT: 23,
  RO: 21,
  SE: 25,
  SI: 22,
  SK: 23,
};

export function isEuCountry(countryCode: string): boolean {
  return countryCode.toUpperCase() in EU_STANDARD_VAT_RATES;
}

export type VatRule = 'domestic' | 'euConsumer' | 'euReverseCharge' | 'outsideEu';
export interface VatDecision {
  /** whether VAT is added to the net price */
  applies: boolean;
  /** percent (e.g. 24, 25.5); 0 when VAT does not apply */
  ratePercent: number;
  /** why, for the invoice text: domestic sale, EU consumer (OSS), reverse charge, export */
  rule: VatRule;
}

/**
 * Spec §9: "VAT is applied to Estonian clients and other countries unless a valid VAT number is
 * given". The seller is Estonian, so:
 * - Estonian clients always pay Estonian VAT (a VAT number changes nothing: a domestic sale);
 * - clients elsewhere in the EU pay VAT unless they give a valid VAT number (business customer:
 *   reverse charge, 0 % on our invoice). Without one they are consumers and electronically
 *   supplied services are taxed where the consumer lives (One-Stop-Shop): their country's
 *   standard rate;
 * - clients outside the EU pay no EU VAT (export of services: the place of supply is outside the
 *   EU). Local taxes such as UK VAT, Swiss VAT or Norwegian VAT for digital services are not
 *   handled here.
 * `vatNumberValid` is the caller's verdict (format check plus VIES, done outside this pure
 * function); a VAT number that is given but invalid should be refused by the caller with
 * ERR_INVALID_VAT rather than silently charged VAT, but if it gets here it counts as absent.
 */
export function vatFor(input: {
  countryCode: string;
  vatNumber?: string | null;
  vatNumberValid?: boolean;
}): VatDecision {
  const country = input.countryCode.trim().toUpperCase();
  const rate = EU_STANDARD_VAT_RATES[country];
  if (country === SELLER_COUNTRY) return { applies: true, ratePercent: rate!, rule: 'domestic' };
  if (rate === undefined) return { applies: false, ratePercent: 0, rule: 'outsideEu' };
  const hasValidNumber = !!input.vatNumber?.trim() && input.vatNumberValid === true;
  if (hasValidNumber) return { applies: false, ratePercent: 0, rule: 'euReverseCharge' };
  return { applies: true, ratePercent: rate, rule: 'euConsumer' };
}

/**
 * VAT on a net amount, rounded half up to the cent (per invoice, not per line):
 * `vatOnNet(900, 24)` = 216, `vatOnNet(1, 25.5)` = 0 (0.255 cent), `vatOnNet(2, 25.5)` = 1 (0.51).
 * Integer arithmetic on basis points, so 25.5 % is exact.
 */
export function vatOnNet(netCents: number, ratePercent: number): number {
  assertCents(netCents);
  const bp = Math.round(ratePercent * 100);
  if (netCents < 0) return -vatOnNet(-netCents, ratePercent);
  return Math.floor((netCents * bp + 5000) / 10000);
}

/** Net, VAT and gross of a net amount under a VAT decision. */
export function withVat(
  netCents: number,
  vat: VatDecision,
): { netCents: number; vatCents: number; grossCents: number } {
  const vatCents = vat.applies ? vatOnNet(netCents, vat.ratePercent) : 0;
  return { netCents, vatCents, grossCents: netCents + vatCents };
}

/**
 * Splits a gross amount (what the card was charged) into net and VAT: net = round(gross / (1 +
 * rate)), VAT = gross − net, so the parts always add up to what was charged.
 */
export function splitGross(grossCents: number, ratePercent: number): { netCents: number; vatCents: number } {
  assertCents(grossCents);
  const bp = Math.round(ratePercent * 100);
  const sign = grossCents < 0 ? -1 : 1;
  const abs = Math.abs(grossCents);
  // net = abs * 10000 / (10000 + bp), rounded half up, in integers
  const netAbs = Math.floor((abs * 10000 * 2 + (10000 + bp)) / (2 * (10000 + bp)));
  return { netCents: sign * netAbs, vatCents: sign * (abs - netAbs) };
}

/** VAT number prefixes that differ from the ISO country code. */
const VAT_PREFIX: Record<string, string> = { GR: 'EL' };

/** The part after the prefix, per country (VIES formats). */
const VAT_NUMBER_PATTERNS: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  DE: /^\d{9}$/,
  EE: /^10\d{7}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  IE: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LV: /^\d{11}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  SE: /^\d{10}01$/,
  // further member states, same source
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DK: /^\d{8}$/,
  GR: /^\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  LU: /^\d{8}$/,
  MT: /^\d{8}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};
/** Countries without a pattern above: 2–13 letters and digits after the prefix. */
const GENERIC_VAT_NUMBER = /^[A-Z0-9]{2,13}$/;

/** Upper case without spaces, dots and dashes ("ee 1000-000.00" → "EE100000000"). */
export function normalizeVatNumber(vatNumber: string): string {
  return vatNumber.toUpperCase().replace(/[\s.-]/g, '');
}

/**
 * Format check of a VAT number for a country: the country's VAT prefix (EE, DE, … EL for Greece)
 * followed by the country's pattern; the prefix may be left out when the number starts with a
 * digit (or AT's "U"). A different country's prefix fails. Says nothing about whether the number
 * is registered: that is VIES's job.
 */
export function vatNumberFormatValid(countryCode: string, vatNumber: string): boolean {
  const country = countryCode.trim().toUpperCase();
  const prefix = VAT_PREFIX[country] ?? country;
  let rest = normalizeVatNumber(vatNumber);
  if (rest.startsWith(prefix)) rest = rest.slice(prefix.length);
  // two leading letters that are not our prefix: another country's number (a French number whose
  // key is two letters must be written with its FR prefix)
  else if (/^[A-Z]{2}/.test(rest)) return false;
  return (VAT_NUMBER_PATTERNS[country] ?? GENERIC_VAT_NUMBER).test(rest);
}

// ---------------------------------------------------------------------------------------------
// Schemas

/** Braintree's subscription statuses (spec §4 compares with "Active"). */
export const SUBSCRIPTION_STATUSES = ['Active', 'Canceled', 'Expired', 'Past Due', 'Pending'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** "2025-07-01" (a billing date, read as UTC midnight) or an ISO date-time with offset. */
const instantSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** Spec §3 Subscription. Amounts in cents; dates as ISO strings; `trial` is 1 for a trial. */
export const subscriptionSchema = z.object({
  id: z.string().min(1),
  plan: z.enum(PLAN_NAMES),
  billing_period: z.enum(BILLING_PERIODS),
  seats: z.number().int().min(1).max(MAX_SEATS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  next_billing_date: instantSchema.nullable(),
  /** cents, VAT included */
  next_billing_amount: centsSchema,
  /** cents; negative = credit in the customer's favour (Braintree's balance) */
  balance: centsSchema,
  created: instantSchema,
  /** end of the paid (or trial) period; the plan is active until then */
  expires: instantSchema.nullable(),
  trial: z.union([z.literal(0), z.literal(1)]),
  first_billing_date: instantSchema.nullable(),
  /**
   * 1 when a payment method is on file for it (every subscription at the payment provider, a
   * trial with a card added included: it is charged on the first billing date), 0 for a
   * card-less trial (nothing is charged when it ends). Not in spec §3: the subscription page
   * needs it to show a trial with a card as one state (issue 26 #11).
   */
  payment_method: z.union([z.literal(0), z.literal(1)]),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

const text = (max: number) => z.string().trim().min(1).max(max);
/** Spec §3 Billing form (= Business details' address part). */
export const billingFormSchema = z.object({
  first_name: text(100),
  last_name: text(100),
  email: z.string().trim().toLowerCase().pipe(z.email()),
  /** organisation name; empty for a private person */
  company: z.string().trim().max(200).default(''),
  vat_nr: z
    .string()
    .trim()
    .max(20)
    .optional()
    .transform((v) => (v ? v : undefined)),
  country_code: countryCodeSchema,
  city_region: text(100),
  postal_code: text(20),
  street_address: text(200),
  extended_address: z.string().trim().max(200).default(''),
});
export type BillingForm = z.infer<typeof billingFormSchema>;
export type BillingFormInput = z.input<typeof billingFormSchema>;

/** Spec §3 Invoice, with the VAT split the invoice page and the PDF need. Amounts in cents. */
export const invoiceSchema = z.object({
  id: z.string().min(1),
  date: instantSchema,
  /** gross, VAT included; negative for a refund */
  amount: centsSchema,
  currency: z.literal(CURRENCY),
  type: z.enum(['payment', 'refund', 'unknown']),
  status: z.enum(['settled', 'pending']),
  vat_amount: centsSchema,
  net_amount: centsSchema,
  vat_rate: z.number().min(0).max(100),
});
export type Invoice = z.infer<typeof invoiceSchema>;

// ---------------------------------------------------------------------------------------------
// Subscription states (spec §4)

export type SubscriptionState = 'trial' | 'trialExpired' | 'pastDue' | 'cancelled' | 'active' | 'none';

/** Epoch ms of a date ("2025-07-01" = UTC midnight) or date-time string; NaN when absent. */
function instant(value: string | null | undefined): number {
  if (!value) return NaN;
  return Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
}
/** Strictly after now. An instant equal to now is no longer in the future: periods end there. */
const inFuture = (value: string | null | undefined, now: Date) => instant(value) > now.getTime();
const inPast = (value: string | null | undefined, now: Date) => instant(value) <= now.getTime();

export function isTrialSubscription(sub: Pick<Subscription, 'id'>): boolean {
  return sub.id.startsWith('trial-');
}

type StateFields = Pick<Subscription, 'id' | 'status' | 'expires' | 'trial' | 'first_billing_date'>;

/**
 * Spec §4, checked in this order:
 * - trial: `trial` is 1 and the first billing date is in the future;
 * - trialExpired: a trial subscription (id "trial-…") whose expiry is in the past;
 * - pastDue: status "Past Due" (the user adds a payment method to resume);
 * - cancelled: status "Canceled" while the paid period has not ended (the plan stays active
 *   until `expires`; no refunds);
 * - active: status "Active" or expiry in the future;
 * - none: no subscription, or nothing above holds (e.g. cancelled and the period is over).
 * "In the future" is strictly after `now`; an expiry exactly at `now` is in the past.
 */
export function subscriptionState(sub: StateFields | null | undefined, now: Date): SubscriptionState {
  if (!sub) return 'none';
  if (sub.trial === 1 && inFuture(sub.first_billing_date, now)) return 'trial';
  if (isTrialSubscription(sub) && inPast(sub.expires, now)) return 'trialExpired';
  if (sub.status === 'Past Due') return 'pastDue';
  if (sub.status === 'Canceled') return inFuture(sub.expires, now) ? 'cancelled' : 'none';
  if (sub.status === 'Active' || inFuture(sub.expires, now)) return 'active';
  return 'none';
}

/**
 * A trial whose card is added: the trial runs until the first billing date, then the card is
 * charged `next_billing_amount` (one state on the subscription page, not a trial plus an offer).
 */
export function trialWithPaymentMethod(
  sub: (StateFields & Pick<Subscription, 'payment_method'>) | null | undefined,
  now: Date,
): boolean {
  return !!sub && sub.payment_method === 1 && subscriptionState(sub, now) === 'trial';
}

/** Whether the user has the plan's features now: trial, active, cancelled-but-paid, past due. */
export function planIsActive(sub: StateFields | null | undefined, now: Date): boolean {
  const state = subscriptionState(sub, now);
  return state === 'trial' || state === 'active' || state === 'cancelled' || state === 'pastDue';
}

/** Subscriptions created before this day (UTC) never show the trial-ended banner (spec §4). */
export const TRIAL_BANNER_SINCE = '2025-01-13';
export const UPDATE_SUBSCRIPTION_PAGE = 'subscription/update';

/**
 * Spec §4: the trial-ended banner shows for an expired trial created after 2025-01-13 (i.e. on
 * 2025-01-14 UTC or later), except for users in Estonia (country EE) and on the
 * update-subscription page (`page` is a route path; "/settings/subscription/update" matches).
 */
export function showTrialEndedBanner(
  sub: (StateFields & Pick<Subscription, 'created'>) | null | undefined,
  context: { country: string | null | undefined; page: string | null | undefined; now: Date },
): boolean {
  if (!sub || subscriptionState(sub, context.now) !== 'trialExpired') return false;
  const created = instant(sub.created);
  if (!(created >= instant(TRIAL_BANNER_SINCE) + 24 * 3600 * 1000)) return false;
  if ((context.country ?? '').trim().toUpperCase() === 'EE') return false;
  const page = (context.page ?? '').replace(/^\/+|\/+$/g, '');
  return !(page === UPDATE_SUBSCRIPTION_PAGE || page.endsWith(`/${UPDATE_SUBSCRIPTION_PAGE}`));
}

/** The first billing date of a trial started at `now`: 7 days later (spec §9). */
export function trialFirstBillingDate(now: Date): Date {
  return new Date(now.getTime() + TRIAL_DAYS * 24 * 3600 * 1000);
}

/** The Braintree plan id for a plan and period, e.g. "premium-yearly" (must exist in Braintree). */
export function billingPlanId(plan: PlanName, period: BillingPeriod): string {
  return `${plan}-${period}`;
}

// ---------------------------------------------------------------------------------------------
// Operations of the billing service (issue 12): inputs, replies and the `billingOperations` map

/** What the user types to cancel the subscription (spec §5); anything else → ERR_CONFIRMATION_FAILED. */
export const CANCEL_SUBSCRIPTION_CONFIRMATION_PHRASE = 'CANCEL';

/** The plans one can subscribe to or try (starter is what one has without a subscription). */
export const PAID_PLAN_NAMES = ['standard', 'premium', 'ultimate'] as const satisfies readonly PlanName[];
export type PaidPlanName = (typeof PAID_PLAN_NAMES)[number];
export const paidPlanSchema = z.enum(PAID_PLAN_NAMES);
export const billingPeriodSchema = z.enum(BILLING_PERIODS);
export const seatsSchema = z.number().int().min(1).max(MAX_SEATS);
/** a payment method nonce from Drop-in (or a test nonce such as fake-valid-nonce); single use */
export const nonceSchema = z.string().min(1).max(4096);
/** promo codes are compared upper case without surrounding spaces */
export const promoCodeSchema = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
  .transform((c) => c.toUpperCase());
/** an invoice id in a path (the payment provider's transaction id) */
export const invoiceIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not an invoice id');

/** POST /api/billing/trial: 7 days of a paid plan without a card, once per person (spec §4, §5, §9). */
export const trialInputSchema = z.strictObject({
  plan: paidPlanSchema,
  billing_period: billingPeriodSchema,
  /** spec §5: the terms must be agreed before a trial starts */
  terms: z.literal(true, { message: 'The terms must be accepted' }),
});
export type TrialInput = z.infer<typeof trialInputSchema>;

/**
 * POST /api/billing/subscription: subscribe, or upgrade the running subscription (a new card,
 * plan, period or seat count). The card is charged at once, or at the end of a running trial.
 */
export const subscribeInputSchema = z.strictObject({
  plan: paidPlanSchema,
  billing_period: billingPeriodSchema,
  seats: seatsSchema,
  nonce: nonceSchema,
  billing: billingFormSchema,
  promo: promoCodeSchema.optional(),
});
export type SubscribeInput = z.infer<typeof subscribeInputSchema>;

/**
 * PUT /api/billing/subscription: change the plan, the period or the seats (from the next billing
 * date on; no proration), and/or give a new payment method (a past-due subscription is charged
 * again with it, spec §4 "add a payment method to resume"). At least one field.
 */
export const subscriptionChangeInputSchema = z
  .strictObject({
    plan: paidPlanSchema.optional(),
    billing_period: billingPeriodSchema.optional(),
    seats: seatsSchema.optional(),
    nonce: nonceSchema.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'nothing to change');
export type SubscriptionChangeInput = z.infer<typeof subscriptionChangeInputSchema>;

/** POST /api/billing/subscription/cancel */
export const subscriptionCancelInputSchema = z.strictObject({ confirmation: z.string().max(100) });

export const freeTrialReplySchema = z.object({ canHaveFreeTrial: z.boolean() });
export const clientTokenReplySchema = z.object({ clientToken: z.string().min(1) });
export const invoiceRefSchema = z.strictObject({ id: invoiceIdSchema });

/**
 * A file a service hands to the gateway for download (RouteDef `reply: 'file'`): the gateway
 * sends the decoded bytes with this content type. Small files only (a NATS message holds 1 MiB).
 */
export const fileReplySchema = z.object({
  filename: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
  contentType: z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/),
  base64: z.string(),
});
export type FileReply = z.infer<typeof fileReplySchema>;

/** POST /api/billing/webhooks: what Braintree posts (form-encoded), verified by its signature. */
export const webhookInputSchema = z.strictObject({
  bt_signature: z.string().min(1).max(10_000),
  bt_payload: z.string().min(1).max(200_000),
});
export const webhookReplySchema = z.object({
  ok: z.literal(true),
  /** the same notification was handled before: nothing was changed */
  duplicate: z.boolean(),
});

const emptyBillingInput = z.object({});

/**
 * Every billing operation with its request and reply schema: the service registers exactly these
 * and the gateway routes refer to them by name.
 */
export const billingOperations = {
  'subscription.get': { input: emptyBillingInput, output: subscriptionSchema.nullable() },
  'trial.available': { input: emptyBillingInput, output: freeTrialReplySchema },
  'trial.start': { input: trialInputSchema, output: subscriptionSchema },
  'clientToken.get': { input: emptyBillingInput, output: clientTokenReplySchema },
  'subscription.create': { input: subscribeInputSchema, output: subscriptionSchema },
  'subscription.update': { input: subscriptionChangeInputSchema, output: subscriptionSchema },
  'subscription.cancel': { input: subscriptionCancelInputSchema, output: subscriptionSchema },
  'invoices.list': { input: emptyBillingInput, output: z.array(invoiceSchema) },
  'invoice.pdf': { input: invoiceRefSchema, output: fileReplySchema },
  'webhook.receive': { input: webhookInputSchema, output: webhookReplySchema },
} as const;
export type BillingOperation = keyof typeof billingOperations;
