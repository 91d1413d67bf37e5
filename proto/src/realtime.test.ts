import {
  boardInfoSchema,
  BUCKET_NAMES,
  decodeJson,
  encodeJsonFrame,
  RT_ERROR_CODES,
  welcomeSchema,
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
  pointsGridExp,
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

  it('D3: points round-trip on their grid, without drift, at ~1 byte per coordinate of a hand-drawn step', () => {
    const pts: number[] = [];
    let x = 0;
    let y = 0;
    for (let i = 0; i < 500; i++) pts.push((x += 2 + Math.sin(i) * 1.37), (y += Math.cos(i / 3) * 3.11));
    for (const e of [0, 2, 5, 12]) {
      const back = unpackPoints(packPoints(pts, e));
      expect(back).toHaveLength(pts.length);
      // rounding the positions (not the steps) keeps every point within half a grid step
      const worst = Math.max(...pts.map((v, i) => Math.abs(back[i]! - v)));
      expect(worst).toBeLessThanOrEqual(2 ** -(e + 1) + Math.abs(x) * 2 ** -23);
    }
    const bytes = packPoints(pts, 2);
    expect(bytes.length).toBeLessThan(pts.length * 1.1 + 4);
    expect(bytes.length % 8).not.toBe(0);
    expect([...unpackPoints(packPoints([0, 0, -1.25, 2.5, 1e6, -3], 2))]).toEqual([0, 0, -1.25, 2.5, 1e6, -3]);
    expect(unpackPoints(packPoints([], 2))).toHaveLength(0);
  });

  it('D3: the compact form is never a multiple of 8 bytes long (a pad byte is added)', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = packPoints(
        Array.from({ length: n * 2 }, (_, i) => i * 50),
        2,
      );
      expect(bytes.length % 8).not.toBe(0);
      expect(unpackPoints(bytes)).toHaveLength(n * 2);
    }
  });

  it('D3: Float32 pairs written before the compact form still read', () => {
    const pts = [0, 0, 1.5, -2.25, 1e6, 3.125, 7, 8];
    expect([...unpackPoints(new Uint8Array(new Float32Array(pts).buffer))]).toEqual(pts);
  });

  it('D3: bad points input is refused with a RangeError', () => {
    expect(() => packPoints([1, 2, 3])).toThrow(RangeError);
    expect(() => packPoints([NaN, 0])).toThrow(RangeError);
    expect(() => packPoints([Infinity, 0])).toThrow(RangeError);
    expect(() => packPoints([1e15, 0])).toThrow(RangeError);
    expect(() => packPoints([0, 0], 13)).toThrow(RangeError);
    expect(() => packPoints([0, 0], 1.5)).toThrow(RangeError);
    const good = packPoints([0, 0, 10, 10, 20, 20], 2);
    expect(() => unpackPoints(good.subarray(0, 4))).toThrow(RangeError); // truncated
    expect(() => unpackPoints(Uint8Array.of(99, 1, 0))).toThrow(RangeError); // bad header
    expect(() => unpackPoints(Uint8Array.of(2, 0xff, 0xff, 0xff, 0x7f, 0))).toThrow(RangeError); // count lies
    expect(() => unpackPoints(Uint8Array.of(2, 1, ...Array(9).fill(0xff), 1, 0))).toThrow(RangeError); // endless varint
    expect(() => unpackPoints(Uint8Array.of(2, 1, 0, 0, 5, 5, 5))).toThrow(RangeError); // trailing bytes
  });

  it('D3: the grid is a quarter of a screen pixel at the zoom the stroke was drawn', () => {
    expect(pointsGridExp(1)).toBe(2);
    expect(pointsGridExp(20)).toBe(7);
    expect(pointsGridExp(0.05)).toBe(0);
    expect(pointsGridExp(1e9)).toBe(12);
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

describe('board info (B1) and change limits (L4)', () => {
  it('BOARD_INFO round-trips; WELCOME carries the title and background', () => {
    expect(new Set(Object.values(MSG)).size).toBe(Object.values(MSG).length);
    const info = { title: 'Algebra 7b', background: 'graphGrid', deleteOwnOnly: true };
    const { type, payload } = splitFrame(encodeJsonFrame(MSG.BOARD_INFO, info));
    expect(type).toBe(19);
    expect(decodeJson(payload, boardInfoSchema)).toEqual(info);
    expect(() =>
      decodeJson(
        splitFrame(encodeJsonFrame(MSG.BOARD_INFO, { ...info, background: 'wallpaper' })).payload,
        boardInfoSchema,
      ),
    ).toThrow(FrameError);
    const welcome = {
      protocol: 1,
      peerId: 1,
      boardId: 'b',
      title: 'Algebra 7b',
      background: 'dotGrid',
      access: 'edit',
      role: 'editor',
      readOnlyReason: null,
      deleteOwnOnly: false,
      ownerId: 3,
      presence: [],
    };
    expect(welcomeSchema.parse(welcome)).toEqual(welcome);
    const { title: _t, ...untitled } = welcome;
    expect(welcomeSchema.safeParse(untitled).success).toBe(false);
  });

  it('a change over the operation limits has its own error code', () => {
    expect(RT_ERROR_CODES).toContain('change_too_big');
    expect(RT_LIMITS.maxChangeOverwrites).toBeLessThan(RT_LIMITS.maxChangeOps);
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
