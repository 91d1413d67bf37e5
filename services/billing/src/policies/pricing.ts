/**
 * What a subscription costs per billing cycle: spec §9 prices (proto `priceOf`, integer cents),
 * less a promo code's percent, plus VAT by the buyer's country and VAT number (proto `vatFor`).
 */
import { billingPlanId, priceOf, vatFor, withVat } from '@wb/proto';
import type { BillingPeriod, PaidPlanName, VatDecision } from '@wb/proto';

export interface Charge {
  planId: string;
  /** before the promo */
  listCents: number;
  netCents: number;
  vatCents: number;
  /** what the card is charged per cycle */
  grossCents: number;
  vat: VatDecision;
  promoPercent: number;
}

/** The net after a promo: percent off, rounded half up to the cent. */
export function discounted(cents: number, percentOff: number): number {
  if (percentOff <= 0) return cents;
  return cents - Math.floor((cents * percentOff + 50) / 100);
}

export function chargeFor(input: {
  plan: PaidPlanName;
  period: BillingPeriod;
  seats: number;
  promoPercent: number;
  vat: VatDecision;
}): Charge {
  const listCents = priceOf(input.plan, input.period, input.seats).totalCents;
  const net = discounted(listCents, input.promoPercent);
  const { vatCents, grossCents } = withVat(net, input.vat);
  return {
    planId: billingPlanId(input.plan, input.period),
    listCents,
    netCents: net,
    vatCents,
    grossCents,
    vat: input.vat,
    promoPercent: input.promoPercent,
  };
}

/** The VAT decision stored with a subscription, back as a VatDecision. */
export function storedVat(row: { vat_rate: number; vat_rule: string }): VatDecision {
  const rule = row.vat_rule as VatDecision['rule'];
  return { applies: row.vat_rate > 0, ratePercent: row.vat_rate, rule };
}

export { vatFor };
