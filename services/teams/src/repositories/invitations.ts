/** SQL on teams.invitations and teams.invitation_tokens. */
import type { Db } from './db';

export interface InvitationRow {
  id: number;
  business_id: number;
  email: string;
  locale: string;
  invited_by: number;
  status: 'pending' | 'accepted' | 'cancelled';
  created_at: Date;
}

const COLUMNS = 'id, business_id, email, locale, invited_by, status, created_at';

export async function insertInvitation(
  db: Db,
  i: { businessId: number; email: string; locale: string; invitedBy: number; at: Date },
): Promise<InvitationRow> {
  const { rows } = await db.query<InvitationRow>(
    `INSERT INTO invitations (business_id, email, locale, invited_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${COLUMNS}`,
    [i.businessId, i.email, i.locale, i.invitedBy, i.at],
  );
  return rows[0]!;
}

export async function findInvitation(
  db: Db,
  id: number,
  opts: { forUpdate?: boolean } = {},
): Promise<InvitationRow | null> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM invitations WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** the invitation a join link's token belongs to (not locked: lock its business first) */
export async function findInvitationByTokenHash(db: Db, tokenHash: string): Promise<InvitationRow | null> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${COLUMNS.split(', ')
      .map((c) => `i.${c}`)
      .join(', ')} FROM invitation_tokens t JOIN invitations i ON i.id = t.invitation_id
      WHERE t.token_hash = $1`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

/** pending invitations of a business, newest first */
export async function listPending(db: Db, businessId: number): Promise<InvitationRow[]> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM invitations WHERE business_id = $1 AND status = 'pending' ORDER BY created_at DESC, id DESC`,
    [businessId],
  );
  return rows;
}

export async function setInvitationStatus(
  db: Db,
  id: number,
  status: 'accepted' | 'cancelled',
  at: Date,
  acceptedBy: number | null = null,
): Promise<void> {
  await db.query('UPDATE invitations SET status = $2, accepted_by = $3, updated_at = $4 WHERE id = $1', [
    id,
    status,
    acceptedBy,
    at,
  ]);
}

/** every pending invitation of a business is cancelled (closing it) */
export async function cancelPending(db: Db, businessId: number, at: Date): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE invitations SET status = 'cancelled', updated_at = $2 WHERE business_id = $1 AND status = 'pending'`,
    [businessId, at],
  );
  return rowCount ?? 0;
}

export async function insertToken(db: Db, tokenHash: string, invitationId: number): Promise<void> {
  await db.query('INSERT INTO invitation_tokens (token_hash, invitation_id) VALUES ($1, $2)', [
    tokenHash,
    invitationId,
  ]);
}
