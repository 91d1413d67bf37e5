/**
 * SPEC D5–D8, D10, D11: what a peer's change may do, checked on the decoded change against the
 * raw handle. Changes are made the way the web makes them (high-level `A.change`) and the way a
 * hostile client can (raw handle operations).
 */
import { bucketOf } from '@wb/proto';
import { A, decodeChange, layoutOf } from './automerge';
import type { Handle } from './automerge';
import { checkChange } from './checks';
import type { ChangeAuthor } from './checks';
import { freshBoardHandle } from '../testing/fakes';
import { addShape, deleteShape, penStroke } from '../testing/client';
import type { BoardDoc } from '../testing/client';
import { generateBoard } from '../../bench/board';

const OWNER = 1;
const ANN = 6; // editor
const BOB = 7; // editor
const actorOf = (userId: number): string => userId.toString(16).padStart(32, 'c');

function board() {
  const doc = freshBoardHandle();
  const layout = layoutOf(doc)!;
  const author = (userId: number, over: Partial<ChangeAuthor> = {}): ChangeAuthor => ({
    userId,
    canEdit: true,
    isOwner: userId === OWNER,
    deleteOwnOnly: true,
    ...over,
  });
  /** a change made through the high-level API, as the web client makes it */
  const edit = (userId: number, fn: (d: BoardDoc) => void): Uint8Array => {
    const d = A.change(A.load<BoardDoc>(doc.save(), { actor: actorOf(userId) }), fn);
    return A.getLastLocalChange(d)!;
  };
  /** a change made with raw operations (what a hostile client can send) */
  const raw = (userId: number, fn: (h: Handle, shapeObj: (id: string) => string) => void): Uint8Array => {
    const h = doc.fork(actorOf(userId));
    const bucketObj = new Map([...layout.bucketIds].map(([obj, name]) => [name, obj]));
    fn(h, (id) => h.getWithType(bucketObj.get(bucketOf(id))!, id)![1] as string);
    h.commit(null, 0);
    const bytes = h.getLastLocalChange()!;
    h.free();
    return bytes;
  };
  const check = (bytes: Uint8Array, who: ChangeAuthor) => checkChange(doc, layout, decodeChange(bytes), who);
  /** check, and apply when accepted (as the room does) */
  const commit = (bytes: Uint8Array, who: ChangeAuthor) => {
    const verdict = check(bytes, who);
    if (verdict.ok) doc.applyChanges([bytes]);
    return verdict;
  };
  const record = (id: string): unknown => {
    const b = doc.getWithType('_root', 'shapes')![1] as string;
    const bucket = doc.getWithType(b, bucketOf(id))![1] as string;
    const s = doc.getWithType(bucket, id);
    return s ? doc.materialize(s[1] as string) : undefined;
  };
  return { doc, layout, author, edit, raw, check, commit, record };
}
const code = (r: ReturnType<typeof checkChange>): string => (r.ok ? 'ok' : r.code);

describe('document checks', () => {
  it('D5: a viewer changes nothing', () => {
    const b = board();
    const c = b.edit(ANN, (d) => addShape(d, 's', penStroke('s', ANN, [1, 1])));
    expect(code(b.check(c, b.author(ANN, { canEdit: false })))).toBe('read_only');
  });

  it('D6/D10: an editor cannot erase another person’s shape by removing or garbling its fields', () => {
    const b = board();
    expect(
      code(
        b.commit(
          b.edit(ANN, (d) => addShape(d, 'ann', penStroke('ann', ANN, [1, 1, 2, 2]))),
          b.author(ANN),
        ),
      ),
    ).toBe('ok');
    const before = b.record('ann');
    const attacks: [string, Uint8Array][] = [
      [
        'remove kind and points',
        b.raw(BOB, (h, obj) => {
          h.delete(obj('ann'), 'kind');
          h.delete(obj('ann'), 'points');
        }),
      ],
      ['garbage points', b.raw(BOB, (h, obj) => h.put(obj('ann'), 'points', new Uint8Array([99, 1, 2]), 'bytes'))],
      ['points as a string', b.raw(BOB, (h, obj) => h.put(obj('ann'), 'points', 'x', 'str'))],
      ['x as NaN', b.raw(BOB, (h, obj) => h.put(obj('ann'), 'x', NaN, 'f64'))],
      ['a nested map', b.raw(BOB, (h, obj) => h.putObject(obj('ann'), 'strokeColor', { r: 1 }))],
      ['z removed', b.raw(BOB, (h, obj) => h.delete(obj('ann'), 'z'))],
      ['kind bogus', b.raw(BOB, (h, obj) => h.put(obj('ann'), 'kind', 'bogus', 'str'))],
      ['creator removed', b.raw(BOB, (h, obj) => h.delete(obj('ann'), 'creator'))],
    ];
    for (const [what, bytes] of attacks) {
      expect([what, code(b.commit(bytes, b.author(BOB)))]).toEqual([what, 'delete_own_only']);
      // not a deletion for the owner, but still not a valid record
      expect([what, code(b.check(bytes, b.author(OWNER)))]).toEqual([what, 'invalid_change']);
      // nor on a board without the restriction
      expect([what, code(b.check(bytes, b.author(BOB, { deleteOwnOnly: false })))]).toEqual([what, 'invalid_change']);
    }
    expect(b.record('ann')).toEqual(before);
    // Ann cannot garble her own shape either
    expect(code(b.check(attacks[0]![1], b.author(ANN)))).toBe('invalid_change');
  });

  it('D6: moving or restyling another person’s shape is not a deletion', () => {
    const b = board();
    b.commit(
      b.edit(ANN, (d) => addShape(d, 'ann', penStroke('ann', ANN, [1, 1]))),
      b.author(ANN),
    );
    const move = b.edit(BOB, (d) => {
      const s = d.shapes[bucketOf('ann')].ann;
      s.x = 40.5;
      s.y = 12;
      s.strokeColor = 0xff0000;
    });
    expect(code(b.commit(move, b.author(BOB)))).toBe('ok');
    expect(
      code(
        b.commit(
          b.edit(BOB, (d) => deleteShape(d, 'ann')),
          b.author(BOB),
        ),
      ),
    ).toBe('delete_own_only');
    // a move made concurrently with the deletion (the shape is gone here) is harmless
    const late = b.edit(BOB, (d) => (d.shapes[bucketOf('ann')].ann.y = 1));
    expect(
      code(
        b.commit(
          b.edit(OWNER, (d) => deleteShape(d, 'ann')),
          b.author(OWNER),
        ),
      ),
    ).toBe('ok');
    expect(code(b.commit(late, b.author(BOB)))).toBe('ok');
    expect(b.record('ann')).toBeUndefined();
  });

  it('D8/D10: an existing shape’s kind never becomes unknown (or another kind), nor changes creator', () => {
    const b = board();
    b.commit(
      b.edit(ANN, (d) => addShape(d, 'ann', penStroke('ann', ANN, [1, 1]))),
      b.author(ANN),
    );
    const bogus = b.edit(ANN, (d) => {
      d.shapes[bucketOf('ann')].ann.kind = new A.ImmutableString('bogus');
    });
    expect(b.check(bogus, b.author(ANN))).toMatchObject({ ok: false, code: 'invalid_change' });
    const line = b.raw(ANN, (h, obj) => h.put(obj('ann'), 'kind', 'line', 'str'));
    expect(b.check(line, b.author(ANN))).toMatchObject({ code: 'invalid_change', message: 'ann: kind is immutable' });
    const creator = b.raw(ANN, (h, obj) => h.put(obj('ann'), 'creator', 9, 'int'));
    expect(b.check(creator, b.author(ANN))).toMatchObject({
      code: 'invalid_change',
      message: 'ann: creator is immutable',
    });
  });

  it('D7/D10: a new shape is valid for its kind and names its author', () => {
    const b = board();
    const cases: [string, (d: BoardDoc) => void, string][] = [
      ['valid', (d) => addShape(d, 'a', penStroke('a', ANN, [1, 1])), 'ok'],
      ['forged creator', (d) => addShape(d, 'b', penStroke('b', 99, [1, 1])), 'invalid_change'],
      [
        'unknown kind',
        (d) => addShape(d, 'c', { ...penStroke('c', ANN, [1, 1]), kind: new A.ImmutableString('x') }),
        'invalid_change',
      ],
      [
        'missing points',
        (d) => {
          const { points: _points, ...rest } = penStroke('d', ANN, [1, 1]);
          addShape(d, 'd', rest);
        },
        'invalid_change',
      ],
      ['points null', (d) => addShape(d, 'i', { ...penStroke('i', ANN, [1, 1]), points: null }), 'invalid_change'],
      [
        'z as collaborative text',
        (d) => addShape(d, 'e', { ...penStroke('e', ANN, [1, 1]), z: 'a0' }),
        'invalid_change',
      ],
      ['unknown field', (d) => addShape(d, 'f', { ...penStroke('f', ANN, [1, 1]), evil: 1 }), 'invalid_change'],
      ['a list', (d) => addShape(d, 'g', { ...penStroke('g', ANN, [1, 1]), strokeColor: [1] }), 'invalid_change'],
      [
        'a counter',
        (d) => addShape(d, 'h', { ...penStroke('h', ANN, [1, 1]), strokeWidth: new A.Counter(1) }),
        'invalid_change',
      ],
    ];
    for (const [what, fn, expected] of cases)
      expect([what, code(b.check(b.edit(ANN, fn), b.author(ANN)))]).toEqual([what, expected]);
  });

  it('D10: records as the web writes them are accepted: a sticky with collaborative text, a legacy id, Float32 points', () => {
    const b = board();
    const sticky = b.edit(ANN, (d) =>
      addShape(d, 'st', {
        kind: new A.ImmutableString('sticky'),
        creator: ANN,
        z: new A.ImmutableString('a1'),
        x: 3,
        y: 4.5,
        w: 200,
        h: 200,
        text: 'hello', // a Text object (SPEC D3: text and latex stay collaborative)
        color: 0xffee88,
      }),
    );
    expect(code(b.commit(sticky, b.author(ANN)))).toBe('ok');
    // Bob edits the text per character and moves it
    const typing = b.edit(BOB, (d) => {
      A.splice(d, ['shapes', bucketOf('st'), 'st', 'text'], 5, 0, ', world');
      d.shapes[bucketOf('st')].st.x = 10;
    });
    expect(code(b.commit(typing, b.author(BOB)))).toBe('ok');
    const legacy = b.edit(ANN, (d) =>
      addShape(d, 'old', {
        ...penStroke('old', ANN, []),
        id: new A.ImmutableString('old'),
        points: new Uint8Array(new Float32Array([0, 0, 1, 1]).buffer),
      }),
    );
    expect(code(b.commit(legacy, b.author(ANN)))).toBe('ok');
  });

  it('D11: a shape’s text holds characters only, up to the length limit', () => {
    const b = board();
    b.commit(
      b.edit(ANN, (d) =>
        addShape(d, 'st', {
          kind: new A.ImmutableString('sticky'),
          creator: ANN,
          z: new A.ImmutableString('a1'),
          x: 0,
          y: 0,
          w: 1,
          h: 1,
          text: 'hi',
          color: 0,
        }),
      ),
      b.author(ANN),
    );
    const tooLong = b.edit(ANN, (d) => A.splice(d, ['shapes', bucketOf('st'), 'st', 'text'], 0, 0, 'x'.repeat(20_000)));
    expect(b.check(tooLong, b.author(ANN))).toMatchObject({ code: 'invalid_change' });
    const block = b.raw(ANN, (h, obj) => {
      const text = h.getWithType(obj('st'), 'text')![1] as string;
      h.splitBlock(text, 1, { type: 'p' });
    });
    expect(b.check(block, b.author(ANN))).toMatchObject({ code: 'invalid_change' });
    const mark = b.raw(ANN, (h, obj) => {
      const text = h.getWithType(obj('st'), 'text')![1] as string;
      h.mark(text, { start: 0, end: 1, expand: 'none' }, 'bold', true);
    });
    expect(b.check(mark, b.author(ANN))).toMatchObject({ code: 'invalid_change' });
  });

  it('D7: the root, the shapes map and the buckets are fixed; shapes sit in their bucket', () => {
    const b = board();
    expect(
      code(
        b.check(
          b.edit(ANN, (d) => (d.schema = 2)),
          b.author(ANN),
        ),
      ),
    ).toBe('invalid_change');
    const wrongBucket = b.edit(ANN, (d) => {
      d.shapes[bucketOf('x') === '00' ? '01' : '00'].x = penStroke('x', ANN, [1, 1]);
    });
    expect(code(b.check(wrongBucket, b.author(ANN)))).toBe('invalid_change');
    const scalar = b.raw(ANN, (h) => {
      const shapes = h.getWithType('_root', 'shapes')![1] as string;
      h.put(h.getWithType(shapes, bucketOf('y'))![1] as string, 'y', 1, 'int');
    });
    expect(code(b.check(scalar, b.author(ANN)))).toBe('invalid_change');
  });

  it('D10: every change of bench/board.ts (strokes, moves, deletes) passes, checked as its author', () => {
    const { changes } = generateBoard({ strokes: 300, actors: 3, moveShare: 0.2, deleteShare: 0.1, syncEvery: 10 });
    const b = board();
    for (const { bytes } of changes.slice(1)) {
      const change = decodeChange(bytes);
      const userId = parseInt(change.actor.slice(-1), 16); // actors are "aa…a<n>" for user n
      const verdict = checkChange(b.doc, b.layout, change, {
        userId,
        canEdit: true,
        isOwner: false,
        deleteOwnOnly: true,
      });
      expect(verdict).toEqual({ ok: true });
      b.doc.applyChanges([bytes]);
    }
  });

  it('D10: checking a change to an existing shape reads that shape only (cost flat in board size)', () => {
    const small = board();
    const big = board();
    const { changes } = generateBoard({ strokes: 3000, actors: 2 });
    big.doc.applyChanges(changes.slice(1).map((c) => c.bytes));
    const time = (b: ReturnType<typeof board>, id: string): number => {
      b.commit(
        b.edit(ANN, (d) => addShape(d, id, penStroke(id, ANN, [1, 1, 2, 2]))),
        b.author(ANN),
      );
      const move = decodeChange(b.edit(ANN, (d) => (d.shapes[bucketOf(id)][id].x = 5)));
      for (let i = 0; i < 50; i++) checkChange(b.doc, b.layout, move, b.author(ANN));
      const t = performance.now();
      for (let i = 0; i < 200; i++) checkChange(b.doc, b.layout, move, b.author(ANN));
      return (performance.now() - t) / 200;
    };
    const tSmall = time(small, 'm');
    const tBig = time(big, 'm');
    expect(tBig).toBeLessThan(Math.max(1, tSmall * 5));
  });
});
