/**
 * The online check of a VAT number (spec §9: VAT is waived for EU businesses "unless a valid VAT
 * number is given"). One interface: VIES (the European Commission's VAT Information Exchange
 * System, REST API) in production, a fake in development and tests. The format check
 * (`vatNumberFormatValid` in proto) runs before either.
 */
import { normalizeVatNumber } from '@wb/proto';
import type { Logger } from '@wb/platform';

export type VatCheckResult = 'valid' | 'invalid' | 'unavailable';

export interface VatChecker {
  /** whether the number is registered for VAT in that member state right now */
  check(countryCode: string, vatNumber: string): Promise<VatCheckResult>;
}

/** VIES uses EL for Greece */
const VIES_PREFIX: Record<string, string> = { GR: 'EL' };

/** The number without its country prefix, as VIES wants it. */
export function viesNumber(countryCode: string, vatNumber: string): { ms: string; number: string } {
  const ms = VIES_PREFIX[countryCode] ?? countryCode;
  const n = normalizeVatNumber(vatNumber);
  return { ms, number: n.startsWith(ms) ? n.slice(ms.length) : n };
}

/**
 * VIES REST API: GET {VIES_URL}/ms/{memberState}/vat/{number} → {isValid, userError, …}. A member
 * state's service being down (userError MS_UNAVAILABLE, TIMEOUT, SERVICE_UNAVAILABLE…) or any
 * transport failure is 'unavailable': the caller asks the customer to try again rather than
 * charging VAT they may not owe.
 */
export class ViesVatChecker implements VatChecker {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly log: Logger,
  ) {}

  async check(countryCode: string, vatNumber: string): Promise<VatCheckResult> {
    const { ms, number } = viesNumber(countryCode, vatNumber);
    const url = `${this.baseUrl}/ms/${encodeURIComponent(ms)}/vat/${encodeURIComponent(number)}`;
    try {
      const res = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!res.ok) {
        this.log.warn({ status: res.status, memberState: ms }, 'VIES answered with an error status');
        return 'unavailable';
      }
      const body = (await res.json()) as { isValid?: unknown; userError?: unknown };
      if (body.isValid === true) return 'valid';
      if (body.userError === undefined || body.userError === 'VALID' || body.userError === 'INVALID') return 'invalid';
      if (body.userError === 'INVALID_INPUT') return 'invalid';
      this.log.warn({ userError: body.userError, memberState: ms }, 'VIES could not check the number');
      return 'unavailable';
    } catch (err) {
      this.log.warn({ err: (err as Error).message, memberState: ms }, 'VIES not reachable');
      return 'unavailable';
    }
  }
}

/**
 * Development and tests: every number is registered except those ending in 0000 (so a test can
 * have a well-formed number that "VIES" does not know), and numbers ending in 9999 are
 * 'unavailable' (a member state's service down).
 */
export class FakeVatChecker implements VatChecker {
  async check(_countryCode: string, vatNumber: string): Promise<VatCheckResult> {
    const n = normalizeVatNumber(vatNumber);
    if (n.endsWith('0000')) return 'invalid';
    if (n.endsWith('9999')) return 'unavailable';
    return 'valid';
  }
}
