import type { Pool, PoolClient } from '@wb/platform';

/** a pool or a client inside a transaction: repositories work with either */
export type Db = Pool | PoolClient;
