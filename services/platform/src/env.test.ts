import { z } from 'zod';
import { baseEnvSchema, databaseEnvSchema, EnvError, loadEnv } from './env';

describe('loadEnv', () => {
  it('applies defaults when nothing is set', () => {
    const env = loadEnv(baseEnvSchema, {});
    expect(env).toMatchObject({ NODE_ENV: 'development', LOG_LEVEL: 'info', NATS_PREFIX: '', HEALTH_PORT: 0 });
  });

  it('coerces numbers from strings', () => {
    expect(loadEnv(baseEnvSchema, { HEALTH_PORT: '9100' }).HEALTH_PORT).toBe(9100);
  });

  it('names every offending variable in one error', () => {
    const schema = baseEnvSchema.extend(databaseEnvSchema.shape).extend({ APP_URL: z.string().url() });
    let caught: unknown;
    try {
      loadEnv(schema, { NODE_ENV: 'staging', HEALTH_PORT: '70000', NATS_PREFIX: 'no-dot', DATABASE_POOL_SIZE: 'many' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(EnvError);
    const message = (caught as Error).message;
    for (const name of ['NODE_ENV', 'HEALTH_PORT', 'NATS_PREFIX', 'DATABASE_POOL_SIZE', 'APP_URL']) {
      expect(message).toContain(`${name}:`);
    }
    // valid or defaulted variables are not blamed
    expect(message).not.toContain('REDIS_URL');
    expect(message).not.toContain('LOG_LEVEL');
  });
});
