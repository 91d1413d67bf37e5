import { describe, expect, it } from '@jest/globals';
import type { UserRow } from '../repositories/users';
import { UserCache } from './userCache';

const row = (id: number, name = 'Ada'): UserRow => ({ id, name }) as UserRow;

describe('UserCache', () => {
  it('caches nothing until the change listener is connected', () => {
    const cache = new UserCache(5000, 10);
    cache.set(1, row(1), cache.beginRead());
    expect(cache.get(1)).toBeUndefined();
    cache.setListening(true);
    cache.set(1, row(1), cache.beginRead());
    expect(cache.get(1)).toEqual(row(1));
  });

  it('forgets a user on its change notification', () => {
    const cache = new UserCache(5000, 10);
    cache.setListening(true);
    cache.set(1, row(1), cache.beginRead());
    cache.invalidate(1);
    expect(cache.get(1)).toBeUndefined();
  });

  it('does not cache a read that overlapped a change (it may predate the commit)', () => {
    const cache = new UserCache(5000, 10);
    cache.setListening(true);
    const started = cache.beginRead();
    cache.invalidate(1); // the change commits while the SELECT is in flight
    cache.set(1, row(1, 'old'), started);
    expect(cache.get(1)).toBeUndefined();
  });

  it('drops everything when the listener disconnects, and entries after the TTL', () => {
    let now = 0;
    const cache = new UserCache(1000, 10, () => now);
    cache.setListening(true);
    cache.set(1, row(1), cache.beginRead());
    now = 1000;
    expect(cache.get(1)).toBeUndefined();
    cache.set(2, row(2), cache.beginRead());
    cache.setListening(false);
    expect(cache.get(2)).toBeUndefined();
  });

  it('holds at most maxEntries users', () => {
    const cache = new UserCache(5000, 2);
    cache.setListening(true);
    for (const id of [1, 2, 3]) cache.set(id, row(id), cache.beginRead());
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(3)).toEqual(row(3));
  });
});
