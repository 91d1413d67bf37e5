/**
 * Billing service bootstrap only: V8 settings, then tracing (before pg/ioredis/bullmq and the
 * Braintree SDK's http are loaded, so they get instrumented), then the platform runtime (logger,
 * PostgreSQL + migrations, NATS), the payment provider (Braintree, or an in-process fake gateway
 * in development), the outbox relay, the consumers of auth.user.terminated and teams.business.closed
 * (their subscriptions are cancelled at the provider), a reconciliation pass over pending operations, the
 * maintenance job and the endpoints.
 */
import { tuneV8 } from '@wb/platform/v8';
tuneV8();
import { startTracing } from '@wb/platform/tracing';
const tracing = startTracing('billing');

import { join } from 'node:path';
import { createQueue, createWorker, metricsRegistry, runMain, startServiceRuntime } from '@wb/platform';
import type { BillingDeps } from './commands/deps';
import { SCHEMA } from './commands/deps';
import { newKey } from './commands/ids';
import { reconcileAll } from './commands/operations';
import { loadBillingEnv } from './env';
import { buildEndpoints } from './handlers';
import { MAINTENANCE_QUEUE, processMaintenanceJob, scheduleMaintenance } from './jobs/maintenance';
import type { MaintenanceJob } from './jobs/maintenance';
import { createBillingMetrics } from './metrics';
import { BusinessClosedProcessor, UserTerminatedProcessor } from './processors/accountClosures';
import { BraintreeProvider } from './payments/braintreeProvider';
import { InstrumentedProvider } from './payments/instrumentedProvider';
import { TeamsSeatPolicy } from './policies/seatPolicy';
import { FakeBraintree } from './testing/fakeBraintree';
import { FakeVatChecker, ViesVatChecker } from './vat/vatChecker';

const VERSION = '0.1.0';

runMain('billing', async () => {
  const env = loadBillingEnv();
  const rt = await startServiceRuntime({
    name: 'billing',
    env,
    tracing,
    schema: SCHEMA,
    migrationsDir: join(__dirname, '..', 'migrations'),
  });
  const { pool, log, lifecycle } = rt;

  let environment = env.BRAINTREE_ENVIRONMENT;
  if (environment === 'fake') {
    // development: a fake Braintree gateway inside this process (state in memory; see README)
    const fake = await FakeBraintree.start({
      port: env.BRAINTREE_FAKE_PORT,
      merchantId: env.BRAINTREE_MERCHANT_ID,
      publicKey: env.BRAINTREE_PUBLIC_KEY,
      privateKey: env.BRAINTREE_PRIVATE_KEY,
    });
    lifecycle.onShutdown('fake braintree', () => fake.close());
    environment = fake.url;
    log.warn({ url: fake.url }, 'BRAINTREE_ENVIRONMENT=fake: payments go to an in-process fake Braintree gateway');
  }
  const metrics = createBillingMetrics(metricsRegistry);
  const provider = new InstrumentedProvider(
    new BraintreeProvider({
      environment,
      merchantId: env.BRAINTREE_MERCHANT_ID,
      publicKey: env.BRAINTREE_PUBLIC_KEY,
      privateKey: env.BRAINTREE_PRIVATE_KEY,
      timeoutMs: env.BRAINTREE_TIMEOUT_MS,
    }),
    metrics,
    log.child({ component: 'provider' }),
  );
  const deps: BillingDeps = {
    pool,
    log,
    metrics,
    provider,
    vat:
      env.VAT_CHECK === 'vies'
        ? new ViesVatChecker(env.VIES_URL, env.VAT_CHECK_TIMEOUT_MS, log.child({ component: 'vies' }))
        : new FakeVatChecker(),
    seats: new TeamsSeatPolicy(rt.bus, env.SEAT_POLICY, log.child({ component: 'seats' })),
    seller: {
      name: env.SELLER_NAME,
      address: env.SELLER_ADDRESS,
      vatNumber: env.SELLER_VAT_NUMBER,
      email: env.SELLER_EMAIL,
    },
    reconcileAfterMs: env.RECONCILE_AFTER_MS,
    now: () => new Date(),
    newKey,
  };

  rt.startOutboxRelay();
  await rt.consume(new UserTerminatedProcessor(deps));
  await rt.consume(new BusinessClosedProcessor(deps));

  // a crash between a payment and its commit left pending operations: finish them from the
  // provider's truth now (those the provider does not know yet wait for the job)
  const reconciled = await reconcileAll(deps).catch((err: unknown) => {
    log.error({ err }, 'start-up reconciliation failed; the maintenance job retries');
    return null;
  });
  if (reconciled && (reconciled.completed || reconciled.rolled_back || reconciled.pending)) {
    log.info({ reconciled }, 'pending operations reconciled at start-up');
  }

  const queue = createQueue<MaintenanceJob>(MAINTENANCE_QUEUE, {
    ...rt.queueOptions,
    defaultJobOptions: { attempts: 1 },
  });
  lifecycle.onShutdown('maintenance queue', () => queue.close());
  await scheduleMaintenance(queue, env.BILLING_JOB_EVERY_MS);
  const worker = createWorker<MaintenanceJob>(MAINTENANCE_QUEUE, () => processMaintenanceJob(deps), rt.queueOptions);
  lifecycle.onShutdown('maintenance worker', () => worker.close());

  await rt.serve({
    version: VERSION,
    description: 'Subscriptions, free trial, Braintree payments, invoices and VAT',
    endpoints: buildEndpoints(deps),
  });
});
