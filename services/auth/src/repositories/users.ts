/** SQL on auth.users. No rules here: callers decide what may change. */
import type { PlanName } from '@wb/proto';
import type { Db } from './db';

export type EmailStatus = 'unverified' | 'verified' | 'invalid';

export interface UserRow {
  id: number;
  name: string;
  email: string;
  email_status: EmailStatus;
  password_hash: string | null;
  picture: string | null;
  plan: PlanName;
  settings: Record<string, unknown>;
  verification_sent_at: Date | null;
  recovery_sent_at: Date | null;
  created_at: Date;
  terminated_at: Date | null;
}

const COLUMNS =
  'id, name, email, email_status, password_hash, picture, plan, settings, verification_sent_at, recovery_sent_at, created_at, terminated_at';

/** display names of active users by id (unknown and terminated ids are left out) */
export async function findNames(db: Db, ids: number[]): Promise<{ id: number; name: string }[]> {
  const { rows } = await db.query<{ id: number; name: string }>(
    'SELECT id, name FROM users WHERE id = ANY($1::int[]) AND terminated_at IS NULL',
    [ids],
  );
  return rows;
}

/** active users by address, case-insensitively (addresses given lower-case) */
export async function findUsersByEmails(
  db: Db,
  emails: string[],
): Promise<{ id: number; name: string; email: string; locale: unknown }[]> {
  const { rows } = await db.query<{ id: number; name: string; email: string; locale: unknown }>(
    "SELECT id, name, lower(email) AS email, settings->'locale' AS locale FROM users WHERE lower(email) = ANY($1::text[]) AND terminated_at IS NULL",
    [emails],
  );
  return rows;
}

/** an active (not terminated) user by id */
export async function findUserById(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<UserRow | null> {
  // Named (prepared once per connection): this is the read behind every GET /api/user.
  const { rows } = await db.query<UserRow>({
    name: opts.forUpdate ? 'auth_user_by_id_for_update' : 'auth_user_by_id',
    text: `SELECT ${COLUMNS} FROM users WHERE id = $1 AND terminated_at IS NULL${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    values: [id],
  });
  return rows[0] ?? null;
}

/** an active user by address, case-insensitively */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1) AND terminated_at IS NULL`,
    [email],
  );
  return rows[0] ?? null;
}

export async function emailInUse(db: Db, email: string, exceptUserId?: number): Promise<boolean> {
  const { rowCount } = await db.query(
    'SELECT 1 FROM users WHERE lower(email) = lower($1) AND terminated_at IS NULL AND id <> $2',
    [email, exceptUserId ?? 0],
  );
  return (rowCount ?? 0) > 0;
}

export async function insertUser(
  db: Db,
  u: { name: string; email: string; passwordHash: string; settings: Record<string, unknown>; verificationSentAt: Date },
): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `INSERT INTO users (name, email, password_hash, settings, verification_sent_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [u.name, u.email, u.passwordHash, JSON.stringify(u.settings), u.verificationSentAt],
  );
  return rows[0]!;
}

export async function updatePasswordHash(db: Db, id: number, passwordHash: string): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [id, passwordHash]);
}

export async function updateEmail(db: Db, id: number, email: string, status: EmailStatus): Promise<void> {
  await db.query('UPDATE users SET email = $2, email_status = $3, updated_at = now() WHERE id = $1', [
    id,
    email,
    status,
  ]);
}

export async function updateEmailStatus(db: Db, id: number, status: EmailStatus): Promise<void> {
  await db.query('UPDATE users SET email_status = $2, updated_at = now() WHERE id = $1', [id, status]);
}

export async function updateProfile(db: Db, id: number, p: { name?: string; picture?: string | null }): Promise<void> {
  await db.query(
    `UPDATE users SET name = COALESCE($2, name), picture = CASE WHEN $3 THEN $4 ELSE picture END, updated_at = now() WHERE id = $1`,
    [id, p.name ?? null, p.picture !== undefined, p.picture ?? null],
  );
}

export async function updateSettings(db: Db, id: number, settings: Record<string, unknown>): Promise<void> {
  await db.query('UPDATE users SET settings = $2, updated_at = now() WHERE id = $1', [id, JSON.stringify(settings)]);
}

export async function setVerificationSentAt(db: Db, id: number, at: Date): Promise<void> {
  await db.query('UPDATE users SET verification_sent_at = $2 WHERE id = $1', [id, at]);
}

/**
 * Claim the right to send a recovery mail: true unless one was claimed less than `minGapMs` ago
 * (atomic, so parallel requests cannot flood someone's inbox).
 */
export async function claimRecoveryMail(db: Db, id: number, now: Date, minGapMs: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE users SET recovery_sent_at = $2
      WHERE id = $1 AND (recovery_sent_at IS NULL OR recovery_sent_at <= $2::timestamptz - make_interval(secs => $3))`,
    [id, now, minGapMs / 1000],
  );
  return (rowCount ?? 0) > 0;
}

/** Erase personal data but keep the row, so ids other services hold stay meaningful. */
export async function anonymiseUser(db: Db, id: number): Promise<void> {
  await db.query(
    `UPDATE users SET name = 'Deleted user', email = 'deleted-' || id || '@deleted.invalid', email_status = 'invalid',
            password_hash = NULL, picture = NULL, settings = '{}'::jsonb, verification_sent_at = NULL,
            recovery_sent_at = NULL, terminated_at = now(), updated_at = now()
      WHERE id = $1`,
    [id],
  );
}

export async function updatePlan(db: Db, id: number, plan: PlanName): Promise<void> {
  await db.query('UPDATE users SET plan = $2, updated_at = now() WHERE id = $1', [id, plan]);
}
