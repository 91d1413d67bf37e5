import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeRenderSnapshot, packPoints } from '@wb/proto';
import { addShape, penStroke, type BoardDoc } from '../testing/client';
import { A, genesisChange } from './automerge';
import { renderSnapshotOf, RenderWorker } from './renderSnapshot';

/** a saved board document with a stroke, a sticky with collaborative text and a deleted shape */
function savedBoard(): Uint8Array {
  let doc = A.applyChanges(A.init<BoardDoc>(), [genesisChange()])[0];
  doc = A.change(doc, (d: BoardDoc) => {
    addShape(d, 'p1', { ...penStroke('p1', 1, [0, 0, 3, 4]), x: 10, y: 20 });
    addShape(d, 'n1', {
      kind: new A.ImmutableString('sticky'),
      creator: 2,
      z: new A.ImmutableString('a1'),
      x: 1,
      y: 2,
      w: 200,
      h: 200,
      text: 'hello',
      color: 0xffee88,
    });
    addShape(d, 'gone', penStroke('gone', 1, [1, 1]));
  });
  doc = A.change(doc, (d: BoardDoc) => {
    for (const bucket of Object.values(d.shapes)) delete (bucket as Record<string, unknown>).gone;
  });
  return A.save(doc);
}

describe('render snapshots (S9)', () => {
  it('are the document’s shapes as plain records: ids added, atomic strings as strings, points as bytes', () => {
    const records = decodeRenderSnapshot(gunzipSync(renderSnapshotOf(savedBoard())));
    expect(records.map((r) => r.id)).toEqual(['p1', 'n1']); // in z order (a0, a1), as the browser's scene
    const pen = records.find((r) => r.id === 'p1')!;
    expect(pen).toMatchObject({ kind: 'pen', creator: 1, z: 'a0', x: 10, y: 20, strokeWidth: 3 });
    expect(pen.points).toEqual(packPoints([0, 0, 3, 4]));
    expect(records.find((r) => r.id === 'n1')).toMatchObject({ kind: 'sticky', text: 'hello', color: 0xffee88 });
  });

  it('refuse bytes that are not a document', () => {
    expect(() => renderSnapshotOf(new Uint8Array([1, 2, 3]))).toThrow();
  });

  // the worker runs the compiled file (dist/doc/renderWorker.js): make test builds it first
  const built = join(__dirname, '..', '..', 'dist', 'doc', 'renderWorker.js');
  (existsSync(built) ? it : it.skip)(
    'are made in a worker thread, one answer per request, errors as rejections',
    async () => {
      const observed: string[] = [];
      const worker = new RenderWorker((_, outcome) => observed.push(outcome), built);
      try {
        const doc = savedBoard();
        const [a, b] = await Promise.all([worker.render(doc), worker.render(doc)]);
        expect(
          decodeRenderSnapshot(gunzipSync(a))
            .map((r) => r.id)
            .sort(),
        ).toEqual(['n1', 'p1']);
        expect(b).toEqual(a);
        await expect(worker.render(new Uint8Array([9, 9, 9]))).rejects.toThrow();
        // still working after a failure
        expect(decodeRenderSnapshot(gunzipSync(await worker.render(doc)))).toHaveLength(2);
        expect(observed).toEqual(['ok', 'ok', 'failed', 'ok']);
      } finally {
        await worker.close();
      }
    },
  );
});
