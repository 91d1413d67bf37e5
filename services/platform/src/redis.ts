/** ioredis connection with the settings BullMQ needs (maxRetriesPerRequest: null). */
import type { Redis } from 'ioredis';
export function createRedis(_url: string, _opts?: { forBullmq?: boolean }): Redis {
  throw new Error('not implemented');
}
