import { EnvError } from '@wb/platform';
import { loadRealtimeEnv } from './env';

describe('realtime env', () => {
  it('has working defaults outside production', () => {
    const env = loadRealtimeEnv({});
    expect(env.RT_PORT).toBe(4100);
    expect(env.RT_NODE_ID).toBe('rt-1');
    expect(env.RT_SHARED_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(env.RT_ALLOWED_ORIGINS).toContain('http://localhost:8080');
  });
  it('refuses to start in production without the shared secret, naming it', () => {
    expect(() => loadRealtimeEnv({ NODE_ENV: 'production' })).toThrow(EnvError);
    expect(() => loadRealtimeEnv({ NODE_ENV: 'production' })).toThrow(/RT_SHARED_SECRET/);
    expect(() => loadRealtimeEnv({ RT_NODE_ID: 'bad id' })).toThrow(/RT_NODE_ID/);
  });
});
