/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** Per-person undo over two real Automerge peers editing concurrently. */
import * as A from '@automerge/automerge/slim';
import type { GeometricShape, ShapeRecord, StickyShape } from '@wb/proto';
import { getShape, moveShape, putShape, removeShape, touchedShapeIds, type BoardDoc } from '../../realtime/boardDoc';
import { loadAutomerge, readyDoc } from '../testing/editorTesting';
import { UndoManager, setFields } from './undo';

beforeAll(loadAutomerge);

const rect = (id: string, x = 0): GeometricShape => ({
  id,
  kind: 'shape',
  shapeType: 'rectangle',
  creator: 1,
  z: 'a0',
  x,
  y: 0,
  w: 100,
  h: 50,
  strokeColor: 0x000000,
});

/** a peer: its document, and (for "me") the undo manager fed as the host feeds it */
class Peer {
  constructor(
    public doc: A.Doc<BoardDoc>,
    public readonly undo = new UndoManager(),
  ) {}
  read = (id: string): ShapeRecord | null => getShape(this.doc, id);
  commit(fn: (d: BoardDoc) => void, record = true): void {
    const before = this.doc;
    this.doc = A.change(this.doc, fn);
    if (!record) return;
    const ids = touchedShapeIds(A.diff(this.doc, A.getHeads(before), A.getHeads(this.doc)));
    const b = new Map<string, ShapeRecord | null>();
    const a = new Map<string, ShapeRecord | null>();
    for (const id of ids) {
      b.set(id, getShape(before, id));
      a.set(id, getShape(this.doc, id));
    }
    this.undo.record(b, a);
  }
  /** undo or redo as the host does: one change not recorded, then done() */
  step(which: 'undo' | 'redo'): boolean {
    const s = which === 'undo' ? this.undo.undo(this.read) : this.undo.redo(this.read);
    if (!s) return false;
    this.commit(s.apply, false);
    s.done();
    return true;
  }
  sync(other: Peer): void {
    this.doc = A.merge(this.doc, other.doc);
    other.doc = A.merge(other.doc, this.doc);
  }
}

function peers(): [Peer, Peer] {
  const base = readyDoc({ actor: '0a' });
  const me = new Peer(A.clone(base, { actor: '01' }));
  const other = new Peer(A.clone(base, { actor: '02' }));
  return [me, other];
}

describe('UndoManager', () => {
  it('undoes only my field while someone else changed another; my created shape goes and comes back', () => {
    const [me, other] = peers();
    me.commit((d) => putShape(d, rect('s1')));
    me.sync(other);
    // concurrently: I move it, the other person recolours it
    me.commit((d) => moveShape(d, 's1', 40, 0));
    other.commit((d) => setFields(d, 's1', { ...rect('s1'), strokeColor: 0xff0000 }, ['strokeColor']), false);
    me.sync(other);
    expect(me.read('s1')).toMatchObject({ x: 40, strokeColor: 0xff0000 });

    expect(me.step('undo')).toBe(true);
    me.sync(other);
    expect(me.read('s1')).toMatchObject({ x: 0, strokeColor: 0xff0000 });
    expect(other.read('s1')).toMatchObject({ x: 0, strokeColor: 0xff0000 });

    // the creation: undo removes it everywhere, redo brings it back (with the other's colour)
    expect(me.step('undo')).toBe(true);
    me.sync(other);
    expect(other.read('s1')).toBeNull();
    expect(me.undo.canUndo).toBe(false);
    expect(me.step('redo')).toBe(true);
    expect(me.read('s1')).toMatchObject({ x: 0, strokeColor: 0xff0000 });
    expect(me.step('redo')).toBe(true);
    expect(me.read('s1')).toMatchObject({ x: 40, strokeColor: 0xff0000 });
    expect(me.undo.canRedo).toBe(false);
  });

  it("my value wins on a field we both changed (last writer wins), others' other fields stay", () => {
    const [me, other] = peers();
    me.commit((d) => putShape(d, rect('s1')));
    me.sync(other);
    me.commit((d) => moveShape(d, 's1', 10, 5));
    me.sync(other);
    other.commit((d) => moveShape(d, 's1', 100, 0), false);
    me.sync(other);
    expect(me.read('s1')).toMatchObject({ x: 110, y: 5 });
    me.step('undo');
    expect(me.read('s1')).toMatchObject({ x: 0, y: 0 });
  });

  it('does not resurrect a shape someone else deleted; restores one I deleted', () => {
    const [me, other] = peers();
    me.commit((d) => {
      putShape(d, rect('a'));
      putShape(d, rect('b', 200));
    });
    me.sync(other);
    me.commit((d) => moveShape(d, 'a', 5, 5));
    me.sync(other);
    other.commit((d) => void removeShape(d, 'a'), false);
    me.sync(other);
    // the edit step has nothing left to revert: it is skipped, the next one (creation) runs
    expect(me.step('undo')).toBe(true);
    expect(me.read('a')).toBeNull();
    expect(me.read('b')).toBeNull();

    const [me2] = peers();
    me2.commit((d) => putShape(d, rect('c')));
    me2.commit((d) => void removeShape(d, 'c'));
    expect(me2.read('c')).toBeNull();
    me2.step('undo');
    expect(me2.read('c')).toMatchObject({ kind: 'shape', x: 0, w: 100 });
    me2.step('redo');
    expect(me2.read('c')).toBeNull();
  });

  it('a new commit clears redo; text is set whole; a refused commit keeps the step', () => {
    const [me] = peers();
    const sticky: StickyShape = {
      id: 'n',
      kind: 'sticky',
      creator: 1,
      z: 'a1',
      x: 0,
      y: 0,
      w: 100,
      h: 100,
      text: 'hello',
      color: 0xffee00,
    };
    me.commit((d) => putShape(d, sticky));
    me.commit((d) => setFields(d, 'n', { ...sticky, text: 'hello world' }, ['text']));
    const s = me.undo.undo(me.read)!;
    // not applied (the board refused): still undoable
    expect(me.undo.canUndo).toBe(true);
    expect(me.undo.canRedo).toBe(false);
    me.commit(s.apply, false);
    s.done();
    expect(me.read('n')).toMatchObject({ text: 'hello' });
    expect(me.undo.canRedo).toBe(true);
    me.commit((d) => moveShape(d, 'n', 1, 1));
    expect(me.undo.canRedo).toBe(false);
    me.undo.clear();
    expect(me.undo.undo(me.read)).toBeNull();
  });

  it('keeps at most `limit` steps', () => {
    const me = new Peer(readyDoc({ actor: '0a' }), new UndoManager(3));
    me.commit((d) => putShape(d, rect('s')));
    for (let i = 0; i < 5; i++) me.commit((d) => moveShape(d, 's', 1, 0));
    let n = 0;
    while (me.step('undo')) n++;
    expect(n).toBe(3);
    expect(me.read('s')).toMatchObject({ x: 2 });
  });

  it('undo on a big board reads only the shapes of its step (its cost does not grow with the board)', () => {
    const me = new Peer(readyDoc({ actor: '0a' }));
    me.commit((d) => {
      for (let i = 0; i < 2_000; i++) putShape(d, rect(`r${i}`, i));
    }, false);
    me.commit((d) => {
      for (let i = 0; i < 10; i++) moveShape(d, `r${i}`, 3, 3);
    });
    const read = new Set<string>();
    const s = me.undo.undo((id) => {
      read.add(id);
      return me.read(id);
    })!;
    expect([...read].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `r${i}`).sort());
    me.commit(s.apply, false);
    s.done();
    expect(me.read('r5')).toMatchObject({ x: 5, y: 0 });
    expect(me.read('r500')).toMatchObject({ x: 500, y: 0 });
  });
});
