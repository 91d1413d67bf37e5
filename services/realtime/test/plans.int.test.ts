/**
 * SPEC A8 through the real stack (gateway + auth + boards + a realtime node): an owner's plan
 * change reaches the open rooms of their boards within 1 s. Billing is played by this test: it
 * publishes billing.subscription.changed.v1 as billing's outbox relay would; auth turns it into
 * the owner's effective plan and announces auth.user.plan_changed.v1, which the node's room
 * consumer applies by re-checking every peer with a fresh plan.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBus, createLogger } from '@wb/platform';
import type { Bus } from '@wb/platform';
import { eventually, freePort, signUp, startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import { eventSubject, RT_CLOSE } from '@wb/proto';
import type { EventEnvelope, PlanName } from '@wb/proto';
import { TestClient } from '../src/testing/client';
import { connectClient } from '../src/testing/wsClient';

const SECRET = 'integration-test-shared-secret-0123456789';
const NODE = 'services/realtime';

let stack: RunningStack;
let bus: Bus;
let snapshots: string;
let billingSeq = 0;

beforeAll(async () => {
  snapshots = await mkdtemp(join(tmpdir(), 'wb-rt-plans-'));
  stack = await startStack({
    deployables: ['services/auth', 'services/boards', NODE, 'gateway'],
    env: { RT_SHARED_SECRET: SECRET },
    envFor: { [NODE]: { RT_NODE_ID: 'rt-1', RT_PORT: String(await freePort()), SNAPSHOT_DIR: snapshots } },
  });
  bus = await connectBus({
    url: stack.env.NATS_URL!,
    prefix: stack.natsPrefix,
    name: 'test-billing',
    log: createLogger({ service: 'test', level: 'silent' }),
    ensureStream: false,
  });
}, 90_000);

afterAll(async () => {
  await bus?.drain();
  await stack?.stop();
  await rm(snapshots, { recursive: true, force: true });
});

async function setSubscription(userId: number, plan: PlanName | null): Promise<void> {
  const id = `billing:${++billingSeq}`;
  const envelope: EventEnvelope = {
    id,
    type: 'billing.subscription.changed.v1',
    occurredAt: new Date().toISOString(),
    data: { userId, subscriptionId: `sub-${userId}`, plan, seats: 1 },
  };
  await bus.js.publish(eventSubject(stack.natsPrefix, envelope.type), JSON.stringify(envelope), { msgID: id });
}

describe('an owner’s plan change reaches their open boards (SPEC A8)', () => {
  it('downgraded to a plan without guests: a guest on the board is closed (4403) within 1 s', async () => {
    const { browser, id } = await signUp(stack.gatewayUrl, 'Olga Owner');
    await setSubscription(id, 'standard');
    await eventually(async () => (await browser.get('/api/plan')).body.name === 'standard', 5000, 25, 'standard plan');
    const boardId = (await browser.post('/api/boards', {})).body.id as string;

    // a guest joins through the gateway (no cookie: user 0)
    const guest = new TestClient(0, 'Guest Gary');
    const conn = await connectClient(stack.gatewayUrl.replace('http:', 'ws:'), boardId, guest, {
      secret: SECRET,
      actorHeader: null,
    });
    const closed = conn.closed.then((c) => ({ ...c, at: Date.now() }));
    await eventually(() => guest.inSync, 10_000, 25, 'guest in sync');
    expect(guest.welcome?.role).toBe('editor');

    const started = Date.now();
    await setSubscription(id, null);
    const { code, at } = await closed;
    const ms = at - started;
    process.stdout.write(`plan change → guest closed on the open board: ${ms} ms\n`);
    expect(code).toBe(RT_CLOSE.RESTRICTED);
    expect(ms).toBeLessThan(1000);
  });
});
