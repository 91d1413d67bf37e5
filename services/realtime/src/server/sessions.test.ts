import { FakeClock, silentLogger } from '../testing/fakes';
import { cachedSessionValidity, SessionGuard } from './sessions';
import type { SessionValidity } from './sessions';

const guard = (validity?: SessionValidity, clock = new FakeClock()) =>
  new SessionGuard({ clock, log: silentLogger(), ...(validity ? { validity } : {}) });

describe('session guard (A5)', () => {
  it('revoke closes every socket of the session, once, and remembers the id for late joiners', () => {
    const clock = new FakeClock();
    const g = guard(undefined, clock);
    const closed: string[] = [];
    const untrackA = g.track('s1', () => closed.push('a'))!;
    g.track('s1', () => closed.push('b'));
    g.track('s2', () => closed.push('c'));
    untrackA(); // socket a closed by itself
    expect(g.revoke(['s1', 'unknown'])).toBe(1);
    expect(closed).toEqual(['b']);
    expect(g.revoke(['s1'])).toBe(0);
    expect(g.size).toBe(1);
    // a socket upgraded with a header signed before the revocation is refused
    expect(g.track('s1', () => undefined)).toBeNull();
    clock.t += 10 * 60_000;
    g.revoke([]); // forgets old ids
    expect(g.track('s1', () => undefined)).not.toBeNull();
  });

  it('the sweep closes the sessions the check says ended; a failed check closes nothing', async () => {
    let answer: string[] | Error = ['s2'];
    const asked: string[][] = [];
    const g = guard({
      ended: async (ids) => {
        asked.push([...ids]);
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    const closed: string[] = [];
    g.track('s1', () => closed.push('s1'));
    g.track('s2', () => closed.push('s2'));
    await g.sweep();
    expect(asked).toEqual([['s1', 's2']]);
    expect(closed).toEqual(['s2']);
    answer = new Error('redis down');
    await g.sweep();
    expect(closed).toEqual(['s2']);
    expect(g.size).toBe(1);
  });
});

describe('cachedSessionValidity (A5 fallback)', () => {
  const id = (c: string) => c.repeat(64);
  const cached = (sessionId: string, expiresAt: number) => JSON.stringify({ sessionId, userId: 5, expiresAt });

  it('reads the session cache in one MGET and asks auth only about the ids it lacks', async () => {
    const clock = new FakeClock();
    const redisCalls: string[][] = [];
    const store: Record<string, string> = {
      [`p:sess:${id('a')}`]: cached(id('a'), clock.t + 1000), // valid
      [`p:sess:${id('b')}`]: cached(id('b'), clock.t - 1), // expired
      [`p:sess:${id('d')}`]: 'not json', // unreadable: auth decides
    };
    const resolved: string[] = [];
    const validity = cachedSessionValidity({
      redis: {
        mget: async (...keys) => {
          redisCalls.push(keys);
          return keys.map((k) => store[k] ?? null);
        },
      },
      redisPrefix: 'p:',
      resolve: async (sessionId) => {
        resolved.push(sessionId);
        // c was revoked (auth says null); d is valid (evicted from the cache)
        return sessionId === id('d') ? { sessionId, userId: 5, expiresAt: clock.t + 1000 } : null;
      },
      clock,
    });
    expect((await validity.ended([id('a'), id('b'), id('c'), id('d')])).sort()).toEqual([id('b'), id('c')]);
    expect(redisCalls).toHaveLength(1);
    expect(resolved).toEqual([id('c'), id('d')]);
  });

  it('an id auth cannot answer for stays open', async () => {
    const validity = cachedSessionValidity({
      redis: { mget: async (...keys) => keys.map(() => null) },
      redisPrefix: 'p:',
      resolve: async () => {
        throw new Error('timeout');
      },
      clock: new FakeClock(),
    });
    await expect(validity.ended([id('a')])).rejects.toThrow('timeout');
  });
});
