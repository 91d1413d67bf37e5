import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Logger } from '@wb/platform';
import { addShape, penStroke, type BoardDoc } from '../testing/client';
import type { OpenRoom } from '../room/manager';
import { RoomManager } from '../room/manager';
import { boardKeyPrefix, previewKey } from '../storage/snapshots';
import type { SnapshotStore } from '../storage/snapshots';
import type { NodeRegistry } from '../sharding/registry';
import { A, genesisChange } from './automerge';
import { PREVIEW_HEIGHT, PREVIEW_WIDTH, previewSvg, previewWebp } from './boardPreview';
import { recordsOf, RenderWorker } from './renderSnapshot';

/** a board with one thick horizontal black stroke (world 0…1000 at y = 0) and a red sticky below it */
function savedBoard(): Uint8Array {
  let doc = A.applyChanges(A.init<BoardDoc>(), [genesisChange()])[0];
  doc = A.change(doc, (d: BoardDoc) => {
    addShape(d, 'p1', { ...penStroke('p1', 1, [0, 0, 1000, 0]), strokeWidth: 40 });
    addShape(d, 'n1', {
      kind: new A.ImmutableString('sticky'),
      creator: 1,
      z: new A.ImmutableString('a1'),
      x: 400,
      y: 200,
      w: 200,
      h: 200,
      text: 'hi <there>',
      color: 0xff0000,
    });
  });
  return A.save(doc);
}

/** RGB of a preview pixel */
async function pixels(webp: Uint8Array): Promise<(x: number, y: number) => [number, number, number]> {
  const { data, info } = await sharp(webp).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([PREVIEW_WIDTH, PREVIEW_HEIGHT]);
  return (x, y) => {
    const i = (y * info.width + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
}

describe('dashboard previews', () => {
  it('draw the records, fitted to the content: the stroke is dark where it was drawn, the rest the surface', async () => {
    const at = await pixels(await previewWebp(recordsOf(savedBoard()), 'empty'));
    // content box −80…1080 × −80…406 (twice the stroke widths around) fits the width at 0.262 px per
    // unit, centred: the stroke runs along y ≈ 57, the sticky covers y ≈ 109…162 in the middle
    const [r, g, b] = at(160, 57);
    expect(r + g + b).toBeLessThan(150);
    expect(at(5, 190)).toEqual([255, 255, 255]); // background corner
    const [sr, sg, sb] = at(160, 150); // the sticky
    expect(sr).toBeGreaterThan(200);
    expect(sg + sb).toBeLessThan(100);
  });

  it('paint the board background, black ink light on the blackboard, and escape text', async () => {
    const records = recordsOf(savedBoard());
    expect(previewSvg(records, 'blackboard')).toContain('fill="#2b3a33"');
    expect(previewSvg(records, 'blackboard')).toContain('stroke="#eeeeee"');
    expect(previewSvg(records, 'empty')).toContain('hi &#60;there&#62;');
    const empty = await pixels(await previewWebp([], 'oldPaper'));
    const [r, g, b] = empty(100, 100);
    expect(Math.abs(r - 0xf3) + Math.abs(g - 0xe7) + Math.abs(b - 0xc9)).toBeLessThan(8);
  });

  // the worker runs the compiled file (dist/doc/renderWorker.js): make test builds it first
  const built = join(__dirname, '..', '..', 'dist', 'doc', 'renderWorker.js');
  (existsSync(built) ? it : it.skip)('are made in the render worker thread, with their own metric', async () => {
    const renders: string[] = [];
    const previews: string[] = [];
    const worker = new RenderWorker(
      (_, o) => renders.push(o),
      built,
      (_, o) => previews.push(o),
    );
    try {
      const at = await pixels(await worker.preview(savedBoard(), 'empty'));
      expect(at(160, 57)[0]).toBeLessThan(80);
      await expect(worker.preview(new Uint8Array([9, 9]), 'empty')).rejects.toThrow();
      expect(previews).toEqual(['ok', 'failed']);
      expect(renders).toEqual([]);
    } finally {
      await worker.close();
    }
  });
});

describe('preview scheduling (RoomManager)', () => {
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;

  function setup(everyMs = 30_000) {
    let now = 1_000_000;
    const made: number[] = [];
    const stored = new Map<string, Uint8Array>();
    const store = { put: async (k: string, b: Uint8Array) => void stored.set(k, b) } as unknown as SnapshotStore;
    const manager = new RoomManager({
      pool: {} as never,
      store,
      registry: { renew: async () => true, leaseMs: 4000 } as unknown as NodeRegistry,
      log,
      clock: { now: () => now },
      previewEveryMs: everyMs,
      renders: {
        render: () => Promise.reject(new Error('unused')),
        preview: async () => new Uint8Array([1, 2, 3]),
        close: async () => undefined,
      },
      previewed: async (_, version) => void made.push(version),
    });
    const r = {
      journal: { lastSeq: 10, changesSinceSnapshot: 0 },
      room: {
        boardId: 'b1',
        size: 1,
        handle: { saveNoCompress: () => new Uint8Array() },
        boardInfo: { background: 'empty' },
      },
      lastSnapshotAt: now,
      previewSeq: 10,
      lastPreviewAt: now,
      previewing: null,
    } as unknown as OpenRoom & { journal: { lastSeq: number } };
    (manager as unknown as { rooms: Map<string, OpenRoom> }).rooms.set('b1', r);
    const settle = async () => {
      await r.previewing;
    };
    return { manager, r, made, stored, settle, advance: (ms: number) => (now += ms) };
  }

  it('makes one after edits at most every previewEveryMs, never when nothing changed', async () => {
    const { manager, r, made, stored, settle, advance } = setup();
    advance(31_000);
    await manager.maintain(); // nothing changed since the loaded version
    expect(made).toEqual([]);
    r.journal.lastSeq = 11;
    advance(1000);
    await manager.maintain();
    await settle();
    expect(made).toEqual([11]);
    expect(stored.get(previewKey('b1'))).toEqual(new Uint8Array([1, 2, 3]));
    // in the board's folder: the purge deletes it with the snapshots
    expect(previewKey('a/b').startsWith(boardKeyPrefix('a/b'))).toBe(true);
    // more edits right after: waits for the interval
    r.journal.lastSeq = 50;
    advance(10_000);
    await manager.maintain();
    await settle();
    expect(made).toEqual([11]);
    advance(20_000);
    await manager.maintain();
    await settle();
    expect(made).toEqual([11, 50]);
    advance(60_000);
    await manager.maintain();
    await settle();
    expect(made).toEqual([11, 50]);
  });

  it('does not announce a preview it could not store, and tries again later', async () => {
    const { manager, r, made, advance, settle } = setup();
    const store = (manager as unknown as { opts: { store: SnapshotStore } }).opts.store;
    const put = store.put;
    store.put = () => Promise.reject(new Error('store down'));
    r.journal.lastSeq = 12;
    advance(31_000);
    await manager.maintain();
    await settle();
    expect(made).toEqual([]);
    store.put = put;
    advance(31_000);
    await manager.maintain();
    await settle();
    expect(made).toEqual([12]);
  });
});
