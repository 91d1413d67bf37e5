/**
 * A real S3-compatible server on loopback for tests and benchmarks: s3rver (npm, a dev dependency)
 * keeping its objects in a directory. The S3 driver talks to it exactly as to MinIO (path-style,
 * signed requests); s3rver accepts the fixed S3RVER credentials below.
 */
import S3rver from 's3rver';
import { S3SnapshotStore } from '../storage/s3Snapshots';
import type { S3SnapshotOptions } from '../storage/s3Snapshots';

export interface LocalS3 {
  endpoint: string;
  /** a store on a bucket of its own (created on first use by the driver) */
  store(bucket?: string): S3SnapshotStore;
  options(bucket?: string): S3SnapshotOptions;
  stop(): Promise<void>;
}

/** s3rver's built-in account */
export const LOCAL_S3_ACCESS_KEY = 'S3RVER';
export const LOCAL_S3_SECRET_KEY = 'S3RVER';

export async function startLocalS3(directory: string): Promise<LocalS3> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let n = 0;
  const options = (bucket?: string): S3SnapshotOptions => ({
    endpoint,
    bucket: bucket ?? `wb-test-${process.pid}-${++n}`,
    accessKey: LOCAL_S3_ACCESS_KEY,
    secretKey: LOCAL_S3_SECRET_KEY,
    region: 'us-east-1',
  });
  return {
    endpoint,
    options,
    store: (bucket) => new S3SnapshotStore(options(bucket)),
    stop: () => server.close(),
  };
}
