/** The snapshot store the environment chose (SNAPSHOT_STORE), ready to use. */
import { objectStoreOptionsFromEnv, openObjectStore } from '@wb/platform';
import type { ObjectStoreEnvNames } from '@wb/platform';
import type { RealtimeEnv } from '../env';
import { ObjectSnapshotStore } from './snapshots';
import type { SnapshotStore } from './snapshots';

type StoreEnv = Pick<
  RealtimeEnv,
  'SNAPSHOT_STORE' | 'SNAPSHOT_DIR' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_ACCESS_KEY' | 'S3_SECRET_KEY' | 'S3_REGION'
>;

/** realtime's own variable names (unchanged, so deployments keep working); no default bucket: env.ts requires S3_BUCKET for s3 */
export const SNAPSHOT_STORE_ENV_NAMES: ObjectStoreEnvNames = {
  store: 'SNAPSHOT_STORE',
  dir: 'SNAPSHOT_DIR',
  bucket: 'S3_BUCKET',
  defaultDir: '.data/snapshots',
};

/** S3: the bucket is checked (and created when missing) now, so a wrong endpoint or key stops start-up. */
export async function openSnapshotStore(env: StoreEnv): Promise<{ store: SnapshotStore; description: string }> {
  const { store, description } = await openObjectStore(objectStoreOptionsFromEnv(env, SNAPSHOT_STORE_ENV_NAMES));
  return { store: new ObjectSnapshotStore(store), description };
}
