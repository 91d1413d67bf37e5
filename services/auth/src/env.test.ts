import { describe, expect, it } from '@jest/globals';
import { EnvError } from '@wb/platform';
import { loadAuthEnv } from './env';

describe('auth env', () => {
  it('has working defaults for development', () => {
    const env = loadAuthEnv({});
    expect(env.APP_URL).toBe('http://localhost:8080');
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.THROWAWAY_DOMAINS_EXTRA).toEqual([]);
    expect(env.SIGNUP_ENABLED).toBe(true);
    expect(env.AUTH_TOKEN_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it('reads lists, flags and trims the trailing slash of APP_URL', () => {
    const env = loadAuthEnv({
      APP_URL: 'https://boards.example.com/',
      THROWAWAY_DOMAINS_EXTRA: 'a.example, b.example,',
      SIGNUP_ENABLED: 'false',
      SMTP_URL: '',
    });
    expect(env.APP_URL).toBe('https://boards.example.com');
    expect(env.THROWAWAY_DOMAINS_EXTRA).toEqual(['a.example', 'b.example']);
    expect(env.SIGNUP_ENABLED).toBe(false);
    expect(env.SMTP_URL).toBeUndefined();
  });

  it('refuses a bad APP_URL, and production without AUTH_TOKEN_SECRET', () => {
    expect(() => loadAuthEnv({ NODE_ENV: 'production', APP_URL: 'not a url' })).toThrow(EnvError);
    try {
      loadAuthEnv({ NODE_ENV: 'production', APP_URL: 'not a url' });
    } catch (err) {
      expect((err as Error).message).toContain('APP_URL');
    }
    expect(() => loadAuthEnv({ NODE_ENV: 'production' })).toThrow(/AUTH_TOKEN_SECRET/);
    expect(loadAuthEnv({ NODE_ENV: 'production', AUTH_TOKEN_SECRET: 's'.repeat(32) }).AUTH_TOKEN_SECRET).toBe(
      's'.repeat(32),
    );
  });
});
