/** SessionCache against the real Redis (127.0.0.1:6379) under a key prefix unique to this run. */
import type { Redis } from 'ioredis';
import { createRedis } from '../src/redis';
import { DEFAULT_TEST_REDIS_URL } from '../src/testing/stack';
import { newSessionToken, SessionCache, sessionIdOf } from '../src/sessions';

const prefix = `t${process.pid}x${Date.now()}:`;
let redis: Redis;
let cache: SessionCache;

beforeAll(() => {
  redis = createRedis(DEFAULT_TEST_REDIS_URL);
  cache = new SessionCache(redis, prefix);
});
afterAll(async () => {
  // delete only this run's keys
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const session = (ttlMs: number, userId = 7) => ({
  sessionId: sessionIdOf(newSessionToken()),
  userId,
  expiresAt: Date.now() + ttlMs,
});

describe('SessionCache', () => {
  it('stores under <prefix>sess:<sessionId> with a TTL until expiry, and reads it back', async () => {
    const s = session(60_000);
    await cache.put(s);
    expect(await cache.get(s.sessionId)).toEqual(s);
    const pttl = await redis.pttl(`${prefix}sess:${s.sessionId}`);
    expect(pttl).toBeGreaterThan(55_000);
    expect(pttl).toBeLessThanOrEqual(60_000);
  });

  it('misses for an unknown session', async () => {
    expect(await cache.get(sessionIdOf('never issued'))).toBeNull();
  });

  it('removes many sessions at once and tolerates an empty list', async () => {
    const a = session(60_000);
    const b = session(60_000);
    const c = session(60_000);
    await Promise.all([cache.put(a), cache.put(b), cache.put(c)]);
    await cache.remove([a.sessionId, b.sessionId]);
    await cache.remove([]);
    expect(await cache.get(a.sessionId)).toBeNull();
    expect(await cache.get(b.sessionId)).toBeNull();
    expect(await cache.get(c.sessionId)).toEqual(c);
  });

  it('forgets a session when it expires', async () => {
    // long enough that a loaded CI machine still reads it back before it expires (150 ms was not)
    const s = session(1_500);
    await cache.put(s);
    expect(await cache.get(s.sessionId)).toEqual(s);
    await new Promise((r) => setTimeout(r, s.expiresAt - Date.now() + 150));
    expect(await cache.get(s.sessionId)).toBeNull();
    expect(await redis.exists(`${prefix}sess:${s.sessionId}`)).toBe(0);
  });

  it('never caches an already expired session and drops a stale copy', async () => {
    const s = session(60_000);
    await cache.put(s);
    await cache.put({ ...s, expiresAt: Date.now() - 1 });
    expect(await cache.get(s.sessionId)).toBeNull();
  });

  it('treats a corrupt entry as a miss', async () => {
    const id = sessionIdOf(newSessionToken());
    await redis.set(`${prefix}sess:${id}`, '{oops', 'PX', 60_000);
    expect(await cache.get(id)).toBeNull();
  });
});

describe('createRedis', () => {
  it('sets maxRetriesPerRequest: null for BullMQ only', async () => {
    const plain = createRedis(DEFAULT_TEST_REDIS_URL);
    const bull = createRedis(DEFAULT_TEST_REDIS_URL, { forBullmq: true });
    try {
      expect(bull.options.maxRetriesPerRequest).toBeNull();
      expect(plain.options.maxRetriesPerRequest).not.toBeNull();
      expect(plain.options.lazyConnect).toBe(false);
      expect(await bull.ping()).toBe('PONG');
    } finally {
      plain.disconnect();
      bull.disconnect();
    }
  });
});
