/// <reference types="jest" />
import { decodeCursor, decodeStrokeDelta, EPHEMERAL_KIND, RT_CLIENT_EPHEMERAL_MS, STROKE_FLAG } from '@wb/proto';
import { decodeLaser, encodeLaser, EphemeralOutbox, LASER_KEEP_MS, RemoteEphemeral } from './ephemeral';
import { decodeInstruments, encodeInstruments, INSTRUMENT_STALE_MS, type InstrumentPayload } from './ephemeral';
import { FakeTimers } from './testing/fakeTimers';

function outbox() {
  const timers = new FakeTimers();
  const sent: { kind: number; bytes: Uint8Array; at: number }[] = [];
  const box = new EphemeralOutbox((kind, bytes) => sent.push({ kind, bytes, at: timers.now() }), timers);
  return { box, timers, sent };
}

describe('EphemeralOutbox: at most ~30 Hz (E3)', () => {
  it('sends the first cursor at once, then only the latest per interval', () => {
    const { box, timers, sent } = outbox();
    box.setCursor({ x: 0, y: 0 });
    expect(sent).toHaveLength(1);
    for (let i = 1; i <= 10; i++) {
      timers.advance(2);
      box.setCursor({ x: i, y: i });
    }
    expect(sent).toHaveLength(1);
    timers.advance(RT_CLIENT_EPHEMERAL_MS);
    expect(sent).toHaveLength(2);
    expect(decodeCursor(sent[1]!.bytes)).toEqual({ x: 10, y: 10 });
    expect(sent[1]!.at - sent[0]!.at).toBe(RT_CLIENT_EPHEMERAL_MS);
  });

  it('never exceeds one flush per interval over a long burst', () => {
    const { box, timers, sent } = outbox();
    for (let t = 0; t < 1000; t += 4) {
      box.setCursor({ x: t, y: 0 });
      timers.advance(4);
    }
    timers.advance(100);
    const gaps = sent.slice(1).map((s, i) => s.at - sent[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(RT_CLIENT_EPHEMERAL_MS);
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(1000 / RT_CLIENT_EPHEMERAL_MS) + 1);
  });

  it('accumulates stroke points into deltas: start, middle, end, nothing lost', () => {
    const { box, timers, sent } = outbox();
    box.strokeStart('s', 0x00ff00, 3, 0, 0);
    for (let i = 1; i < 20; i++) {
      timers.advance(5);
      box.strokePoint(i, -i);
    }
    box.strokeEnd();
    timers.advance(100);
    const deltas = sent.filter((s) => s.kind === EPHEMERAL_KIND.STROKE).map((s) => decodeStrokeDelta(s.bytes));
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(deltas.length).toBeLessThanOrEqual(5); // 100 ms of drawing at ≤ 30 Hz
    expect(deltas[0]!.flags & STROKE_FLAG.START).toBeTruthy();
    expect(deltas.at(-1)!.flags & STROKE_FLAG.END).toBeTruthy();
    expect(deltas.slice(1).every((d) => !(d.flags & STROKE_FLAG.START))).toBe(true);
    const remote = new RemoteEphemeral();
    for (const [i, s] of sent.entries()) remote.apply({ peerId: 3, kind: s.kind, data: s.bytes }, i);
    const stroke = remote.strokes.get('s')!;
    expect(stroke.points).toEqual(Array.from({ length: 20 }, (_, i) => [i, i === 0 ? 0 : -i]).flat());
    expect(stroke).toMatchObject({ ended: true, color: 0x00ff00, width: 3, peerId: 3 });
    // the deltas' first indexes line up
    let next = 0;
    for (const d of deltas) {
      expect(d.first).toBe(next);
      next += d.points.length / 2;
    }
  });

  it('reset drops what is queued', () => {
    const { box, timers, sent } = outbox();
    box.setCursor({ x: 1, y: 1 });
    box.setCursor({ x: 2, y: 2 });
    box.reset();
    timers.advance(100);
    expect(sent).toHaveLength(1);
  });
});

describe('RemoteEphemeral', () => {
  it('ignores unreadable items and prunes peers that left and stale previews', () => {
    const remote = new RemoteEphemeral();
    expect(remote.apply({ peerId: 1, kind: EPHEMERAL_KIND.CURSOR, data: new Uint8Array(3) }, 0)).toBe(false);
    expect(remote.apply({ peerId: 1, kind: 99, data: new Uint8Array(8) }, 0)).toBe(false);
    const { box, sent, timers } = outbox();
    box.setCursor({ x: 1, y: 2 });
    box.strokeStart('s', 0, 1, 0, 0);
    timers.advance(100);
    remote.apply({ peerId: 1, kind: sent[0]!.kind, data: sent[0]!.bytes }, 0);
    for (const s of sent.slice(1)) remote.apply({ peerId: 2, kind: s.kind, data: s.bytes }, 0);
    expect(remote.cursors.size).toBe(1);
    expect(remote.strokes.size).toBe(1);
    remote.prune(new Set([1, 2]), 10_000);
    expect(remote.strokes.size).toBe(0); // nobody finished it within 5 s
    remote.prune(new Set([2]), 10_000);
    expect(remote.cursors.size).toBe(0);
  });
});

describe('laser pointer (kind 5)', () => {
  it('the outbox sends it ≤ 30 Hz, latest wins, 8 bytes; null says "off"', () => {
    const { box, timers, sent } = outbox();
    box.setLaser({ x: 1, y: 2 });
    for (let i = 0; i < 5; i++) {
      timers.advance(3);
      box.setLaser({ x: 10 + i, y: 20 });
    }
    timers.advance(RT_CLIENT_EPHEMERAL_MS);
    box.setLaser(null);
    timers.advance(RT_CLIENT_EPHEMERAL_MS);
    const lasers = sent.filter((s) => s.kind === EPHEMERAL_KIND.LASER);
    expect(lasers.every((s) => s.bytes.length === 8)).toBe(true);
    expect(lasers.map((s) => decodeLaser(s.bytes))).toEqual([{ x: 1, y: 2 }, { x: 14, y: 20 }, null]);
    expect(decodeCursor(encodeLaser({ x: 3, y: 4 }))).toEqual({ x: 3, y: 4 });
    box.setLaser({ x: 0, y: 0 });
    box.reset();
    timers.advance(100);
    expect(sent.filter((s) => s.kind === EPHEMERAL_KIND.LASER)).toHaveLength(3);
  });

  it('RemoteEphemeral keeps recent points per peer, marks where a trail ended, prunes old ones', () => {
    const remote = new RemoteEphemeral();
    const item = (peerId: number, p: { x: number; y: number } | null) => ({
      peerId,
      kind: EPHEMERAL_KIND.LASER,
      data: encodeLaser(p),
    });
    expect(remote.apply(item(4, { x: 1, y: 1 }), 0)).toBe(true);
    remote.apply(item(4, { x: 2, y: 1 }), 30);
    remote.apply(item(4, null), 60);
    remote.apply(item(4, { x: 9, y: 9 }), 90);
    remote.apply(item(5, { x: 0, y: 0 }), 90);
    expect(remote.lasers.get(4)).toEqual([
      { x: 1, y: 1, t: 0 },
      { x: 2, y: 1, t: 30, end: true },
      { x: 9, y: 9, t: 90 },
    ]);
    expect(remote.apply({ peerId: 4, kind: EPHEMERAL_KIND.LASER, data: new Uint8Array(4) }, 90)).toBe(false);
    // later points push out the ones older than LASER_KEEP_MS
    remote.apply(item(4, { x: 10, y: 9 }), 90 + LASER_KEEP_MS);
    expect(remote.lasers.get(4)!.map((p) => p.x)).toEqual([9, 10]);
    remote.prune(new Set([4, 5]), 91 + LASER_KEEP_MS);
    expect([...remote.lasers.keys()]).toEqual([4]); // 5's points are all old
    expect(remote.lasers.get(4)!.map((p) => p.x)).toEqual([10]);
    remote.prune(new Set(), 90 + LASER_KEEP_MS);
    expect(remote.lasers.size).toBe(0);
  });
});

describe('instrument ephemerals (kind 6)', () => {
  const ruler: InstrumentPayload = { type: 'ruler', x: 10.5, y: -20, angle: 0.5, size: 320, extra: 0 };
  const protractor: InstrumentPayload = { type: 'protractor', x: 0, y: 0, angle: -1.25, size: 160, extra: NaN };
  const compass: InstrumentPayload = { type: 'compass', x: 1e6, y: 3, angle: 3, size: 64, extra: -2.5 };

  it('round-trips all of a person’s instruments in one compact payload; empty means none', () => {
    const bytes = encodeInstruments([ruler, protractor, compass]);
    expect(bytes.length).toBe(1 + 3 * 21);
    const back = decodeInstruments(bytes);
    expect(back.map((i) => i.type)).toEqual(['ruler', 'protractor', 'compass']);
    // f32 on the wire: within float precision of what went out
    back.forEach((b, i) => {
      const sent = [ruler, protractor, compass][i]!;
      for (const k of ['x', 'y', 'angle', 'size'] as const) expect(b[k]).toBeCloseTo(sent[k], 4);
    });
    expect(back[0]!.extra).toBe(0);
    expect(back[1]!.extra).toBeNaN();
    expect(back[2]!.extra).toBeCloseTo(-2.5, 6);
    expect(decodeInstruments(encodeInstruments([]))).toEqual([]);
  });

  it('refuses malformed payloads with a RangeError', () => {
    const good = encodeInstruments([ruler]);
    expect(() => decodeInstruments(new Uint8Array())).toThrow(RangeError);
    expect(() => decodeInstruments(good.slice(0, -1))).toThrow(RangeError);
    expect(() => decodeInstruments(Uint8Array.of(4, ...new Uint8Array(84)))).toThrow(RangeError);
    const badType = good.slice();
    badType[1] = 9;
    expect(() => decodeInstruments(badType)).toThrow(RangeError);
    expect(() => decodeInstruments(encodeInstruments([{ ...ruler, x: Infinity }]))).toThrow(RangeError);
    expect(() => decodeInstruments(encodeInstruments([{ ...ruler, size: -1 }]))).toThrow(RangeError);
    expect(() => encodeInstruments([ruler, ruler, ruler, ruler])).toThrow(RangeError);
  });

  it('the outbox sends the latest set per flush; RemoteEphemeral keeps it per peer until empty, gone or stale', () => {
    const { box, timers, sent } = outbox();
    box.setInstruments([ruler]);
    box.setInstruments([ruler, compass]);
    timers.advance(RT_CLIENT_EPHEMERAL_MS);
    box.setInstruments([]);
    timers.advance(RT_CLIENT_EPHEMERAL_MS);
    const frames = sent.filter((s) => s.kind === EPHEMERAL_KIND.INSTRUMENT).map((s) => decodeInstruments(s.bytes));
    expect(frames.map((f) => f.map((i) => i.type))).toEqual([['ruler'], ['ruler', 'compass'], []]);

    const remote = new RemoteEphemeral();
    const item = (peerId: number, items: InstrumentPayload[]) => ({
      peerId,
      kind: EPHEMERAL_KIND.INSTRUMENT,
      data: encodeInstruments(items),
    });
    expect(remote.apply(item(4, [ruler, protractor]), 100)).toBe(true);
    remote.apply(item(5, [compass]), 100);
    expect(remote.instruments.get(4)).toMatchObject({ at: 100, items: [{ type: 'ruler' }, { type: 'protractor' }] });
    expect(remote.apply({ peerId: 4, kind: EPHEMERAL_KIND.INSTRUMENT, data: Uint8Array.of(1) }, 110)).toBe(false);
    remote.apply(item(5, []), 120);
    expect(remote.instruments.has(5)).toBe(false);
    remote.prune(new Set([4]), 100 + INSTRUMENT_STALE_MS);
    expect(remote.instruments.has(4)).toBe(true);
    remote.prune(new Set([4]), 101 + INSTRUMENT_STALE_MS);
    expect(remote.instruments.has(4)).toBe(false);
    remote.apply(item(6, [ruler]), 0);
    remote.prune(new Set(), 1);
    expect(remote.instruments.size).toBe(0);
  });
});
