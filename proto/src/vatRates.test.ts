/**
 * The EU standard VAT rates billing charges (proto/src/billing.ts), listed one by one so that a
 * rate change is a deliberate edit of both. Rates in force on 1 January 2026 (European
 * Commission, "VAT rates applied in the Member States of the European Union").
 */
import { describe, expect, it } from '@jest/globals';
import { EU_STANDARD_VAT_RATES, isEuCountry, vatFor } from './billing';

const RATES_2026: Record<string, number> = {
  AT: 20, // Austria
  BE: 21, // Belgium
  BG: 20, // Bulgaria
  CY: 19, // Cyprus
  CZ: 21, // Czechia
  DE: 19, // Germany
  DK: 25, // Denmark
  EE: 24, // Estonia: 22 → 24 on 1 July 2025
  ES: 21, // Spain
  FI: 25.5, // Finland: 24 → 25.5 on 1 September 2024
  FR: 20, // France
  GR: 24, // Greece (VAT numbers: EL)
  HR: 25, // Croatia
  HU: 27, // Hungary
  IE: 23, // Ireland
  IT: 22, // Italy
  LT: 21, // Lithuania
  LU: 17, // Luxembourg: back to 17 on 1 January 2024
  LV: 21, // Latvia
  MT: 18, // Malta
  NL: 21, // Netherlands
  PL: 23, // Poland
  PT: 23, // Portugal (mainland)
  RO: 21, // Romania: 19 → 21 on 1 August 2025
  SE: 25, // Sweden
  SI: 22, // Slovenia
  SK: 23, // Slovakia: 20 → 23 on 1 January 2025
};

describe('EU standard VAT rates (2026)', () => {
  it('has exactly the 27 member states with their 2026 standard rates', () => {
    expect(Object.keys(EU_STANDARD_VAT_RATES).sort()).toEqual(Object.keys(RATES_2026).sort());
    expect(Object.keys(RATES_2026)).toHaveLength(27);
    for (const [country, rate] of Object.entries(RATES_2026)) {
      expect([country, EU_STANDARD_VAT_RATES[country]]).toEqual([country, rate]);
    }
  });

  it('charges a consumer of each member state that rate, and nobody outside the EU', () => {
    for (const [country, rate] of Object.entries(RATES_2026)) {
      expect(vatFor({ countryCode: country }).ratePercent).toBe(rate);
    }
    expect(isEuCountry('GB')).toBe(false);
    expect(isEuCountry('NO')).toBe(false);
    expect(vatFor({ countryCode: 'CH' }).applies).toBe(false);
  });
});
