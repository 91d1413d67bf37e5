/// <reference types="jest" />
import {
  billingFormErrors,
  daysLeft,
  memberOfOthersTeam,
  parseEmails,
  paymentEnvironment,
  phraseMatches,
  quote,
} from './billingLogic';

const token = (env: string) => Buffer.from(JSON.stringify({ version: 2, environment: env })).toString('base64');

test('quote: per-seat yearly price × 12 × seats, VAT by proto vatFor', () => {
  // premium yearly, 3 seats: 25 € × 12 × 3 = 900 €; Germany without VAT number: 19 %
  expect(quote('premium', 'yearly', 3, 'DE', '')).toMatchObject({
    netCents: 90_000,
    vatCents: 17_100,
    grossCents: 107_100,
    vatApplies: true,
    vatRate: 19,
    months: 12,
  });
  // a well-formed German VAT number: reverse charge, no VAT
  expect(quote('premium', 'yearly', 3, 'de', 'DE123456789')).toMatchObject({ vatCents: 0, vatApplies: false });
  // Estonia always pays VAT (24 %)
  expect(quote('standard', 'monthly', 1, 'EE', 'EE100000000')).toMatchObject({
    netCents: 1000,
    vatCents: 240,
    grossCents: 1240,
  });
  // outside the EU and no country yet: no VAT
  expect(quote('ultimate', 'monthly', 2, 'US', '')).toMatchObject({ netCents: 35_800, vatCents: 0 });
  expect(quote('standard', 'yearly', 1, '', '')).toMatchObject({ netCents: 10_800, vatApplies: false });
  // a nonsense seat count counts as one
  expect(quote('standard', 'monthly', 0, '', '').netCents).toBe(1000);
});

test('daysLeft rounds up and stops at 0', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  expect(daysLeft('2026-03-08T12:00:00Z', now)).toBe(7);
  expect(daysLeft('2026-03-08T11:00:00Z', now)).toBe(7);
  expect(daysLeft('2026-03-02', now)).toBe(1);
  expect(daysLeft('2026-02-28', now)).toBe(0);
  expect(daysLeft(null, now)).toBe(0);
});

test('paymentEnvironment reads the client token', () => {
  expect(paymentEnvironment(token('fake'))).toBe('fake');
  expect(paymentEnvironment(token('sandbox'))).toBe('sandbox');
  expect(paymentEnvironment(token('production'))).toBe('production');
  expect(paymentEnvironment(token('elsewhere'))).toBe('unknown');
  expect(paymentEnvironment('not base64 json')).toBe('unknown');
  expect(paymentEnvironment(undefined)).toBe('unknown');
});

test('billing form: required fields, email, VAT number format for the country', () => {
  const ok = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    company: '',
    vat_nr: '',
    country_code: 'DE',
    city_region: 'Berlin',
    postal_code: '10115',
    street_address: 'Unter den Linden 1',
    extended_address: '',
  };
  expect(billingFormErrors(ok)).toEqual({});
  expect(billingFormErrors({ ...ok, first_name: ' ', email: 'nope' })).toEqual({
    first_name: 'required',
    email: 'email',
  });
  expect(billingFormErrors({ ...ok, vat_nr: 'DE12' })).toEqual({ vat_nr: 'vat' });
  expect(billingFormErrors({ ...ok, vat_nr: 'DE123456789' })).toEqual({});
  expect(Object.keys(billingFormErrors({ ...ok, country_code: '' }))).toEqual(['country_code']);
});

test('parseEmails splits, trims, lower-cases and dedupes', () => {
  expect(parseEmails(' A@x.org, b@y.org;\n a@x.org  c@z.org\n\n')).toEqual(['a@x.org', 'b@y.org', 'c@z.org']);
  expect(parseEmails('  ')).toEqual([]);
});

test('confirmation phrases and team membership', () => {
  expect(phraseMatches(' LEAVE ', 'LEAVE')).toBe(true);
  expect(phraseMatches('leave', 'LEAVE')).toBe(false);
  expect(memberOfOthersTeam(null)).toBe(false);
  expect(memberOfOthersTeam({ role: 'owner' })).toBe(false);
  expect(memberOfOthersTeam({ role: 'member' })).toBe(true);
});
