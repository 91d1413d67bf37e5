import {
  BUCKET_NAMES,
  decodeCursor,
  decodeSelection,
  decodeStrokeDelta,
  decodeViewport,
  encodeCursor,
  encodeSelection,
  encodeStrokeDelta,
  encodeViewport,
  RT_LIMITS,
  STROKE_DELTA_MAX_POINTS,
  STROKE_FLAG,
  bucketOf,
  decodeEphemeralBatch,
  decodeList,
  encodeEphemeralBatch,
  encodeListFrame,
  FrameError,
  MSG,
  packPoints,
  parseLease,
  realtimeKeys,
  rendezvousOwner,
  splitFrame,
  unpackPoints,
} from './realtime';

describe('realtime document model', () => {
  it('D2: bucketOf is stable, two hex digits, and spreads ids over the 256 buckets', () => {
    expect(BUCKET_NAMES).toHaveLength(256);
    expect(bucketOf('abc')).toBe(bucketOf('abc'));
    const counts = new Map<string, number>();
    for (let i = 0; i < 25_600; i++) {
      const b = bucketOf(`shape-${i}`);
      expect(b).toMatch(/^[0-9a-f]{2}$/);
      counts.set(b, (counts.get(b) ?? 0) + 1);
    }
    expect(counts.size).toBe(256);
    expect(Math.max(...counts.values())).toBeLessThan(200); // ~100 each
  });

  it('D3: stroke points round-trip through packed little-endian Float32 bytes', () => {
    const pts = [0, 0, 1.5, -2.25, 1e6, 3.125];
    const bytes = packPoints(pts);
    expect(bytes).toHaveLength(pts.length * 4);
    expect(new DataView(bytes.buffer).getFloat32(8, true)).toBe(1.5);
    expect([...unpackPoints(bytes)]).toEqual(pts);
    expect(() => unpackPoints(new Uint8Array(3))).toThrow(RangeError);
  });
});

describe('realtime framing', () => {
  it('lists round-trip and truncated lists are malformed (L5)', () => {
    const items = [Uint8Array.of(1, 2, 3), new Uint8Array(0), Uint8Array.of(9)];
    const frame = encodeListFrame(MSG.CHANGES, items);
    const { type, payload } = splitFrame(frame);
    expect(type).toBe(MSG.CHANGES);
    expect(decodeList(payload).map((b) => [...b])).toEqual([[1, 2, 3], [], [9]]);
    expect(() => decodeList(payload.subarray(0, payload.length - 1))).toThrow(FrameError);
    expect(() => decodeList(Uint8Array.of(0, 0, 0, 0, 7))).toThrow(FrameError);
  });

  it('E3: ephemeral batches round-trip', () => {
    const items = [
      { peerId: 1, kind: 1, data: Uint8Array.of(5) },
      { peerId: 70000, kind: 2, data: Uint8Array.of(6, 7) },
    ];
    const { payload } = splitFrame(encodeEphemeralBatch(items));
    expect(decodeEphemeralBatch(payload).map((i) => ({ ...i, data: [...i.data] }))).toEqual(
      items.map((i) => ({ ...i, data: [...i.data] })),
    );
  });
});

describe('realtime sharding helpers', () => {
  it('R2: rendezvous is deterministic, ignores list order and moves few boards when a node joins', () => {
    const two = ['rt-1', 'rt-2'];
    const three = ['rt-3', 'rt-1', 'rt-2'];
    let moved = 0;
    for (let i = 0; i < 300; i++) {
      const id = `board-${i}`;
      expect(rendezvousOwner(id, two)).toBe(rendezvousOwner(id, [...two].reverse()));
      const before = rendezvousOwner(id, two);
      const after = rendezvousOwner(id, three);
      if (after !== before) {
        expect(after).toBe('rt-3'); // only boards moving to the new node change owner
        moved++;
      }
    }
    expect(moved).toBeGreaterThan(50);
    expect(moved).toBeLessThan(150);
    expect(rendezvousOwner('x', [])).toBeUndefined();
  });

  it('R4: lease values and keys', () => {
    expect(parseLease('rt-1 42')).toEqual({ nodeId: 'rt-1', token: 42 });
    expect(parseLease('garbage')).toBeNull();
    expect(parseLease(null)).toBeNull();
    expect(realtimeKeys('wb:').lease('a/b')).toBe('wb:rt:lease:a/b');
    expect(realtimeKeys('wb:').nodes).toBe('wb:rt:nodes');
  });
});

describe('ephemeral payloads (E1–E3)', () => {
  it('cursor and viewport round-trip as fixed-size Float32', () => {
    const c = encodeCursor({ x: 12.5, y: -3.25 });
    expect(c).toHaveLength(8);
    expect(decodeCursor(c)).toEqual({ x: 12.5, y: -3.25 });
    const v = encodeViewport({ x: -100, y: 50, width: 1280.5, height: 720 });
    expect(v).toHaveLength(16);
    expect(decodeViewport(v)).toEqual({ x: -100, y: 50, width: 1280.5, height: 720 });
    expect(() => decodeCursor(new Uint8Array(7))).toThrow(FrameError);
    expect(() => decodeViewport(new Uint8Array(15))).toThrow(FrameError);
  });

  it('stroke deltas round-trip (id, flags, colour, width, first index, points)', () => {
    const bytes = encodeStrokeDelta({
      id: 'sh_Ab-9',
      flags: STROKE_FLAG.START,
      color: 0x12abef,
      width: 3,
      first: 0,
      points: [1, 2, 3.5, 4.5],
    });
    const d = decodeStrokeDelta(bytes);
    expect(d).toMatchObject({ id: 'sh_Ab-9', flags: 1, color: 0x12abef, width: 3, first: 0 });
    expect([...d.points]).toEqual([1, 2, 3.5, 4.5]);
    const end = decodeStrokeDelta(
      encodeStrokeDelta({ id: 'x', flags: STROKE_FLAG.END, color: 0, width: 1, first: 7, points: [] }),
    );
    expect(end).toMatchObject({ flags: 2, first: 7 });
    expect(end.points).toHaveLength(0);
    expect(() => decodeStrokeDelta(bytes.subarray(0, bytes.length - 3))).toThrow(FrameError);
  });

  it('the largest stroke delta fits the ephemeral limit (L1)', () => {
    const points = Array.from({ length: STROKE_DELTA_MAX_POINTS * 2 }, (_, i) => i);
    const bytes = encodeStrokeDelta({ id: 'x'.repeat(64), flags: 0, color: 0, width: 1, first: 0, points });
    expect(bytes.length + 1).toBeLessThanOrEqual(RT_LIMITS.maxEphemeralBytes);
    expect(() =>
      encodeStrokeDelta({ id: 'x', flags: 0, color: 0, width: 1, first: 0, points: [...points, 1, 2] }),
    ).toThrow(RangeError);
  });

  it('selections round-trip, empty included, and reject truncation', () => {
    expect(decodeSelection(encodeSelection([]))).toEqual([]);
    const ids = ['a', 'bb/ü', 'x'.repeat(40)];
    const bytes = encodeSelection(ids);
    expect(decodeSelection(bytes)).toEqual(ids);
    expect(() => decodeSelection(bytes.subarray(0, bytes.length - 1))).toThrow(FrameError);
  });
});
