/** ioredis connection with the settings BullMQ needs (maxRetriesPerRequest: null). */
import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';

export interface CreateRedisOptions {
  /** BullMQ workers block on commands and require maxRetriesPerRequest: null */
  forBullmq?: boolean;
  /** connection name shown by CLIENT LIST */
  connectionName?: string;
}

/**
 * Connects at once (lazyConnect: false) so a wrong URL shows up at start-up, and keeps
 * reconnecting with ioredis's default back-off. Logs nothing itself: the caller owns the logger
 * and can listen to 'error'/'reconnecting'.
 */
export function createRedis(url: string, opts: CreateRedisOptions = {}): Redis {
  const options: RedisOptions = {
    lazyConnect: false,
    ...(opts.forBullmq ? { maxRetriesPerRequest: null } : {}),
    ...(opts.connectionName ? { connectionName: opts.connectionName } : {}),
  };
  return new Redis(url, options);
}
