import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import type { BoardList } from '@wb/proto';
import { VersionedReplyCache } from './replyCache';

const boards = (n: number): BoardList => ({
  owned: {
    id: Array.from({ length: n }, (_, i) => `b${i}`),
    title: Array.from({ length: n }, () => 't'),
    folder_id: Array.from({ length: n }, () => null),
    updated: Array.from({ length: n }, () => 0),
    trashed: {},
  },
  shared: { id: [], title: [], user_id: [], owner_name: [], updated: [] },
});

describe('VersionedReplyCache', () => {
  it('answers only for the version it was filled with; keeps the JSON and its gzip', async () => {
    const cache = new VersionedReplyCache(100);
    const list = boards(3);
    const answer = await cache.set('1:columns', '5', list, 3);
    expect(cache.get('1:columns', '5')).toBe(answer);
    expect(JSON.parse(Buffer.from(answer.bytes).toString())).toEqual(list);
    expect(answer.gzip).toBeUndefined(); // under 1 KiB: not worth compressing
    const big = boards(90);
    const compressed = await cache.set('2:columns', '1', big, 90);
    expect(JSON.parse(gunzipSync(compressed.gzip!).toString())).toEqual(big);
    expect(cache.get('1:columns', '6')).toBeUndefined();
    // a mismatch drops the entry
    expect(cache.get('1:columns', '5')).toBeUndefined();
  });

  it('keeps each key apart (a user’s two formats)', async () => {
    const cache = new VersionedReplyCache(100);
    const columns = await cache.set('1:columns', '1', boards(2), 2);
    const objects = await cache.set('1:boards', '1', [{ id: 'b0' }, { id: 'b1' }], 2);
    expect(cache.get('1:columns', '1')).toBe(columns);
    expect(cache.get('1:boards', '1')).toBe(objects);
  });

  it('evicts the least recently used keys to stay under the bound (items + 1 per entry)', async () => {
    const cache = new VersionedReplyCache(10);
    await cache.set('1:columns', '1', boards(4), 4); // weight 5
    await cache.set('2:columns', '1', boards(3), 3); // weight 4
    expect(cache.get('1:columns', '1')).toBeDefined(); // 1 is now the most recent
    await cache.set('3:columns', '1', boards(2), 2); // weight 3: 2 must go
    expect(cache.get('2:columns', '1')).toBeUndefined();
    expect(cache.get('1:columns', '1')).toBeDefined();
    expect(cache.get('3:columns', '1')).toBeDefined();
    await cache.set('4:columns', '1', boards(20), 20); // bigger than the whole cache: not kept
    expect(cache.get('4:columns', '1')).toBeUndefined();
  });
});
