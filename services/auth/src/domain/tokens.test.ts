import { describe, expect, it } from '@jest/globals';
import {
  checkToken,
  expiryFor,
  hashLinkToken,
  looksLikeLinkToken,
  newLinkToken,
  signUnsubscribeToken,
  TOKEN_TTL_MS,
  verifyUnsubscribeToken,
} from './tokens';

const now = new Date('2025-03-01T12:00:00Z');

describe('link tokens', () => {
  it('are 256-bit URL-safe strings stored only as their sha256', () => {
    const token = newLinkToken();
    expect(looksLikeLinkToken(token)).toBe(true);
    expect(newLinkToken()).not.toBe(token);
    expect(hashLinkToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashLinkToken(token)).toBe(hashLinkToken(token));
    expect(looksLikeLinkToken('short')).toBe(false);
    expect(looksLikeLinkToken(undefined)).toBe(false);
    expect(looksLikeLinkToken(`${token}'--`)).toBe(false);
  });

  it('password recovery links last exactly 1 hour', () => {
    expect(TOKEN_TTL_MS.password_recovery).toBe(3600_000);
    const expiresAt = expiryFor('password_recovery', now);
    expect(
      checkToken(
        { purpose: 'password_recovery', expiresAt, usedAt: null },
        'password_recovery',
        new Date(now.getTime() + 3599_000),
      ),
    ).toBe('ok');
    expect(
      checkToken(
        { purpose: 'password_recovery', expiresAt, usedAt: null },
        'password_recovery',
        new Date(now.getTime() + 3600_000),
      ),
    ).toBe('expired');
  });

  it('a token of one purpose never works for another', () => {
    const expiresAt = expiryFor('verify_email', now);
    expect(checkToken({ purpose: 'verify_email', expiresAt, usedAt: null }, 'password_recovery', now)).toBe(
      'wrong_purpose',
    );
    expect(checkToken({ purpose: 'change_email', expiresAt, usedAt: null }, 'revert_email_change', now)).toBe(
      'wrong_purpose',
    );
  });

  it('a used token is reported as used', () => {
    expect(
      checkToken(
        { purpose: 'verify_email', expiresAt: expiryFor('verify_email', now), usedAt: now },
        'verify_email',
        now,
      ),
    ).toBe('used');
  });

  it('the revert link outlives the confirmation link', () => {
    expect(TOKEN_TTL_MS.revert_email_change).toBeGreaterThan(TOKEN_TTL_MS.change_email);
  });
});

describe('unsubscribe tokens', () => {
  const secret = 'x'.repeat(40);

  it('carry the user id under an HMAC', () => {
    const token = signUnsubscribeToken(42, secret);
    expect(verifyUnsubscribeToken(token, secret)).toBe(42);
  });

  it('refuse a changed id, a changed signature, another secret and garbage', () => {
    const token = signUnsubscribeToken(42, secret);
    const [, mac] = token.split('.');
    expect(verifyUnsubscribeToken(`43.${mac}`, secret)).toBeNull();
    expect(verifyUnsubscribeToken(`42.${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`, secret)).toBeNull();
    expect(verifyUnsubscribeToken(token, 'y'.repeat(40))).toBeNull();
    for (const bad of [undefined, '', '42', '0.abc', 'abc.def', '-1.' + mac])
      expect(verifyUnsubscribeToken(bad, secret)).toBeNull();
  });
});
