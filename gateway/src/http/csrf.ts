/**
 * CSRF: OWASP signed double-submit cookie, bound to the session.
 *   token     = <nonce>.<hmac>,  hmac = base64url(HMAC-SHA256(CSRF_SECRET, bindingId + "." + nonce))
 *   bindingId = the session id when logged in, else the anonymous id of the HttpOnly `anon` cookie
 * The token travels in a readable cookie; unsafe requests must echo it in `x-csrf-token` (or the
 * body field `csrf-token`). A token minted for another session or visitor fails the HMAC, so a
 * planted cookie/header pair from an attacker's own visit is useless.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const NONCE_BYTES = 16;
/** base64url of 16 bytes / of a sha256 digest */
const NONCE_LENGTH = 22;
const MAC_LENGTH = 43;
const TOKEN_RE = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;

export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_BODY_FIELD = 'csrf-token';
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function mac(secret: string, bindingId: string, nonce: string): string {
  return createHmac('sha256', secret).update(`${bindingId}.${nonce}`).digest('base64url');
}

export function mintCsrfToken(secret: string, bindingId: string): string {
  const nonce = randomBytes(NONCE_BYTES).toString('base64url');
  return `${nonce}.${mac(secret, bindingId, nonce)}`;
}

/** Whether `token` was minted by us for `bindingId` (constant-time MAC comparison). */
export function isCsrfTokenValid(secret: string, bindingId: string, token: string | undefined): boolean {
  if (!token || token.length !== NONCE_LENGTH + 1 + MAC_LENGTH || !TOKEN_RE.test(token)) return false;
  const nonce = token.slice(0, NONCE_LENGTH);
  const expected = Buffer.from(mac(secret, bindingId, nonce));
  const given = Buffer.from(token.slice(NONCE_LENGTH + 1));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Constant-time equality of the submitted and the cookie token. */
export function sameToken(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/** Anonymous binding id: random, opaque, only meaningful to this gateway fleet. */
export function mintAnonId(): string {
  return randomBytes(NONCE_BYTES).toString('base64url');
}
export function isAnonId(value: string | undefined): value is string {
  return value !== undefined && value.length === NONCE_LENGTH && /^[A-Za-z0-9_-]+$/.test(value);
}
