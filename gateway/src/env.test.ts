import { EnvError } from '@wb/platform';
import { configFromEnv } from './config';
import { loadGatewayEnv } from './env';

describe('gateway env', () => {
  it('has development defaults, stable across loads', () => {
    const a = loadGatewayEnv({});
    expect(a).toMatchObject({ HTTP_PORT: 8080, BODY_LIMIT: '100kb', TRUST_PROXY: false, NODE_ENV: 'development' });
    expect(a.WEB_DIST_DIR).toMatch(/web\/dist$/);
    expect(a.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(a.CSRF_SECRET).not.toBe(a.SESSION_SECRET);
    // derived, not random: CSRF tokens survive a dev restart
    expect(loadGatewayEnv({}).CSRF_SECRET).toBe(a.CSRF_SECRET);
  });

  it('requires its secrets in production, naming each (the realtime one too: the development one is public)', () => {
    expect(() => loadGatewayEnv({ NODE_ENV: 'production' })).toThrow(EnvError);
    const load = () => loadGatewayEnv({ NODE_ENV: 'production', CSRF_SECRET: 'short' });
    expect(load).toThrow(/SESSION_SECRET: required in production/);
    expect(load).toThrow(/CSRF_SECRET: must be at least 32 characters/);
    expect(load).toThrow(/RT_SHARED_SECRET: required in production/);
    const ok = loadGatewayEnv({
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(32),
      CSRF_SECRET: 'c'.repeat(32),
      RT_SHARED_SECRET: 'r'.repeat(32),
    });
    expect(ok.CSRF_SECRET).toBe('c'.repeat(32));
  });

  it('parses TRUST_PROXY like express', () => {
    expect(loadGatewayEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadGatewayEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadGatewayEnv({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toBe('loopback, 10.0.0.0/8');
    expect(loadGatewayEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
  });

  it('rejects bad values', () => {
    expect(() => loadGatewayEnv({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(() => loadGatewayEnv({ BODY_LIMIT: 'lots' })).toThrow(/BODY_LIMIT/);
    expect(() => loadGatewayEnv({ HTTP_PORT: '70000' })).toThrow(/HTTP_PORT/);
  });

  it('uses Secure __Host- cookies only behind https', () => {
    expect(configFromEnv(loadGatewayEnv({ PUBLIC_URL: 'https://a.example' })).cookies.session).toBe('__Host-sid');
    expect(configFromEnv(loadGatewayEnv({ PUBLIC_URL: 'http://localhost:8080' })).cookies).toEqual({
      session: 'sid',
      csrf: 'csrf-token',
      anon: 'anon',
      device: 'dev',
    });
  });

  it("widens the CSP for Braintree's Drop-in only with a real payment gateway", () => {
    expect(configFromEnv(loadGatewayEnv({})).payments).toBe('fake');
    expect(configFromEnv(loadGatewayEnv({ BRAINTREE_ENVIRONMENT: 'sandbox' })).payments).toBe('sandbox');
    expect(() => loadGatewayEnv({ BRAINTREE_ENVIRONMENT: 'live' })).toThrow(/BRAINTREE_ENVIRONMENT/);
  });
});
