/** SQL on auth.tokens (hashed single-use link tokens). */
import type { TokenPurpose } from '../domain/tokens';
import type { Db } from './db';

export interface TokenRow {
  id: string;
  user_id: number;
  purpose: TokenPurpose;
  payload: Record<string, unknown>;
  expires_at: Date;
  used_at: Date | null;
}

export async function insertToken(
  db: Db,
  t: { id: string; userId: number; purpose: TokenPurpose; payload: Record<string, unknown>; expiresAt: Date },
): Promise<void> {
  await db.query('INSERT INTO tokens (id, user_id, purpose, payload, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    t.id,
    t.userId,
    t.purpose,
    JSON.stringify(t.payload),
    t.expiresAt,
  ]);
}

export async function findToken(db: Db, id: string, opts: { forUpdate?: boolean } = {}): Promise<TokenRow | null> {
  const { rows } = await db.query<TokenRow>(
    `SELECT id, user_id, purpose, payload, expires_at, used_at FROM tokens WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function markTokenUsed(db: Db, id: string): Promise<void> {
  await db.query('UPDATE tokens SET used_at = now() WHERE id = $1', [id]);
}

/** make every unused token of these purposes unusable (e.g. all recovery links after a reset) */
export async function invalidateUserTokens(db: Db, userId: number, purposes: TokenPurpose[]): Promise<void> {
  await db.query('UPDATE tokens SET used_at = now() WHERE user_id = $1 AND purpose = ANY($2) AND used_at IS NULL', [
    userId,
    purposes,
  ]);
}

export async function deleteUserTokens(db: Db, userId: number): Promise<void> {
  await db.query('DELETE FROM tokens WHERE user_id = $1', [userId]);
}

/** housekeeping */
export async function deleteExpiredTokens(db: Db, olderThan: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM tokens WHERE expires_at < $1', [olderThan]);
  return rowCount ?? 0;
}
