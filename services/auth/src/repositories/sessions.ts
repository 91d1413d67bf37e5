/** SQL on auth.sessions. */
import type { Db } from './db';

export interface SessionRow {
  id: string;
  user_id: number;
  expires_at: Date;
}

export async function insertSession(
  db: Db,
  s: { id: string; userId: number; expiresAt: Date; ip?: string; userAgent?: string },
): Promise<void> {
  await db.query('INSERT INTO sessions (id, user_id, expires_at, ip, user_agent) VALUES ($1, $2, $3, $4, $5)', [
    s.id,
    s.userId,
    s.expiresAt,
    s.ip ?? null,
    s.userAgent?.slice(0, 512) ?? null,
  ]);
}

/** a session that is not revoked, not expired, and whose user is not terminated */
export async function findActiveSession(db: Db, id: string, now: Date): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    `SELECT s.id, s.user_id, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND u.terminated_at IS NULL`,
    [id, now],
  );
  return rows[0] ?? null;
}

/** revoke the given sessions (only still-active ones); returns the ids actually revoked */
export async function revokeSessionsByIds(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    'UPDATE sessions SET revoked_at = now() WHERE id = ANY($1) AND revoked_at IS NULL RETURNING id',
    [ids],
  );
  return rows.map((r) => r.id);
}

/** revoke every active session of a user, optionally keeping one; returns the revoked ids */
export async function revokeUserSessions(db: Db, userId: number, exceptId?: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND id <> $2 RETURNING id',
    [userId, exceptId ?? ''],
  );
  return rows.map((r) => r.id);
}

/** housekeeping: drop sessions that ended more than `olderThan` ago */
export async function deleteEndedSessions(db: Db, olderThan: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM sessions WHERE expires_at < $1 OR revoked_at < $1', [olderThan]);
  return rowCount ?? 0;
}
