/**
 * Contract of every SnapshotStore (SPEC P5, H3), run against the filesystem driver and the S3
 * driver talking to a real S3 server on loopback (s3rver, a dev dependency: `npm install` brings
 * it; the S3 cases fail, not skip, when it cannot start).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalS3 } from '../testing/localS3';
import type { LocalS3 } from '../testing/localS3';
import { S3SnapshotStore } from './s3Snapshots';
import { gzipSync } from 'node:zlib';
import { FsSnapshotStore, snapshotKey, unpackSnapshot } from './snapshots';
import type { SnapshotStore } from './snapshots';

let s3: LocalS3;
let s3Dir: string;
beforeAll(async () => {
  s3Dir = await mkdtemp(join(tmpdir(), 'wb-s3rver-'));
  s3 = await startLocalS3(s3Dir);
});
afterAll(async () => {
  await s3?.stop();
  await rm(s3Dir, { recursive: true, force: true });
});

const drivers: [string, () => Promise<{ store: SnapshotStore; done: () => Promise<void> }>][] = [
  [
    'filesystem',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'wb-snap-'));
      return { store: new FsSnapshotStore(dir), done: () => rm(dir, { recursive: true, force: true }) };
    },
  ],
  ['s3 (s3rver on loopback)', async () => ({ store: s3.store(), done: async () => undefined })],
];

describe.each(drivers)('SnapshotStore contract: %s', (_name, make) => {
  it('P5: put/get/delete; missing keys read as null; keys of board ids with slashes', async () => {
    const { store, done } = await make();
    try {
      const key = snapshotKey('folder/board', 12, 3);
      expect(key).toBe('folder~board/12-3.am');
      expect(await store.get(key)).toBeNull();
      await store.put(key, Uint8Array.of(1, 2, 3));
      expect([...(await store.get(key))!]).toEqual([1, 2, 3]);
      await store.put(key, Uint8Array.of(4));
      expect([...(await store.get(key))!]).toEqual([4]);
      await store.delete([key, 'never/existed.am']);
      expect(await store.get(key)).toBeNull();
      await store.delete([]);
    } finally {
      await done();
    }
  });

  it('P5: a board id that is a prefix of another keeps its own objects', async () => {
    const { store, done } = await make();
    try {
      const a = snapshotKey('a', 1, 1);
      const ab = snapshotKey('a/b', 1, 1);
      await store.put(a, Uint8Array.of(1));
      await store.put(ab, Uint8Array.of(2));
      expect([...(await store.get(a))!]).toEqual([1]);
      expect([...(await store.get(ab))!]).toEqual([2]);
    } finally {
      await done();
    }
  });

  it('P5: megabytes round-trip byte for byte', async () => {
    const { store, done } = await make();
    try {
      const big = new Uint8Array(3 * 1024 * 1024 + 7);
      for (let i = 0; i < big.length; i++) big[i] = (i * 2654435761) >>> 24;
      const key = snapshotKey('big', 1, 1);
      await store.put(key, big);
      expect(Buffer.compare(Buffer.from((await store.get(key))!), Buffer.from(big))).toBe(0);
    } finally {
      await done();
    }
  });

  it('H3: deleteBoard removes every object of that board (orphans too) and nothing else', async () => {
    const { store, done } = await make();
    try {
      const mine = [snapshotKey('room/1', 10, 1), snapshotKey('room/1', 20, 2), snapshotKey('room/1', 30, 3)];
      const other = snapshotKey('room/10', 10, 1);
      const nested = snapshotKey('room', 5, 1);
      for (const k of [...mine, other, nested]) await store.put(k, Uint8Array.of(9));
      await store.deleteBoard('room/1');
      for (const k of mine) expect(await store.get(k)).toBeNull();
      expect(await store.get(other)).not.toBeNull();
      expect(await store.get(nested)).not.toBeNull();
      await store.deleteBoard('never-existed');
    } finally {
      await done();
    }
  });

  it('refuses keys that escape the store', async () => {
    const { store, done } = await make();
    try {
      await expect(store.put('../../etc/x', Uint8Array.of(1))).rejects.toThrow(/escapes/);
      await expect(store.get('a/../../x')).rejects.toThrow(/escapes/);
      await expect(store.delete(['/abs'])).rejects.toThrow(/escapes/);
    } finally {
      await done();
    }
  });
});

describe('S3 driver', () => {
  it('P5: creates a missing bucket on first use, and a second node finds it', async () => {
    const opts = s3.options(`wb-fresh-${Date.now()}`);
    const first = new S3SnapshotStore(opts);
    await first.put('b/1-1.am.gz', Uint8Array.of(5));
    const second = new S3SnapshotStore(opts);
    await second.ensureBucket();
    expect([...(await second.get('b/1-1.am.gz'))!]).toEqual([5]);
  });

  it('fails (does not swallow the error) when the server refuses the credentials', async () => {
    const store = new S3SnapshotStore({ ...s3.options(), accessKey: 'NOT-A-KEY' });
    await expect(store.put('b/1-1.am.gz', Uint8Array.of(1))).rejects.toThrow();
  });

  it('rejects an endpoint that is not http(s)', () => {
    expect(() => new S3SnapshotStore({ ...s3.options(), endpoint: 'ftp://x' })).toThrow(/http/);
  });
});

describe('snapshot encoding', () => {
  it('P5: Automerge documents are stored as they are; gzipped ones of older nodes unpack to the same bytes', async () => {
    const doc = new Uint8Array(100_000);
    for (let i = 0; i < doc.length; i++) doc[i] = i % 251;
    doc.set([0x85, 0x6f, 0x4a, 0x83]); // Automerge magic
    expect(await unpackSnapshot(doc)).toBe(doc);
    const older = new Uint8Array(gzipSync(doc, { level: 1 }));
    expect(Buffer.compare(Buffer.from(await unpackSnapshot(older)), Buffer.from(doc))).toBe(0);
  });
});
