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
