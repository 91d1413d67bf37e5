/** Boards test helpers; the browser itself is the platform's (`@wb/platform/testing`). */
import type { Pool } from 'pg';
import type { PlanName } from '@wb/proto';

export { Browser, eventually, signUp, sleep, uniqueEmail } from '@wb/platform/testing';
export type { Reply } from '@wb/platform/testing';

/**
 * TEST-ONLY SETUP: there is no billing yet, so a paid plan is given by writing auth.users.plan in
 * the test database directly. No service code does this; the boards service asks auth (plan.get).
 */
export async function setPlan(db: Pool, userId: number, plan: PlanName): Promise<void> {
  await db.query('UPDATE auth.users SET plan = $2 WHERE id = $1', [userId, plan]);
}
