/**
 * Single-use tokens mailed in links (verification, recovery, email change and its revert).
 * The raw token exists only in the mail; the database keeps its sha256 with a purpose, an expiry
 * and a used_at, so a leaked table cannot be replayed and a token of one purpose never works for
 * another. Unsubscribe links instead carry an HMAC-signed user id: they must keep working for
 * as long as old mails exist, and they only ever turn product mails off.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PASSWORD_RECOVERY_TTL_MS } from '@wb/proto';

export const TOKEN_PURPOSES = ['verify_email', 'password_recovery', 'change_email', 'revert_email_change'] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

const HOUR = 60 * 60 * 1000;
export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  verify_email: 72 * HOUR,
  password_recovery: PASSWORD_RECOVERY_TTL_MS,
  change_email: 24 * HOUR,
  // the owner of the old address may only notice the mail days later
  revert_email_change: 7 * 24 * HOUR,
};

/** 256 random bits, URL-safe (43 characters) */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
/** cheap shape check so garbage never reaches the database */
export function looksLikeLinkToken(token: string | undefined): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token);
}

export interface TokenState {
  purpose: string;
  expiresAt: Date;
  usedAt: Date | null;
}
export type TokenCheck = 'ok' | 'wrong_purpose' | 'used' | 'expired';

export function checkToken(token: TokenState, purpose: TokenPurpose, now: Date): TokenCheck {
  if (token.purpose !== purpose) return 'wrong_purpose';
  if (token.usedAt !== null) return 'used';
  if (token.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'ok';
}

export function expiryFor(purpose: TokenPurpose, now: Date): Date {
  return new Date(now.getTime() + TOKEN_TTL_MS[purpose]);
}

// ---------------------------------------------------------------------------------------------
// Signed unsubscribe tokens: "<userId>.<hmac>"

function unsubscribeMac(userId: number, secret: string): string {
  return createHmac('sha256', secret).update(`unsubscribe:${userId}`).digest('base64url');
}
export function signUnsubscribeToken(userId: number, secret: string): string {
  return `${userId}.${unsubscribeMac(userId, secret)}`;
}
/** the user id, or null when the token is malformed or its signature does not match */
export function verifyUnsubscribeToken(token: string | undefined, secret: string): number | null {
  const m = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token ?? '');
  if (!m) return null;
  const userId = Number(m[1]);
  if (!Number.isSafeInteger(userId) || userId > 2 ** 31 - 1) return null;
  const expected = Buffer.from(unsubscribeMac(userId, secret));
  const given = Buffer.from(m[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? userId : null;
}
