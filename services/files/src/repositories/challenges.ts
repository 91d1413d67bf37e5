/** Possession challenges (issue 25 §4): short-lived, single-use, one person and one document each. */
import type { Db } from './db';

export interface ByteRange {
  start: number;
  end: number;
}

export async function insertChallenge(
  db: Db,
  c: { nonce: string; userId: number; docId: string; ranges: ByteRange[]; expiresAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO possession_challenges (nonce, user_id, doc_id, ranges, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [c.nonce, c.userId, c.docId, JSON.stringify(c.ranges), c.expiresAt],
  );
}

/** take (delete) the challenge if it is this person's, for this document and not expired */
export async function takeChallenge(
  db: Db,
  c: { nonce: string; userId: number; docId: string; now: Date },
): Promise<ByteRange[] | null> {
  const { rows } = await db.query<{ ranges: ByteRange[]; expires_at: Date; user_id: number; doc_id: string }>(
    'DELETE FROM possession_challenges WHERE nonce = $1 RETURNING ranges, expires_at, user_id, doc_id',
    [c.nonce],
  );
  const row = rows[0];
  // a nonce used by anyone else, for another document or too late is spent all the same
  if (!row || row.user_id !== c.userId || row.doc_id !== c.docId || row.expires_at <= c.now) return null;
  return row.ranges;
}

export async function deleteExpiredChallenges(db: Db, now: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM possession_challenges WHERE expires_at <= $1', [now]);
  return rowCount ?? 0;
}
