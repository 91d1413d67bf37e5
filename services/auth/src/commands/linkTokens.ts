/** Reading a mailed link's token inside a transaction: locked, checked for purpose, use and expiry. */
import type { PoolClient } from '@wb/platform';
import { checkToken, hashLinkToken, looksLikeLinkToken } from '../domain/tokens';
import type { TokenPurpose } from '../domain/tokens';
import { findToken } from '../repositories/tokens';
import type { TokenRow } from '../repositories/tokens';

export type TokenLookup =
  { status: 'ok'; token: TokenRow } | { status: 'used'; token: TokenRow } | { status: 'invalid' };

export async function lockLinkToken(
  client: PoolClient,
  raw: string | undefined,
  purpose: TokenPurpose,
  now: Date,
): Promise<TokenLookup> {
  if (!looksLikeLinkToken(raw)) return { status: 'invalid' };
  const token = await findToken(client, hashLinkToken(raw), { forUpdate: true });
  if (!token) return { status: 'invalid' };
  const check = checkToken(
    { purpose: token.purpose, expiresAt: token.expires_at, usedAt: token.used_at },
    purpose,
    now,
  );
  if (check === 'ok') return { status: 'ok', token };
  if (check === 'used') return { status: 'used', token };
  return { status: 'invalid' };
}

export function payloadString(token: TokenRow, key: string): string | null {
  const v = token.payload[key];
  return typeof v === 'string' ? v : null;
}
