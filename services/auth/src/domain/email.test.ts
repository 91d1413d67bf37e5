import { describe, expect, it } from '@jest/globals';
import { emailDomain, isValidEmail, normalizeEmail } from './email';

describe('email rules', () => {
  it('normalises by trimming and lower-casing', () => {
    expect(normalizeEmail('  Ann.Smith@Example.COM ')).toBe('ann.smith@example.com');
  });
  it('accepts ordinary addresses and refuses malformed ones', () => {
    expect(isValidEmail('ann@example.com')).toBe(true);
    expect(isValidEmail('ann+tag@sub.example.co.uk')).toBe(true);
    for (const bad of [
      '',
      'ann',
      'ann@',
      '@example.com',
      'ann@example',
      'ann example@x.com',
      `${'a'.repeat(250)}@x.com`,
    ]) {
      expect(isValidEmail(bad)).toBe(false);
    }
  });
  it('takes the domain after the last @', () => {
    expect(emailDomain('a@B.example.com')).toBe('b.example.com');
  });
});
