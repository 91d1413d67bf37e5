/** SQL of auth.plan_sources: what each plan source last said about a user. */
import type { PoolClient } from '@wb/platform';
import type { PlanName } from '@wb/proto';

export type PlanSourceKind = 'subscription' | 'team';

export interface PlanSourcesRow {
  subscription_plan: PlanName | null;
  subscription_seq: string;
  team_plan: PlanName | null;
  team_seq: string;
}

/** the user's row, locked for this transaction (created empty when missing) */
export async function lockPlanSources(client: PoolClient, userId: number): Promise<PlanSourcesRow> {
  await client.query('INSERT INTO plan_sources (user_id) VALUES ($1) ON CONFLICT DO NOTHING', [userId]);
  const { rows } = await client.query<PlanSourcesRow>(
    'SELECT subscription_plan, subscription_seq::text, team_plan, team_seq::text FROM plan_sources WHERE user_id = $1 FOR UPDATE',
    [userId],
  );
  return rows[0]!;
}

export async function setPlanSource(
  client: PoolClient,
  userId: number,
  kind: PlanSourceKind,
  plan: PlanName | null,
  seq: bigint,
): Promise<void> {
  const [planColumn, seqColumn] =
    kind === 'subscription' ? ['subscription_plan', 'subscription_seq'] : ['team_plan', 'team_seq'];
  await client.query(
    `UPDATE plan_sources SET ${planColumn} = $2, ${seqColumn} = $3, updated_at = now() WHERE user_id = $1`,
    [userId, plan, seq.toString()],
  );
}
