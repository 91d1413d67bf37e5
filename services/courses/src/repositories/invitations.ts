/** SQL of course invitations and the hashes of their mailed tokens. */
import type { Db } from './db';

export interface InvitationRow {
  id: number;
  course_id: number;
  email: string;
  invited_by: number;
  locale: string;
  status: 'pending' | 'accepted' | 'cancelled';
  created_at: Date;
  expires_at: Date;
}
const COLS = 'id, course_id, email, invited_by, locale, status, created_at, expires_at';

/** pending and not expired, newest first */
export async function listPending(db: Db, courseId: number, now: Date): Promise<InvitationRow[]> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${COLS} FROM invitations WHERE course_id = $1 AND status = 'pending' AND expires_at > $2
     ORDER BY created_at DESC, id DESC`,
    [courseId, now],
  );
  return rows;
}

/** an expired pending invitation makes room for a new one to the same address */
export async function cancelExpired(db: Db, courseId: number, now: Date): Promise<void> {
  await db.query(
    `UPDATE invitations SET status = 'cancelled', decided_at = $2
     WHERE course_id = $1 AND status = 'pending' AND expires_at <= $2`,
    [courseId, now],
  );
}

export async function insertInvitation(
  db: Db,
  v: { courseId: number; email: string; invitedBy: number; locale: string; at: Date; expires: Date },
): Promise<InvitationRow> {
  const { rows } = await db.query<InvitationRow>(
    `INSERT INTO invitations (course_id, email, invited_by, locale, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLS}`,
    [v.courseId, v.email, v.invitedBy, v.locale, v.at, v.expires],
  );
  return rows[0]!;
}

export async function findInvitation(
  db: Db,
  id: number,
  opts: { forUpdate?: boolean } = {},
): Promise<InvitationRow | null> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${COLS} FROM invitations WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findInvitationByToken(db: Db, tokenHash: string): Promise<InvitationRow | null> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${COLS.split(', ')
      .map((c) => `i.${c}`)
      .join(', ')} FROM invitation_tokens t
     JOIN invitations i ON i.id = t.invitation_id WHERE t.token_hash = $1 FOR UPDATE OF i`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

export async function setInvitationStatus(
  db: Db,
  id: number,
  status: 'accepted' | 'cancelled',
  at: Date,
  acceptedBy: number | null = null,
): Promise<void> {
  await db.query('UPDATE invitations SET status = $2, decided_at = $3, accepted_by = $4 WHERE id = $1', [
    id,
    status,
    at,
    acceptedBy,
  ]);
}

export async function insertToken(db: Db, tokenHash: string, invitationId: number): Promise<void> {
  await db.query('INSERT INTO invitation_tokens (token_hash, invitation_id) VALUES ($1, $2)', [
    tokenHash,
    invitationId,
  ]);
}
