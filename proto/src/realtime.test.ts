import {
  BUCKET_NAMES,
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
