/// <reference types="jest" />
/** Clipboard: serialise → parse round trip, validation, id/group/binding remapping, paste paths. */
import { packPoints } from '@wb/proto';
import type { ConnectorShape, GeometricShape, PenShape, ShapeRecord, TextShape } from '@wb/proto';
import type { BoardDoc } from '../../realtime/boardDoc';
import type { ToolStyle } from '../tools/types';
import { BoardClipboard, parseClipboard, placePasted, serialise, type ClipboardHost } from './clipboard';

const rect = (id: string, x: number, extra: Partial<GeometricShape> = {}): GeometricShape => ({
  id,
  kind: 'shape',
  shapeType: 'rectangle',
  creator: 3,
  z: 'a0',
  x,
  y: 0,
  w: 100,
  h: 50,
  text: 'a <b> & "c"',
  ...extra,
});
const pen: PenShape = { id: 'p', kind: 'pen', creator: 3, z: 'a1', x: 5, y: 5, points: packPoints([0, 0, 10, 3.25]) };
const conn: ConnectorShape = {
  id: 'k',
  kind: 'connector',
  creator: 3,
  z: 'a2',
  x: 100,
  y: 25,
  points: packPoints([0, 0, 200, 0]),
  fromId: 'r1',
  toId: 'elsewhere',
  fromAnchor: 'auto',
  toAnchor: 'auto',
};

const style: ToolStyle = {
  strokeColor: 0,
  strokeWidth: 3,
  linePattern: 'pen',
  fillColor: null,
  fill: 'none',
  textColor: 0x112233,
  textSize: 20,
  textFont: 'Open Sans',
  stickyColor: 0xffee00,
  fixedWidth: false,
  elbow: false,
  arrowStart: false,
  arrowEnd: true,
  formulaColor: 0,
  formulaSize: 20,
  formulaAlignment: 'equation',
};

describe('clipboard', () => {
  const shapes: ShapeRecord[] = [rect('r1', 0, { groupId: 'g' }), rect('r2', 150, { groupId: 'g' }), pen, conn];

  it('round-trips shapes (bytes as base64) through text/plain and text/html', () => {
    const data = serialise(shapes);
    expect(JSON.parse(data.text)).toMatchObject({ wb: 'shapes', v: 1 });
    expect(JSON.parse(data.text).shapes[2].points).toEqual({ $b64: expect.any(String) });
    for (const text of [data.text, data.html]) {
      const back = parseClipboard(text)!;
      expect(back).toHaveLength(4);
      expect(back[0]).toEqual(shapes[0]);
      expect(Array.from((back[2] as PenShape).points)).toEqual(Array.from(pen.points));
    }
    // other apps see the shapes' text in the html
    expect(data.html).toContain('<p>a &lt;b&gt; &amp; &quot;c&quot;</p>');
  });

  it('drops invalid records and ignores text that is not ours', () => {
    const bad = JSON.stringify({
      wb: 'shapes',
      v: 1,
      shapes: [{ ...rect('x', 0), w: -1 }, { ...rect('y', 0), evil: 1 }, rect('ok', 0)],
    });
    expect(parseClipboard(bad)!.map((s) => s.id)).toEqual(['ok']);
    expect(parseClipboard('hello')).toBeNull();
    expect(parseClipboard('{"wb":"other"}')).toBeNull();
    expect(parseClipboard('{ not json')).toBeNull();
  });

  it('placePasted: new ids on top, groups and bindings among the pasted remapped, others dropped', () => {
    let n = 0;
    const placed = placePasted(shapes, null, () => `n${++n}`, 'a5', 9);
    expect(placed.map((s) => s.id)).toEqual(['n1', 'n2', 'n3', 'n4']);
    expect(placed.every((s) => s.z > 'a5' && s.creator === 9)).toBe(true);
    expect(placed[0]).toMatchObject({ x: 20, y: 20, groupId: 'n5' });
    expect(placed[1]!.groupId).toBe('n5');
    expect(placed[3]).toMatchObject({ fromId: 'n1', toId: null });
    // placed at a point: the centre of the pasted boxes goes there
    const at = placePasted([rect('r1', 0)], { x: 1000, y: 1000 }, () => 'z', null);
    expect(at[0]).toMatchObject({ x: 950, y: 975 });
  });

  /** stored values as plain ones (ImmutableStrings → strings) */
  const plain = (v: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        x && typeof x === 'object' && 'val' in x ? (x as { val: unknown }).val : x,
      ]),
    ) as unknown as ShapeRecord;

  function fakeHost(existing: Set<string>) {
    const written: ShapeRecord[] = [];
    let selection: string[] = [];
    const images: Blob[] = [];
    let n = 0;
    let deleted = 0;
    const host: ClipboardHost = {
      userId: 4,
      canEdit: () => true,
      copySelection: () => shapes,
      deleteSelection: () => void deleted++,
      has: (id) => existing.has(id),
      pointer: () => ({ x: 500, y: 500 }),
      viewCentre: () => ({ x: 0, y: 0 }),
      style: () => style,
      newId: () => `id${++n}`,
      topZ: () => 'a9',
      commit: (fn) => {
        const d = {
          shapes: new Proxy(
            {},
            {
              get: () =>
                new Proxy({}, { set: (_t, _k, v) => (written.push(plain(v as Record<string, unknown>)), true) }),
            },
          ),
        };
        fn(d as unknown as BoardDoc);
        return true;
      },
      setSelection: (ids) => void (selection = [...ids]),
      onImage: (b) => void images.push(b),
    };
    return {
      host,
      written,
      images,
      get selection() {
        return selection;
      },
      get deleted() {
        return deleted;
      },
    };
  }

  function clipboardData(data: Record<string, string>, files: File[] = []) {
    const store = { ...data };
    return {
      getData: (t: string) => store[t] ?? '',
      setData: (t: string, v: string) => void (store[t] = v),
      files,
      store,
    };
  }

  it('copy/cut events put both types; paste of our shapes offsets them on this board', () => {
    const f = fakeHost(new Set(['r1']));
    const cb = new BoardClipboard(f.host);
    const dt = clipboardData({});
    const copy = { clipboardData: dt, target: null, preventDefault: jest.fn() } as unknown as ClipboardEvent;
    expect(cb.onCopy(copy, true)).toBe(true);
    expect(dt.store['text/plain']).toContain('"wb":"shapes"');
    expect(dt.store['text/html']).toContain('data-wb-shapes');
    expect(f.deleted).toBe(1);
    const paste = { clipboardData: dt, target: null, preventDefault: jest.fn() } as unknown as ClipboardEvent;
    expect(cb.onPaste(paste)).toBe(true);
    expect(f.written).toHaveLength(4);
    expect(f.selection).toEqual(['id1', 'id2', 'id3', 'id4']);
    expect(f.written[0]).toMatchObject({ x: 20, y: 20 });
  });

  it('pastes shapes from another board at the pointer, text as a text shape, images to onImage', () => {
    const f = fakeHost(new Set());
    const cb = new BoardClipboard(f.host);
    expect(cb.pasteData({ text: serialise([rect('r1', 0)]).text, images: [] })).toBe(true);
    expect(f.written[0]).toMatchObject({ x: 450, y: 475 });

    const g = fakeHost(new Set());
    expect(new BoardClipboard(g.host).pasteData({ text: 'two\nlines', images: [] })).toBe(true);
    const t = g.written[0] as unknown as TextShape;
    expect(t).toMatchObject({ kind: 'text', font: 'Open Sans', fontSize: 20, color: 0x112233, creator: 4 });
    expect(g.selection).toEqual(['id1']);

    const h = fakeHost(new Set());
    const png = new Blob(['x'], { type: 'image/png' });
    expect(new BoardClipboard(h.host).pasteData({ images: [png] })).toBe(true);
    expect(h.images).toEqual([png]);
    expect(h.written).toHaveLength(0);
  });
});
