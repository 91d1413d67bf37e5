/**
 * Pure rules of the billing and team pages (unit tested in billingLogic.spec.ts): prices for a
 * choice with VAT, days left in a trial, the payment environment behind a client token, the
 * billing form's checks, the invitation textarea and confirmation phrases.
 */
import {
  PLANS,
  priceOf,
  vatFor,
  vatNumberFormatValid,
  withVat,
  type BillingFormInput,
  type BillingPeriod,
  type PaidPlanName,
  type PlanName,
  type Subscription,
} from '@wb/proto';

/** Plans whose subscription is per seat for a team (the `team` feature). */
export function isTeamPlan(plan: PlanName): boolean {
  return PLANS[plan].features.team;
}

export interface Quote {
  netCents: number;
  vatCents: number;
  grossCents: number;
  vatRate: number;
  vatApplies: boolean;
  months: number;
  perSeatMonthlyCents: number;
}

/**
 * What a choice costs per billing cycle. The VAT number's format is checked here (the server
 * asks VIES): a well-formed number counts as valid for the preview.
 */
export function quote(
  plan: PaidPlanName,
  period: BillingPeriod,
  seats: number,
  countryCode: string,
  vatNumber: string,
): Quote {
  const price = priceOf(plan, period, Math.max(1, Math.floor(seats) || 1));
  const country = countryCode.trim().toUpperCase();
  const number = vatNumber.trim();
  const vat = country
    ? vatFor({
        countryCode: country,
        vatNumber: number,
        vatNumberValid: !!number && vatNumberFormatValid(country, number),
      })
    : { applies: false, ratePercent: 0, rule: 'outsideEu' as const };
  const sums = withVat(price.totalCents, vat);
  return {
    ...sums,
    vatRate: vat.ratePercent,
    vatApplies: vat.applies,
    months: price.months,
    perSeatMonthlyCents: price.perSeatMonthlyCents,
  };
}

/** Whole days left until `until` (rounded up; 0 once past). */
export function daysLeft(until: string | null | undefined, now: Date): number {
  if (!until) return 0;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(until) ? `${until}T00:00:00Z` : until) - now.getTime();
  return ms > 0 ? Math.ceil(ms / 86_400_000) : 0;
}

export type PaymentEnvironment = 'fake' | 'sandbox' | 'production' | 'unknown';

/** Braintree client tokens are base64 JSON with an `environment` (the local fake says "fake"). */
export function paymentEnvironment(clientToken: string | undefined): PaymentEnvironment {
  if (!clientToken) return 'unknown';
  try {
    const decoded = JSON.parse(atob(clientToken)) as { environment?: unknown };
    const env = decoded.environment;
    return env === 'fake' || env === 'sandbox' || env === 'production' ? env : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The test nonces the fake gateway (and Braintree's sandbox) understand. */
export const TEST_NONCES = {
  valid: 'fake-valid-nonce',
  declined: 'fake-processor-declined-visa-nonce',
} as const;

export type BillingField = keyof BillingFormInput;
export const REQUIRED_BILLING_FIELDS: BillingField[] = [
  'first_name',
  'last_name',
  'email',
  'country_code',
  'city_region',
  'postal_code',
  'street_address',
];

/** Field → error key ('required', 'email', 'vat'); empty when the form may be sent. */
export function billingFormErrors(form: BillingFormInput): Partial<Record<BillingField, string>> {
  const errors: Partial<Record<BillingField, string>> = {};
  for (const f of REQUIRED_BILLING_FIELDS) if (!String(form[f] ?? '').trim()) errors[f] = 'required';
  if (!errors.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(form.email).trim())) errors.email = 'email';
  const vat = String(form.vat_nr ?? '').trim();
  if (vat && form.country_code && !vatNumberFormatValid(String(form.country_code), vat)) errors.vat_nr = 'vat';
  return errors;
}

/** Addresses typed into the invitation box: split on commas, semicolons, spaces and lines. */
export function parseEmails(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\s,;]+/)) {
    const e = part.trim().toLowerCase();
    if (e) seen.add(e);
  }
  return [...seen];
}

/** The confirm button of a phrase dialog is enabled only once the phrase is typed exactly. */
export function phraseMatches(typed: string, phrase: string): boolean {
  return typed.trim() === phrase;
}

/** Subscription pages belong to the owner: a member of someone else's team goes to Team. */
export function memberOfOthersTeam(info: { role: string } | null | undefined): boolean {
  return !!info && info.role !== 'owner';
}

/** A date for display in the user's language ("2026-05-01" is read as that day, UTC). */
export function formatDate(value: string | null | undefined, locale: string): string {
  if (!value) return '—';
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(d.getTime())) return value;
  return d.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

export type { Subscription };
