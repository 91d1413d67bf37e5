/** Contract of every SnapshotStore (P5); the S3 driver will run the same cases. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsSnapshotStore, snapshotKey } from './snapshots';
import type { SnapshotStore } from './snapshots';

const drivers: [string, () => Promise<{ store: SnapshotStore; done: () => Promise<void> }>][] = [
  [
    'filesystem',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'wb-snap-'));
      return { store: new FsSnapshotStore(dir), done: () => rm(dir, { recursive: true, force: true }) };
    },
  ],
];

describe.each(drivers)('SnapshotStore contract: %s', (_name, make) => {
  it('P5: put/get/delete; missing keys read as null; keys of board ids with slashes', async () => {
    const { store, done } = await make();
    try {
      const key = snapshotKey('folder/board', 12, 3);
      expect(key).toBe('folder%2Fboard/12-3.am');
      expect(await store.get(key)).toBeNull();
      await store.put(key, Uint8Array.of(1, 2, 3));
      expect([...(await store.get(key))!]).toEqual([1, 2, 3]);
      await store.put(key, Uint8Array.of(4));
      expect([...(await store.get(key))!]).toEqual([4]);
      await store.delete([key, 'never/existed.am']);
      expect(await store.get(key)).toBeNull();
    } finally {
      await done();
    }
  });
  it('refuses keys that escape the store', async () => {
    const { store, done } = await make();
    try {
      await expect(store.put('../../etc/x', Uint8Array.of(1))).rejects.toThrow(/escapes/);
    } finally {
      await done();
    }
  });
});
