/** What commands need, built once in main.ts (and by tests with a fake clock or plans). */
import type { Logger, PlanSource, Pool, VersionedReplyCache } from '@wb/platform';
import type { BoardsEnv } from '../env';
import type { BoardsMetrics } from '../metrics';

export const SCHEMA = 'boards';

/** Display names of users (the auth service is asked), e.g. the owners of shared boards. */
export interface NameSource {
  /** id → name; null when the names cannot be had right now (the caller degrades, not fails) */
  namesOf(userIds: number[]): Promise<Record<string, string> | null>;
}

/** Board content, which the realtime nodes own (svc.realtime.*). */
export interface ContentSource {
  /** store board `from`'s committed content as the content of the new board `to` */
  copy(from: string, to: string): Promise<void>;
}

export interface BoardsDeps {
  pool: Pool;
  env: Pick<BoardsEnv, 'APP_URL' | 'TRASH_PURGE_BATCH'>;
  log: Logger;
  plans: PlanSource;
  names: NameSource;
  content: ContentSource;
  metrics: BoardsMetrics;
  lists: VersionedReplyCache;
  now(): Date;
  newBoardId(): string;
}
