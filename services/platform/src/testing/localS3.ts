/**
 * A real S3-compatible server on loopback for tests and benchmarks: s3rver (npm, a dev dependency)
 * keeping its objects in a directory. The S3 driver talks to it exactly as to MinIO (path-style,
 * signed requests); s3rver accepts the fixed S3RVER credentials below.
 */
// s3rver ships no types: ours, also for the programs that type tests without this package's tsconfig
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- an ambient module declaration cannot be imported
/// <reference path="./s3rver.d.ts" />
import { S3ObjectStore } from '../objectStore/s3';
import type { ObjectStoreOptions } from '../objectStore/types';

export type LocalS3Options = Extract<ObjectStoreOptions, { driver: 's3' }>;

export interface LocalS3 {
  endpoint: string;
  /** a store on a bucket of its own (created on first use by the driver) */
  store(bucket?: string): S3ObjectStore;
  /** options for `openObjectStore` / `new S3ObjectStore` on a bucket of its own unless named */
  options(bucket?: string): LocalS3Options;
  stop(): Promise<void>;
}

/** s3rver's built-in account */
export const LOCAL_S3_ACCESS_KEY = 'S3RVER';
export const LOCAL_S3_SECRET_KEY = 'S3RVER';

export async function startLocalS3(directory: string): Promise<LocalS3> {
  // loaded on first use: most suites import this harness without starting an S3 server, and
  // s3rver (a dev dependency) need not be installed where they run
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver') as typeof import('s3rver');
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let n = 0;
  const options = (bucket?: string): LocalS3Options => ({
    driver: 's3',
    endpoint,
    bucket: bucket ?? `wb-test-${process.pid}-${++n}`,
    accessKey: LOCAL_S3_ACCESS_KEY,
    secretKey: LOCAL_S3_SECRET_KEY,
    region: 'us-east-1',
    pathStyle: true,
  });
  return {
    endpoint,
    options,
    store: (bucket) => new S3ObjectStore(options(bucket)),
    stop: () => server.close(),
  };
}
