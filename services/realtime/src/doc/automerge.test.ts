import { bucketOf, packPoints } from '@wb/proto';
import { genesisChange, layoutOf, loadHandle, newHandle, warmUpDocEngine } from './automerge';

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
    loaded.loadIncremental(Buffer.concat(tail));
    expect(loaded.getHeads()).toEqual(board.getHeads());
    board.free();
    loaded.free();
  });
});
