/**
 * Giving a test user a plan the way production does. A user's plan is auth's to compute from its
 * plan sources (billing's subscriptions, teams' licences); tests used to write auth.users.plan
 * directly, which skipped everything a real upgrade goes through. `givePlan` publishes the event
 * billing's outbox publishes when a subscription changes (billing.subscription.changed.v1) on the
 * stack's event stream, and waits until auth's plan-sources processor has applied it: the
 * effective plan (with any team licence), auth.user.plan_changed.v1 and the services' caches all
 * follow as they do for a paying user.
 */
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Pool } from 'pg';
import { EVENT_SCHEMAS, eventSubject } from '@wb/proto';
import type { EventEnvelope, PlanName } from '@wb/proto';
import { eventually } from './wait';

/** what givePlan needs of a running stack (RunningStack has all of it) */
export interface PlanStack {
  databaseUrl: string;
  natsPrefix: string;
  env: Record<string, string>;
}

/**
 * Billing's outbox ids are small sequence numbers, and auth applies only a newer word than the
 * last one per user: a clock-based sequence keeps every test's word the newest.
 */
let lastSeq = 0n;
function nextSeq(): bigint {
  const now = BigInt(Date.now()) * 1000n;
  lastSeq = now > lastSeq ? now : lastSeq + 1n;
  return lastSeq;
}

/** Give `userId` the subscription `plan` (null: the subscription ended) and wait until auth applied it. */
export async function givePlan(stack: PlanStack, userId: number, plan: PlanName | null): Promise<void> {
  const seq = nextSeq();
  const type = 'billing.subscription.changed.v1' as const;
  const data = EVENT_SCHEMAS[type].parse({ userId, subscriptionId: `test-subscription-${userId}`, plan, seats: 1 });
  const envelope: EventEnvelope = { id: `billing:${seq}`, type, occurredAt: new Date().toISOString(), data };
  const nc = await connect({ servers: stack.env.NATS_URL, name: 'wb-test-give-plan' });
  try {
    await jetstream(nc).publish(eventSubject(stack.natsPrefix, type), JSON.stringify(envelope), { msgID: envelope.id });
  } finally {
    await nc.close();
  }
  const db = new Pool({ connectionString: stack.databaseUrl, max: 1 });
  try {
    await eventually(
      async () => {
        const { rows } = await db.query<{ seq: string }>(
          'SELECT subscription_seq::text AS seq FROM auth.plan_sources WHERE user_id = $1',
          [userId],
        );
        return rows[0]?.seq === seq.toString();
      },
      15_000,
      50,
      `auth to apply ${plan ?? 'no'} plan for user ${userId}`,
    );
  } finally {
    await db.end();
  }
}
