import { bucketOf, packPoints } from '@wb/proto';
import { concatBytes, genesisChange, layoutOf, loadHandle, newHandle, warmUpDocEngine } from './automerge';

describe('document engine', () => {
  it('P4: the start-up warm-up leaves the engine working (its refused reservation does not poison wasm)', () => {
    expect(warmUpDocEngine({ memoryMb: 4, rounds: 1, strokes: 60 })).toBeGreaterThan(0);
    const board = newHandle();
    board.applyChanges([genesisChange()]);
    const bucket = layoutOf(board)!;
    const bucketId = [...bucket.bucketIds].find(([, name]) => name === bucketOf('s1'))![0];
    const snapshot = board.saveNoCompress();
    const shape = board.putObject(bucketId, 's1', {});
    board.put(shape, 'points', packPoints([0, 0, 5, 5]), 'bytes');
    board.commit(null, 0);
    const tail = [board.getLastLocalChange()!];

    const loaded = loadHandle(snapshot);
    loaded.loadIncremental(concatBytes(tail));
    expect(loaded.getHeads()).toEqual(board.getHeads());
    board.free();
    loaded.free();
  });

  it('concatBytes joins in order', () => {
    expect([...concatBytes([Uint8Array.of(1, 2), new Uint8Array(0), Uint8Array.of(3)])]).toEqual([1, 2, 3]);
  });
});
