/**
 * The billing form's consequences: the VAT decision (format check, then the online check — VIES
 * in production) and the promo code's percent.
 */
import { AppError, isEuCountry, normalizeVatNumber, vatFor, vatNumberFormatValid } from '@wb/proto';
import type { BillingForm, VatDecision } from '@wb/proto';
import { findPromoPercent } from '../repositories/promoCodes';
import type { BillingDeps } from './deps';

function invalidVat(message: string): AppError {
  return new AppError('ERR_INVALID_VAT', message, { 'billing.vat_nr': message });
}

/**
 * Spec §9 through proto `vatFor`. A VAT number that is given must be well-formed for the country
 * and, in the EU, registered (VIES): otherwise ERR_INVALID_VAT — never a silent "charge VAT
 * anyway". When VIES cannot answer, ERR_TEMPORARY_PROBLEM: the customer tries again.
 */
export async function decideVat(
  deps: Pick<BillingDeps, 'vat'>,
  form: BillingForm,
): Promise<{ vat: VatDecision; vatNumber: string | null; vatNumberValid: boolean }> {
  const country = form.country_code;
  const given = form.vat_nr ? normalizeVatNumber(form.vat_nr) : null;
  if (!given) return { vat: vatFor({ countryCode: country }), vatNumber: null, vatNumberValid: false };
  if (!vatNumberFormatValid(country, given)) throw invalidVat('This VAT number is not valid for the country');
  if (isEuCountry(country)) {
    const verdict = await deps.vat.check(country, given);
    if (verdict === 'invalid') throw invalidVat('This VAT number is not registered (VIES)');
    if (verdict === 'unavailable') {
      throw new AppError('ERR_TEMPORARY_PROBLEM', 'The VAT number cannot be checked right now, please try again');
    }
  }
  return {
    vat: vatFor({ countryCode: country, vatNumber: given, vatNumberValid: true }),
    vatNumber: given,
    vatNumberValid: true,
  };
}

/** percent off for a promo code; unknown, inactive or expired → ERR_UNKNOWN_PROMO_CODE */
export async function promoPercent(
  deps: Pick<BillingDeps, 'pool' | 'now'>,
  code: string | undefined,
): Promise<{ code: string | null; percent: number }> {
  if (!code) return { code: null, percent: 0 };
  const percent = await findPromoPercent(deps.pool, code, deps.now());
  if (percent === null) throw new AppError('ERR_UNKNOWN_PROMO_CODE', undefined, { promo: 'unknown promo code' });
  return { code, percent };
}
