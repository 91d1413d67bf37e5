/** billing.operations: pending provider operations. SQL only. */
import type { Db } from './db';

/** period_change: a new subscription on the same payment method, then the old one cancelled */
export type OperationKind = 'subscribe' | 'change' | 'cancel' | 'period_change';
export type OperationState = 'pending' | 'done' | 'failed';

export interface OperationRow<R = unknown> {
  id: string;
  user_id: number;
  kind: OperationKind;
  state: OperationState;
  fingerprint: string;
  subscription_id: string;
  request: R;
  error: string | null;
  created_at: Date;
  attempted_at: Date;
  finished_at: Date | null;
}

export async function findPendingOperation(
  db: Db,
  userId: number,
  opts: { forUpdate?: boolean } = {},
): Promise<OperationRow | null> {
  const { rows } = await db.query<OperationRow>(
    `SELECT * FROM operations WHERE user_id = $1 AND state = 'pending' ${opts.forUpdate ? 'FOR UPDATE' : ''}`,
    [userId],
  );
  return rows[0] ?? null;
}

export async function findOperation(
  db: Db,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<OperationRow | null> {
  const { rows } = await db.query<OperationRow>(
    `SELECT * FROM operations WHERE id = $1 ${opts.forUpdate ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** the newest finished operation with this fingerprint since `since` */
export async function findFinishedByFingerprint(
  db: Db,
  userId: number,
  fingerprint: string,
  since: Date,
): Promise<OperationRow | null> {
  const { rows } = await db.query<OperationRow>(
    `SELECT * FROM operations
      WHERE user_id = $1 AND fingerprint = $2 AND state = 'done' AND created_at >= $3
      ORDER BY created_at DESC LIMIT 1`,
    [userId, fingerprint, since],
  );
  return rows[0] ?? null;
}

/** false when the user already has a pending operation (the unique index refuses a second) */
export async function insertOperation(
  db: Db,
  op: Pick<OperationRow, 'id' | 'user_id' | 'kind' | 'fingerprint' | 'subscription_id' | 'request'> & { now: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO operations (id, user_id, kind, state, fingerprint, subscription_id, request, created_at, attempted_at)
     VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $7)
     ON CONFLICT (user_id) WHERE state = 'pending' DO NOTHING`,
    [op.id, op.user_id, op.kind, op.fingerprint, op.subscription_id, JSON.stringify(op.request), op.now],
  );
  return (rowCount ?? 0) > 0;
}

export async function touchOperation(db: Db, id: string, now: Date): Promise<void> {
  await db.query(`UPDATE operations SET attempted_at = $2 WHERE id = $1 AND state = 'pending'`, [id, now]);
}

/** done: always (the provider's word wins, even over an earlier roll-back); failed: only while pending */
export async function finishOperation(
  db: Db,
  id: string,
  state: 'done' | 'failed',
  now: Date,
  error: string | null = null,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE operations SET state = $2, error = $3, finished_at = $4
      WHERE id = $1 AND (state = 'pending' OR $2 = 'done')`,
    [id, state, error, now],
  );
  return (rowCount ?? 0) > 0;
}

/** pending operations last attempted before `before`, oldest first (the reconciler's work list) */
export async function findStalePending(db: Db, before: Date, limit: number): Promise<OperationRow[]> {
  const { rows } = await db.query<OperationRow>(
    `SELECT * FROM operations WHERE state = 'pending' AND attempted_at <= $1 ORDER BY attempted_at LIMIT $2`,
    [before, limit],
  );
  return rows;
}
