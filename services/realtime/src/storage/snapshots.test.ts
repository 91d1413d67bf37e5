/**
 * What is particular to snapshots (SPEC P5, H3), on both object store drivers: the filesystem
 * and S3 on a real S3 server on loopback (s3rver, a dev dependency; the S3 cases fail, not skip,
 * when it cannot start). The generic contract (atomic writes, streams, ranges, unsafe keys…) is
 * the platform's objectStore.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ObjectStore } from '@wb/platform';
import { startLocalS3 } from '@wb/platform/testing';
import type { LocalS3 } from '@wb/platform/testing';
import { openSnapshotStore } from './fromEnv';
import { boardKeyPrefix, FsSnapshotStore, ObjectSnapshotStore, snapshotKey, unpackSnapshot } from './snapshots';

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

const drivers: [string, () => Promise<{ snapshots: ObjectSnapshotStore; done: () => Promise<void> }>][] = [
  [
    'filesystem',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'wb-snap-'));
      return { snapshots: new FsSnapshotStore(dir), done: () => rm(dir, { recursive: true, force: true }) };
    },
  ],
  [
    's3 (s3rver on loopback)',
    async () => ({ snapshots: new ObjectSnapshotStore(s3.store()), done: async () => undefined }),
  ],
];

async function keys(objects: ObjectStore, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const k of objects.list(prefix)) out.push(k);
  return out.sort();
}

describe.each(drivers)('SnapshotStore on %s', (_name, make) => {
  it('P5: put/get/delete under keys of board ids with slashes; missing keys read as null', async () => {
    const { snapshots, done } = await make();
    try {
      const key = snapshotKey('folder/board', 12, 3);
      expect(key).toBe('folder~board/12-3.am');
      expect(boardKeyPrefix('folder/board')).toBe('folder~board/');
      expect(await snapshots.get(key)).toBeNull();
      await snapshots.put(key, Uint8Array.of(1, 2, 3));
      expect([...(await snapshots.get(key))!]).toEqual([1, 2, 3]);
      // the object store holds it under exactly that key (the layout older nodes wrote)
      expect(await keys(snapshots.objects, 'folder~board/')).toEqual([key]);
      await snapshots.put(key, Uint8Array.of(4));
      expect([...(await snapshots.get(key))!]).toEqual([4]);
      await snapshots.delete([key, 'never/existed.am']);
      expect(await snapshots.get(key)).toBeNull();
      await snapshots.delete([]);
    } finally {
      await done();
    }
  });

  it('P5: snapshots older nodes wrote ("%2F" board folders, gzipped .am.gz) load as they are', async () => {
    const { snapshots, done } = await make();
    try {
      const doc = Uint8Array.of(0x85, 0x6f, 0x4a, 0x83, 1, 2, 3);
      const legacy = 'folder%2Fold/7-1.am.gz';
      await snapshots.objects.put(legacy, new Uint8Array(gzipSync(doc)));
      expect([...(await unpackSnapshot((await snapshots.get(legacy))!))]).toEqual([...doc]);
    } finally {
      await done();
    }
  });

  it('H3: deleteBoard removes every object of that board (orphans too) and nothing else', async () => {
    const { snapshots, done } = await make();
    try {
      const mine = [snapshotKey('room/1', 10, 1), snapshotKey('room/1', 20, 2), snapshotKey('room/1', 30, 3)];
      const other = snapshotKey('room/10', 10, 1);
      const nested = snapshotKey('room', 5, 1);
      for (const k of [...mine, other, nested]) await snapshots.put(k, Uint8Array.of(9));
      await snapshots.deleteBoard('room/1');
      for (const k of mine) expect(await snapshots.get(k)).toBeNull();
      expect(await keys(snapshots.objects, 'room~1/')).toEqual([]);
      expect(await snapshots.get(other)).not.toBeNull();
      expect(await snapshots.get(nested)).not.toBeNull();
      await snapshots.deleteBoard('never-existed');
    } finally {
      await done();
    }
  });

  it('P5: a board id that is a prefix of another keeps its own objects', async () => {
    const { snapshots, done } = await make();
    try {
      const a = snapshotKey('a', 1, 1);
      const ab = snapshotKey('a/b', 1, 1);
      await snapshots.put(a, Uint8Array.of(1));
      await snapshots.put(ab, Uint8Array.of(2));
      await snapshots.deleteBoard('a');
      expect(await snapshots.get(a)).toBeNull();
      expect([...(await snapshots.get(ab))!]).toEqual([2]);
    } finally {
      await done();
    }
  });
});

describe('openSnapshotStore (SNAPSHOT_STORE and friends, names unchanged)', () => {
  it('fs: files under SNAPSHOT_DIR at <dir>/<key>, where earlier nodes put them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wb-snap-env-'));
    try {
      const { store, description } = await openSnapshotStore({
        SNAPSHOT_STORE: 'fs',
        SNAPSHOT_DIR: dir,
        S3_REGION: 'us-east-1',
      } as Parameters<typeof openSnapshotStore>[0]);
      expect(description).toBe(`fs ${dir}`);
      await store.put(snapshotKey('x/y', 3, 1), Uint8Array.of(7));
      expect([...(await readFile(join(dir, 'x~y', '3-1.am')))]).toEqual([7]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('s3: S3_BUCKET on S3_ENDPOINT, created at open; a refused key stops start-up', async () => {
    const o = s3.options(`wb-snap-env-${process.pid}`);
    const env = {
      SNAPSHOT_STORE: 's3',
      SNAPSHOT_DIR: '/unused',
      S3_ENDPOINT: o.endpoint,
      S3_BUCKET: o.bucket,
      S3_ACCESS_KEY: o.accessKey,
      S3_SECRET_KEY: o.secretKey,
      S3_REGION: o.region,
    } as Parameters<typeof openSnapshotStore>[0];
    const { store, description } = await openSnapshotStore(env);
    expect(description).toBe(`s3 ${o.endpoint}/${o.bucket}`);
    await store.put(snapshotKey('b', 1, 1), Uint8Array.of(5));
    expect([...(await s3.store(o.bucket).get('b/1-1.am'))!]).toEqual([5]);
    await expect(openSnapshotStore({ ...env, S3_ACCESS_KEY: 'NOT-A-KEY' })).rejects.toThrow();
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
