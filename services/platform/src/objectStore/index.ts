/** Object storage: one interface (types.ts), a filesystem and an S3 driver, opened from options. */
import { mkdir } from 'node:fs/promises';
import { FsObjectStore } from './fs';
import { S3ObjectStore } from './s3';
import type { ObjectStore, ObjectStoreOptions } from './types';

export type { ObjectInfo, ObjectStore, ObjectStoreOptions } from './types';
export { FsObjectStore } from './fs';
export { S3ObjectStore } from './s3';
export type { S3ObjectStoreOptions } from './s3';
export { assertSafeKey, assertSafePrefix, UnsafeKeyError } from './keys';
export { ObjectNotFoundError } from './common';
export { objectStoreOptionsFromEnv, FILES_STORE_ENV_NAMES } from './env';
export type { ObjectStoreEnvNames } from './env';

/**
 * The store the options describe, checked now so a bad configuration stops start-up: the folder
 * is created (fs), the bucket is reached and created when missing (s3). `description` is for the
 * start-up log line (no secrets).
 */
export async function openObjectStore(opts: ObjectStoreOptions): Promise<{ store: ObjectStore; description: string }> {
  if (opts.driver === 'fs') {
    const store = new FsObjectStore(opts.dir);
    await mkdir(store.root, { recursive: true });
    return { store, description: `fs ${store.root}` };
  }
  const { driver: _driver, ...s3 } = opts;
  const store = new S3ObjectStore(s3);
  await store.ensureBucket();
  return { store, description: `s3 ${opts.endpoint}/${opts.bucket}` };
}
