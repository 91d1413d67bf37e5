/** The snapshot store the environment chose (SNAPSHOT_STORE), ready to use. */
import type { RealtimeEnv } from '../env';
import { S3SnapshotStore } from './s3Snapshots';
import { FsSnapshotStore } from './snapshots';
import type { SnapshotStore } from './snapshots';

type StoreEnv = Pick<
  RealtimeEnv,
  'SNAPSHOT_STORE' | 'SNAPSHOT_DIR' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_ACCESS_KEY' | 'S3_SECRET_KEY' | 'S3_REGION'
>;

/** S3: the bucket is checked (and created when missing) now, so a wrong endpoint or key stops start-up. */
export async function openSnapshotStore(env: StoreEnv): Promise<{ store: SnapshotStore; description: string }> {
  if (env.SNAPSHOT_STORE === 'fs') {
    return { store: new FsSnapshotStore(env.SNAPSHOT_DIR), description: `fs ${env.SNAPSHOT_DIR}` };
  }
  // env.ts has refused to start without these when SNAPSHOT_STORE=s3
  const store = new S3SnapshotStore({
    endpoint: env.S3_ENDPOINT!,
    bucket: env.S3_BUCKET!,
    accessKey: env.S3_ACCESS_KEY!,
    secretKey: env.S3_SECRET_KEY!,
    region: env.S3_REGION,
  });
  await store.ensureBucket();
  return { store, description: `s3 ${env.S3_ENDPOINT}/${env.S3_BUCKET}` };
}
