/** The billing service's environment: the one place that reads process.env. */
import { z } from 'zod';
import { baseEnvSchema, databaseEnvSchema, loadEnv } from '@wb/platform';

/** empty strings (as compose files and shells often pass them) mean "not set" */
const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

/** the keys FakeBraintree uses unless told otherwise */
const FAKE_KEYS = { merchantId: 'fake-merchant', publicKey: 'fake-public-key', privateKey: 'fake-private-key' };

export const billingEnvSchema = baseEnvSchema
  .extend(databaseEnvSchema.shape)
  .extend({
    /**
     * sandbox | production | a URL of a fake gateway (http://127.0.0.1:4010) | fake (start an
     * in-process FakeBraintree on BRAINTREE_FAKE_PORT and log its URL). Default: fake, except in
     * production, where it must be set (and may not be fake).
     */
    BRAINTREE_ENVIRONMENT: optionalString,
    BRAINTREE_MERCHANT_ID: optionalString,
    BRAINTREE_PUBLIC_KEY: optionalString,
    /** signs webhooks too: a secret */
    BRAINTREE_PRIVATE_KEY: optionalString,
    /** per provider request (the SDK's default is 60 s) */
    BRAINTREE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
    /** port of the in-process fake when BRAINTREE_ENVIRONMENT=fake (0 = a free one) */
    BRAINTREE_FAKE_PORT: z.coerce.number().int().min(0).max(65535).default(0),
    /** online VAT number check: vies (the EU's service) or fake (every well-formed number but …0000 is registered) */
    VAT_CHECK: z.enum(['vies', 'fake']).optional(),
    VIES_URL: z
      .url()
      .default('https://ec.europa.eu/taxation_customs/vies/rest-api')
      .transform((u) => u.replace(/\/+$/, '')),
    VAT_CHECK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    /**
     * who says how many active users a team has (seats may not go below it): teams (ask
     * svc.teams.seats.check; no answer → ERR_TEMPORARY_PROBLEM) or auto (ask teams; when no teams
     * service is deployed, only the owner counts)
     */
    SEAT_POLICY: z.enum(['teams', 'auto']).default('auto'),
    /** how often the maintenance job runs: trials and cancelled periods that ended, stale pending operations */
    BILLING_JOB_EVERY_MS: z.coerce.number().int().min(1000).default(60_000),
    /**
     * how long after its last attempt a pending operation that the provider does not know is
     * rolled back (must exceed the few provider calls one attempt makes)
     */
    RECONCILE_AFTER_MS: z.coerce.number().int().min(0).default(180_000),
    /** the seller on invoices */
    SELLER_NAME: z.string().default('Whiteboard OÜ'),
    SELLER_ADDRESS: z.string().default('Narva mnt 5, 10117 Tallinn, Estonia'),
    SELLER_VAT_NUMBER: z.string().default('EE100000000'),
    SELLER_EMAIL: z.string().default('billing@whiteboard.local'),
  })
  .superRefine((env, ctx) => {
    const production = env.NODE_ENV === 'production';
    if (production && env.VAT_CHECK === 'fake') {
      ctx.addIssue({ code: 'custom', path: ['VAT_CHECK'], message: 'fake is not allowed in production' });
    }
    const environment = env.BRAINTREE_ENVIRONMENT ?? (production ? undefined : 'fake');
    if (!environment) {
      ctx.addIssue({ code: 'custom', path: ['BRAINTREE_ENVIRONMENT'], message: 'required in production' });
      return;
    }
    if (environment === 'fake') {
      if (production) {
        ctx.addIssue({ code: 'custom', path: ['BRAINTREE_ENVIRONMENT'], message: 'fake is not allowed in production' });
      }
      return;
    }
    if (environment !== 'sandbox' && environment !== 'production' && !URL.canParse(environment)) {
      ctx.addIssue({
        code: 'custom',
        path: ['BRAINTREE_ENVIRONMENT'],
        message: 'must be sandbox, production, fake or a URL',
      });
    }
    if (environment === 'sandbox' || environment === 'production' || production) {
      for (const key of ['BRAINTREE_MERCHANT_ID', 'BRAINTREE_PUBLIC_KEY', 'BRAINTREE_PRIVATE_KEY'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: `required with ${environment}` });
      }
    }
  })
  .transform((env) => {
    const environment = env.BRAINTREE_ENVIRONMENT ?? 'fake';
    return {
      ...env,
      BRAINTREE_ENVIRONMENT: environment,
      BRAINTREE_MERCHANT_ID: env.BRAINTREE_MERCHANT_ID ?? FAKE_KEYS.merchantId,
      BRAINTREE_PUBLIC_KEY: env.BRAINTREE_PUBLIC_KEY ?? FAKE_KEYS.publicKey,
      BRAINTREE_PRIVATE_KEY: env.BRAINTREE_PRIVATE_KEY ?? FAKE_KEYS.privateKey,
      VAT_CHECK: env.VAT_CHECK ?? (env.NODE_ENV === 'production' ? 'vies' : 'fake'),
    };
  });

export type BillingEnv = z.infer<typeof billingEnvSchema>;

export function loadBillingEnv(source: Record<string, string | undefined> = process.env): BillingEnv {
  return loadEnv(billingEnvSchema, source);
}
