/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** Big edits recorded once and sent as several changes within the node's limits (SPEC L4). */
import * as A from '@automerge/automerge/slim';
import { RT_LIMITS } from '@wb/proto';
import type { GeometricShape } from '@wb/proto';
import { allShapes, getShape, moveShape, putShape, removeShape, type BoardDoc } from '../../realtime/boardDoc';
import { changeCost, partsWithinLimits } from '../../realtime/boardClient';
import { genesis, loadAutomerge } from '../testing/editorTesting';
import { fitsOneChange, recordChange, replay, writesCost } from './splitChange';

beforeAll(loadAutomerge);

const rect = (id: string, x: number): GeometricShape => ({
  id,
  kind: 'shape',
  shapeType: 'rectangle',
  creator: 1,
  z: 'a0',
  x,
  y: 0,
  w: 100,
  h: 50,
});

function boardWith(n: number): A.Doc<BoardDoc> {
  return A.change(A.init<BoardDoc>(), (d) => {
    genesis(d);
    for (let i = 0; i < n; i++) putShape(d, rect(`shape-${i}`, i * 10));
  });
}

/** what the records look like, comparable across documents */
const plain = (doc: BoardDoc) =>
  Object.fromEntries([...allShapes(doc)].map(([id, s]) => [id, JSON.stringify(s)]).sort());

describe('recordChange / replay', () => {
  it('moving 200 shapes goes out in changes the node accepts, with the same result as one change', () => {
    const doc = boardWith(200);
    const move = (d: BoardDoc) => {
      for (let i = 0; i < 200; i++) moveShape(d, `shape-${i}`, 5, 7);
    };
    const writes = recordChange(doc, move);
    expect(writes).toHaveLength(200);
    expect(writesCost(writes[0]!)).toEqual({ ops: 2, overwrites: 2 });
    expect(fitsOneChange(writes)).toBe(false);

    let split = A.clone(doc);
    const parts = partsWithinLimits(writes, writesCost);
    expect(parts.length).toBe(Math.ceil(200 / (RT_LIMITS.maxChangeOverwrites / 2)));
    for (const part of parts) {
      split = A.change(split, (d) => replay(d, part));
      const cost = changeCost(A.getLastLocalChange(split)!);
      expect(cost.overwrites).toBeLessThanOrEqual(RT_LIMITS.maxChangeOverwrites);
      expect(cost.ops).toBeLessThanOrEqual(RT_LIMITS.maxChangeOps);
    }
    const direct = A.change(A.clone(doc), move);
    expect(plain(split)).toEqual(plain(direct));
  });

  it('reads see earlier writes; puts, field writes after a put, removes and re-puts replay exactly', () => {
    const doc = boardWith(3);
    const fn = (d: BoardDoc) => {
      moveShape(d, 'shape-0', 1, 0);
      moveShape(d, 'shape-0', 1, 0); // reads the first move
      putShape(d, rect('new', 500));
      d.shapes![Object.keys(d.shapes!).find((b) => 'new' in d.shapes![b]!)!]!.new!.y = 9;
      removeShape(d, 'shape-1');
      removeShape(d, 'shape-2');
      putShape(d, rect('shape-2', 77));
      const gone = getShape(d, 'shape-1');
      expect(gone).toBeNull();
    };
    const writes = recordChange(doc, fn);
    expect(writes.map((w) => w.id)).toEqual(['shape-0', 'new', 'shape-1', 'shape-2']);
    const replayed = A.change(A.clone(doc), (d) => replay(d, writes));
    const direct = A.change(A.clone(doc), fn);
    expect(plain(replayed)).toEqual(plain(direct));
    expect(getShape(replayed, 'shape-0')!.x).toBe(2);
    expect(getShape(replayed, 'new')!.y).toBe(9);
  });

  it('tells the change which shapes it has written so far, and reads a record as it now is', () => {
    const doc = boardWith(3);
    const seen: string[][] = [];
    recordChange(doc, (d, written) => {
      seen.push([...written()]);
      moveShape(d, 'shape-2', 1, 0);
      removeShape(d, 'shape-0');
      seen.push([...written()]);
      expect(getShape(d, 'shape-2')).toEqual({ ...rect('shape-2', 21) });
      expect(getShape(d, 'shape-1')).toEqual(rect('shape-1', 10));
    });
    expect(seen).toEqual([[], ['shape-2', 'shape-0']]);
  });

  it('writes it cannot record (outside shapes) are refused, so the caller runs the change directly', () => {
    const doc = boardWith(1);
    expect(() =>
      recordChange(doc, (d) => {
        d.schema = 2;
      }),
    ).toThrow();
  });
});
