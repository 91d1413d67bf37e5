/** SQL on teams.businesses. */
import type { Db } from './db';

export interface BusinessRow {
  id: number;
  owner_id: number;
  subscription_id: string;
  requested_seats: number | null;
  created_at: Date;
  closed_at: Date | null;
}

const COLUMNS = 'id, owner_id, subscription_id, requested_seats, created_at, closed_at';

/** the owner's open business (locked with forUpdate) */
export async function findOpenBusinessOfOwner(
  db: Db,
  ownerId: number,
  opts: { forUpdate?: boolean } = {},
): Promise<BusinessRow | null> {
  const { rows } = await db.query<BusinessRow>(
    `SELECT ${COLUMNS} FROM businesses WHERE owner_id = $1 AND closed_at IS NULL${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [ownerId],
  );
  return rows[0] ?? null;
}

/** the owner's most recent business, open or closed */
export async function findLatestBusinessOfOwner(db: Db, ownerId: number): Promise<BusinessRow | null> {
  const { rows } = await db.query<BusinessRow>(
    `SELECT ${COLUMNS} FROM businesses WHERE owner_id = $1 ORDER BY id DESC LIMIT 1`,
    [ownerId],
  );
  return rows[0] ?? null;
}

export async function findBusiness(
  db: Db,
  id: number,
  opts: { forUpdate?: boolean } = {},
): Promise<BusinessRow | null> {
  const { rows } = await db.query<BusinessRow>(
    `SELECT ${COLUMNS} FROM businesses WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function insertBusiness(db: Db, ownerId: number, subscriptionId: string, at: Date): Promise<BusinessRow> {
  const { rows } = await db.query<BusinessRow>(
    `INSERT INTO businesses (owner_id, subscription_id, created_at) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
    [ownerId, subscriptionId, at],
  );
  return rows[0]!;
}

export async function setBusinessSubscription(db: Db, id: number, subscriptionId: string): Promise<void> {
  await db.query('UPDATE businesses SET subscription_id = $2 WHERE id = $1', [id, subscriptionId]);
}

export async function setRequestedSeats(db: Db, id: number, seats: number | null): Promise<void> {
  await db.query('UPDATE businesses SET requested_seats = $2 WHERE id = $1', [id, seats]);
}

export async function closeBusinessRow(
  db: Db,
  id: number,
  reason: 'owner' | 'owner_terminated',
  at: Date,
): Promise<void> {
  await db.query('UPDATE businesses SET closed_at = $2, close_reason = $3 WHERE id = $1', [id, at, reason]);
}
