import { FrameError } from './realtime';
import { decodeRenderSnapshot, encodeRenderSnapshot } from './renderSnapshot';

describe('render snapshot codec (S9)', () => {
  it('round-trips records; byte fields travel as bytes, not JSON numbers', () => {
    const points = new Uint8Array(400).map((_, i) => (i * 37) % 256);
    const records = [
      { id: 'a', kind: 'pen', x: 1.5, y: -2, z: 'a0', points, pressures: new Uint8Array([7]) },
      { id: 'b', kind: 'text', text: 'ünïcode ✓', x: 0, y: 0, z: 'a1', nested: { fn: ['x^2'] } },
    ];
    const bytes = encodeRenderSnapshot(records);
    expect(bytes.length).toBeLessThan(JSON.stringify(records).length);
    const back = decodeRenderSnapshot(bytes);
    expect(back).toEqual(records);
    expect(back[0]!.points).toBeInstanceOf(Uint8Array);
  });

  it('an empty board is an empty list', () => {
    expect(decodeRenderSnapshot(encodeRenderSnapshot([]))).toEqual([]);
  });

  const withJson = (json: string, tail: number[] = []) => {
    const body = new TextEncoder().encode(json);
    const out = new Uint8Array(4 + body.length + tail.length);
    new DataView(out.buffer).setUint32(0, body.length);
    out.set(body, 4);
    out.set(tail, 4 + body.length);
    return out;
  };

  it.each([
    ['too short', new Uint8Array([0, 0])],
    ['a JSON length past the end', new Uint8Array([0, 0, 0, 9, 1])],
    ['malformed JSON', withJson('[{')],
    ['not a list', withJson('{"id":"a"}')],
    ['a record without an id', withJson('[{"kind":"pen"}]')],
    ['a byte field out of range', withJson('[{"id":"a","points":{"$b":[0,4]}}]', [1, 2])],
    ['a negative byte offset', withJson('[{"id":"a","points":{"$b":[-1,1]}}]', [1, 2])],
    ['a fractional byte length', withJson('[{"id":"a","points":{"$b":[0,1.5]}}]', [1, 2])],
  ])('refuses %s with a FrameError', (_what, payload) => {
    expect(() => decodeRenderSnapshot(payload)).toThrow(FrameError);
  });
});
