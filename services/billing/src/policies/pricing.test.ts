import { vatFor } from '@wb/proto';
import { chargeFor, discounted } from './pricing';

describe('chargeFor', () => {
  it('spec §9 price, less the promo, plus the buyer’s VAT', () => {
    const ee = vatFor({ countryCode: 'EE' });
    expect(chargeFor({ plan: 'standard', period: 'monthly', seats: 1, promoPercent: 0, vat: ee })).toMatchObject({
      planId: 'standard-monthly',
      netCents: 1000,
      vatCents: 240,
      grossCents: 1240,
    });
    expect(chargeFor({ plan: 'premium', period: 'yearly', seats: 3, promoPercent: 20, vat: ee })).toMatchObject({
      listCents: 90000,
      netCents: 72000,
      grossCents: 89280,
    });
    const reverse = vatFor({ countryCode: 'DE', vatNumber: 'DE123456789', vatNumberValid: true });
    expect(chargeFor({ plan: 'ultimate', period: 'monthly', seats: 2, promoPercent: 0, vat: reverse }).grossCents).toBe(
      35800,
    );
  });

  it('rounds a percent off half up to the cent', () => {
    expect(discounted(999, 10)).toBe(899); // 99.9 off → 100
    expect(discounted(1000, 0)).toBe(1000);
    expect(discounted(1000, 100)).toBe(0);
  });
});
