import { EnvError } from '@wb/platform';
import { REALTIME_DEV_SHARED_SECRET } from '@wb/proto';
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
  it('A7: without a real secret the node listens on loopback only; production refuses the development secret', () => {
    expect(loadRealtimeEnv({}).RT_LISTEN_HOST).toBe('127.0.0.1');
    // the development value given explicitly is no better than the default
    expect(loadRealtimeEnv({ RT_SHARED_SECRET: REALTIME_DEV_SHARED_SECRET }).RT_LISTEN_HOST).toBe('127.0.0.1');
    const real = 'a-real-shared-secret-of-at-least-32-chars';
    expect(loadRealtimeEnv({ RT_SHARED_SECRET: real }).RT_LISTEN_HOST).toBeUndefined(); // every interface
    expect(loadRealtimeEnv({ NODE_ENV: 'production', RT_SHARED_SECRET: real }).RT_SHARED_SECRET).toBe(real);
    for (const given of [{}, { RT_SHARED_SECRET: REALTIME_DEV_SHARED_SECRET }, { RT_SHARED_SECRET: '' }]) {
      expect(() => loadRealtimeEnv({ NODE_ENV: 'production', ...given })).toThrow(EnvError);
      expect(() => loadRealtimeEnv({ NODE_ENV: 'production', ...given })).toThrow(/RT_SHARED_SECRET/);
    }
    expect(() => loadRealtimeEnv({ NODE_ENV: 'production', RT_SHARED_SECRET: REALTIME_DEV_SHARED_SECRET })).toThrow(
      /development secret/,
    );
  });
  it('K1: RT_HEARTBEAT_MS pings every 4 s by default, 0 turns it off, nonsense is refused', () => {
    expect(loadRealtimeEnv({}).RT_HEARTBEAT_MS).toBe(4000);
    expect(loadRealtimeEnv({ RT_HEARTBEAT_MS: '0' }).RT_HEARTBEAT_MS).toBe(0);
    expect(loadRealtimeEnv({ RT_HEARTBEAT_MS: '1000' }).RT_HEARTBEAT_MS).toBe(1000);
    expect(() => loadRealtimeEnv({ RT_HEARTBEAT_MS: '10' })).toThrow(/RT_HEARTBEAT_MS/);
  });

  it('A5: connected sessions are re-checked every RT_SESSION_CHECK_MS (default 5 s)', () => {
    expect(loadRealtimeEnv({}).RT_SESSION_CHECK_MS).toBe(5000);
    expect(loadRealtimeEnv({ RT_SESSION_CHECK_MS: '1000' }).RT_SESSION_CHECK_MS).toBe(1000);
    expect(() => loadRealtimeEnv({ RT_SESSION_CHECK_MS: '10' })).toThrow(/RT_SESSION_CHECK_MS/);
  });
  it('P5: snapshots go to the filesystem unless SNAPSHOT_STORE=s3, which needs every S3 variable', () => {
    expect(loadRealtimeEnv({}).SNAPSHOT_STORE).toBe('fs');
    let message = '';
    try {
      loadRealtimeEnv({ SNAPSHOT_STORE: 's3', S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY: '' });
    } catch (err) {
      message = (err as Error).message;
    }
    // one error naming every missing variable (the one given is not named)
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY']) expect(message).toContain(name);
    expect(message).not.toContain('S3_ENDPOINT');
    const env = loadRealtimeEnv({
      SNAPSHOT_STORE: 's3',
      S3_ENDPOINT: 'https://s3.example.com',
      S3_BUCKET: 'realtime-snapshots',
      S3_ACCESS_KEY: 'k',
      S3_SECRET_KEY: 's',
    });
    expect(env.S3_REGION).toBe('us-east-1');
    expect(() => loadRealtimeEnv({ SNAPSHOT_STORE: 'gcs' })).toThrow(/SNAPSHOT_STORE/);
    expect(() => loadRealtimeEnv({ S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadRealtimeEnv({ S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET/);
  });
});
