import { EnvError } from '@wb/platform';
import { loadBillingEnv } from './env';

describe('billing env', () => {
  it('defaults to the in-process fake gateway and the fake VAT check outside production', () => {
    const env = loadBillingEnv({});
    expect(env).toMatchObject({
      BRAINTREE_ENVIRONMENT: 'fake',
      BRAINTREE_MERCHANT_ID: 'fake-merchant',
      VAT_CHECK: 'fake',
      SEAT_POLICY: 'auto',
      BILLING_JOB_EVERY_MS: 60_000,
    });
  });

  it('production needs the real gateway, its keys and VIES', () => {
    expect(() => loadBillingEnv({ NODE_ENV: 'production' })).toThrow(/BRAINTREE_ENVIRONMENT: required in production/);
    expect(() => loadBillingEnv({ NODE_ENV: 'production', BRAINTREE_ENVIRONMENT: 'fake' })).toThrow(EnvError);
    let message = '';
    try {
      loadBillingEnv({ NODE_ENV: 'production', BRAINTREE_ENVIRONMENT: 'production', VAT_CHECK: 'fake' });
    } catch (err) {
      message = (err as Error).message;
    }
    for (const v of ['BRAINTREE_MERCHANT_ID', 'BRAINTREE_PUBLIC_KEY', 'BRAINTREE_PRIVATE_KEY', 'VAT_CHECK']) {
      expect(message).toContain(v);
    }
    const env = loadBillingEnv({
      NODE_ENV: 'production',
      BRAINTREE_ENVIRONMENT: 'production',
      BRAINTREE_MERCHANT_ID: 'm',
      BRAINTREE_PUBLIC_KEY: 'pub',
      BRAINTREE_PRIVATE_KEY: 'priv',
    });
    expect(env.VAT_CHECK).toBe('vies');
  });

  it('takes a URL of a fake gateway and refuses anything else', () => {
    expect(loadBillingEnv({ BRAINTREE_ENVIRONMENT: 'http://127.0.0.1:4010' }).BRAINTREE_ENVIRONMENT).toBe(
      'http://127.0.0.1:4010',
    );
    expect(() => loadBillingEnv({ BRAINTREE_ENVIRONMENT: 'staging' })).toThrow(/sandbox, production, fake or a URL/);
  });
});
