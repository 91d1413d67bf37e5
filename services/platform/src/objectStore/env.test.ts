import { describe, expect, it } from '@jest/globals';
import { resolve } from 'node:path';
import { EnvError } from '../env';
import { objectStoreOptionsFromEnv } from './env';

const s3Env = {
  FILES_STORE: 's3',
  S3_ENDPOINT: 'http://minio:9000',
  S3_ACCESS_KEY: 'key',
  S3_SECRET_KEY: 'secret',
};

describe('objectStoreOptionsFromEnv', () => {
  it('defaults to a folder, ./data/files', () => {
    expect(objectStoreOptionsFromEnv({})).toEqual({ driver: 'fs', dir: resolve('data/files') });
    expect(objectStoreOptionsFromEnv({ FILES_STORE: '', FILES_DIR: '/srv/files' })).toEqual({
      driver: 'fs',
      dir: '/srv/files',
    });
  });

  it('s3: the shared S3_* connection, bucket wb-files and region us-east-1 unless given', () => {
    expect(objectStoreOptionsFromEnv(s3Env)).toEqual({
      driver: 's3',
      endpoint: 'http://minio:9000',
      bucket: 'wb-files',
      accessKey: 'key',
      secretKey: 'secret',
      region: 'us-east-1',
    });
    expect(objectStoreOptionsFromEnv({ ...s3Env, FILES_BUCKET: 'other', S3_REGION: 'eu-west-3' })).toMatchObject({
      bucket: 'other',
      region: 'eu-west-3',
    });
  });

  it('s3 without endpoint or keys refuses to start, naming every missing variable', () => {
    let err: unknown;
    try {
      objectStoreOptionsFromEnv({ FILES_STORE: 's3', S3_ACCESS_KEY: '' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EnvError);
    const msg = (err as Error).message;
    for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY']) {
      expect(msg).toContain(`${name}: required when FILES_STORE=s3`);
    }
    expect(() => objectStoreOptionsFromEnv({ ...s3Env, S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
    expect(() => objectStoreOptionsFromEnv({ ...s3Env, FILES_BUCKET: 'Bad_Bucket' })).toThrow(/FILES_BUCKET/);
    expect(() => objectStoreOptionsFromEnv({ FILES_STORE: 'ftp' })).toThrow(/FILES_STORE/);
  });

  it("another service's names: realtime's SNAPSHOT_STORE / SNAPSHOT_DIR / S3_BUCKET, no default bucket", () => {
    const names = { store: 'SNAPSHOT_STORE', dir: 'SNAPSHOT_DIR', bucket: 'S3_BUCKET', defaultDir: '.data/snapshots' };
    expect(objectStoreOptionsFromEnv({}, names)).toEqual({ driver: 'fs', dir: resolve('.data/snapshots') });
    expect(() => objectStoreOptionsFromEnv({ ...s3Env, SNAPSHOT_STORE: 's3' }, names)).toThrow(
      /S3_BUCKET: required when SNAPSHOT_STORE=s3/,
    );
    expect(objectStoreOptionsFromEnv({ ...s3Env, SNAPSHOT_STORE: 's3', S3_BUCKET: 'snaps' }, names)).toMatchObject({
      driver: 's3',
      bucket: 'snaps',
    });
    // FILES_* do not leak into another service's choice
    expect(objectStoreOptionsFromEnv({ FILES_STORE: 's3' }, names)).toMatchObject({ driver: 'fs' });
  });
});
