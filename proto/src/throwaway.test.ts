import { describe, expect, it } from '@jest/globals';
import { THROWAWAY_DOMAINS, ThrowawayDomains } from './throwaway';

describe('ThrowawayDomains', () => {
  const list = new ThrowawayDomains();

  it('embeds at least 100 distinct well-known disposable domains', () => {
    expect(new Set(THROWAWAY_DOMAINS).size).toBe(THROWAWAY_DOMAINS.length);
    expect(THROWAWAY_DOMAINS.length).toBeGreaterThanOrEqual(100);
    for (const d of THROWAWAY_DOMAINS) expect(d).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
  });

  it('rejects listed domains, case-insensitively, and their subdomains', () => {
    expect(list.isThrowaway('someone@mailinator.com')).toBe(true);
    expect(list.isThrowaway('someone@MAILINATOR.COM')).toBe(true);
    expect(list.isThrowaway('someone@inbox.yopmail.com')).toBe(true);
    expect(list.isThrowaway('someone@guerrillamail.com')).toBe(true);
  });

  it('accepts ordinary providers and look-alikes that are not subdomains', () => {
    for (const email of [
      'a@gmail.com',
      'b@example.org',
      'c@school.edu',
      'd@notmailinator.co',
      'e@mymailinator.com',
      'f@com',
    ]) {
      expect(list.isThrowaway(email)).toBe(false);
    }
  });

  it('adds operator-supplied extra domains', () => {
    const extended = new ThrowawayDomains([' Burner.Example ', '']);
    expect(extended.isThrowaway('x@burner.example')).toBe(true);
    expect(extended.size).toBe(list.size + 1);
    expect(list.isThrowaway('x@burner.example')).toBe(false);
  });
});
