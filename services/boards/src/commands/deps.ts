/** What commands need, built once in main.ts (and by tests with a fake clock or plans). */
import type { Logger, PlanSource, Pool } from '@wb/platform';
import type { BoardsEnv } from '../env';
import type { BoardsMetrics } from '../metrics';
import type { ListCache } from './listCache';

export const SCHEMA = 'boards';

/** Display names of users (the auth service is asked), e.g. the owners of shared boards. */
export interface NameSource {
  /** id → name; null when the names cannot be had right now (the caller degrades, not fails) */
  namesOf(userIds: number[]): Promise<Record<string, string> | null>;
}

export interface BoardsDeps {
  pool: Pool;
  env: Pick<BoardsEnv, 'APP_URL' | 'TRASH_PURGE_BATCH'>;
  log: Logger;
  plans: PlanSource;
  names: NameSource;
  metrics: BoardsMetrics;
  lists: ListCache;
  now(): Date;
  newBoardId(): string;
}
