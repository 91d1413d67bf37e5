/** SQL on teams.members: one row per person in a team (the owner included). */
import type { TeamRole } from '@wb/proto';
import type { Db } from './db';

export interface MemberRow {
  user_id: number;
  business_id: number;
  role: TeamRole;
  email: string | null;
  active: boolean;
  joined_at: Date;
  activated_at: Date;
}

const COLUMNS = 'user_id, business_id, role, email, active, joined_at, activated_at';

/** the team the user is in, if any */
export async function findMembership(
  db: Db,
  userId: number,
  opts: { forUpdate?: boolean } = {},
): Promise<MemberRow | null> {
  const { rows } = await db.query<MemberRow>(
    `SELECT ${COLUMNS} FROM members WHERE user_id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [userId],
  );
  return rows[0] ?? null;
}

/** memberships of several users at once (for invitation checks) */
export async function findMemberships(db: Db, userIds: number[]): Promise<MemberRow[]> {
  if (userIds.length === 0) return [];
  const { rows } = await db.query<MemberRow>(`SELECT ${COLUMNS} FROM members WHERE user_id = ANY($1::int[])`, [
    userIds,
  ]);
  return rows;
}

/** the owner first, then by joining time */
export async function listMembers(db: Db, businessId: number): Promise<MemberRow[]> {
  const { rows } = await db.query<MemberRow>(
    `SELECT ${COLUMNS} FROM members WHERE business_id = $1 ORDER BY role = 'owner' DESC, joined_at, user_id`,
    [businessId],
  );
  return rows;
}

export async function countActive(db: Db, businessId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM members WHERE business_id = $1 AND active',
    [businessId],
  );
  return rows[0]!.n;
}

export async function insertMember(
  db: Db,
  m: { userId: number; businessId: number; role: TeamRole; email: string | null; at: Date },
): Promise<MemberRow> {
  const { rows } = await db.query<MemberRow>(
    `INSERT INTO members (user_id, business_id, role, email, active, joined_at, activated_at)
     VALUES ($1, $2, $3, $4, true, $5, $5) RETURNING ${COLUMNS}`,
    [m.userId, m.businessId, m.role, m.email, m.at],
  );
  return rows[0]!;
}

export async function setActive(db: Db, userId: number, active: boolean, at: Date): Promise<void> {
  await db.query(
    `UPDATE members SET active = $2, activated_at = CASE WHEN $2 THEN $3 ELSE activated_at END WHERE user_id = $1`,
    [userId, active, at],
  );
}

export async function deleteMember(db: Db, userId: number): Promise<void> {
  await db.query('DELETE FROM members WHERE user_id = $1', [userId]);
}

/** every member of a business goes (closing it); returns who they were */
export async function deleteMembers(db: Db, businessId: number): Promise<MemberRow[]> {
  const { rows } = await db.query<MemberRow>(`DELETE FROM members WHERE business_id = $1 RETURNING ${COLUMNS}`, [
    businessId,
  ]);
  return rows;
}

/**
 * The active members (never the owner) to deactivate so that at most `licences` stay active:
 * the most recently activated ones first.
 */
export async function newestActiveBeyond(db: Db, businessId: number, licences: number): Promise<MemberRow[]> {
  const { rows } = await db.query<MemberRow>(
    `SELECT ${COLUMNS} FROM members WHERE business_id = $1 AND active AND role = 'member'
      ORDER BY activated_at DESC, user_id DESC
      LIMIT GREATEST(0, (SELECT count(*) FROM members WHERE business_id = $1 AND active) - $2)`,
    [businessId, licences],
  );
  return rows;
}
