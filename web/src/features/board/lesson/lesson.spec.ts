import { encodeJsonFrame, MSG, splitFrame } from '@wb/proto';
import type { LessonState } from '@wb/proto';
import { Follower } from './follow';
import { formatTimer, LessonModel } from './lessonModel';

function fakeClient() {
  const listeners = new Set<(f: { type: number; payload: Uint8Array }) => void>();
  const sent: Uint8Array[] = [];
  return {
    readOnly: false,
    sent,
    onFrame: (fn: (f: { type: number; payload: Uint8Array }) => void) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    sendFrame: (f: Uint8Array) => (sent.push(f), true),
    setLessonReadOnly(on: boolean) {
      this.readOnly = on;
    },
    getSnapshot: () => ({ welcome: { peerId: 7 } }) as never,
    push(state: LessonState) {
      const { type, payload } = splitFrame(encodeJsonFrame(MSG.LESSON_STATE, state));
      for (const fn of listeners) fn({ type, payload });
    },
  };
}

describe('LessonModel', () => {
  it('counts down on the node’s clock whatever the local clock says (skew-corrected)', () => {
    const client = fakeClient();
    let local = 5_000_000; // the local clock is far from the node's
    const model = new LessonModel(client, () => local);
    model.start();
    const serverNow = 1_000_000;
    client.push({
      timer: { state: 'running', endsAt: serverNow + 90_000, remainingMs: 90_000, durationMs: 90_000 },
      presenter: null,
      paid: true,
      serverNow,
    });
    expect(model.remaining()).toBe(90_000);
    local += 30_000;
    expect(model.remaining()).toBe(60_000);
    expect(formatTimer(model.remaining())).toBe('01:00');
    local += 120_000;
    expect(model.remaining()).toBe(0);
  });

  it('is read-only while someone else presents, not while I present', () => {
    const client = fakeClient();
    const model = new LessonModel(client, () => 0);
    model.start();
    const base = { timer: { state: 'idle' as const, remainingMs: 0, durationMs: 0 }, paid: true, serverNow: 0 };
    client.push({ ...base, presenter: { userId: 2, peerId: 3, name: 'Ann', viewport: null } });
    expect(client.readOnly).toBe(true);
    client.push({ ...base, presenter: { userId: 1, peerId: 7, name: 'Me', viewport: null } });
    expect(client.readOnly).toBe(false);
    expect(model.presenting()).toBe(true);
  });
});

describe('Follower', () => {
  function fakeEditor() {
    const fns = new Set<() => void>();
    const state = { camera: { x: 0, y: 0, zoom: 1 }, screen: { width: 800, height: 600 } };
    return {
      state,
      getState: () => state,
      setCamera(c: { x: number; y: number; zoom: number }) {
        state.camera = c;
        for (const fn of fns) fn();
      },
      subscribe: (fn: () => void) => (fns.add(fn), () => fns.delete(fn)),
    };
  }
  const frames: (() => void)[] = [];
  const timers = { requestFrame: (fn: () => void) => frames.push(fn), cancelFrame: () => undefined };
  const run = () => {
    for (let i = 0; i < 100 && frames.length; i++) frames.shift()!();
  };

  it('animates toward the followed rectangle, fitted to my screen', () => {
    const editor = fakeEditor();
    const f = new Follower(editor, () => undefined, timers);
    f.moveTo({ minX: 1000, minY: 1000, maxX: 1400, maxY: 1300 });
    frames.shift()!();
    expect(editor.state.camera.x).toBeGreaterThan(0);
    expect(editor.state.camera.x).toBeLessThan(1000);
    run();
    expect(editor.state.camera.zoom).toBeCloseTo(2, 2);
    expect(editor.state.camera.x).toBeCloseTo(1200 - 400 / 2, 1);
  });

  it('stops when I pan or zoom myself', () => {
    const editor = fakeEditor();
    let stopped = 0;
    const f = new Follower(editor, () => stopped++, timers);
    f.moveTo({ minX: 0, minY: 0, maxX: 800, maxY: 600 }, true);
    expect(stopped).toBe(0);
    editor.setCamera({ x: 50, y: 0, zoom: 1 }); // my own pan
    expect(stopped).toBe(1);
    f.destroy();
  });
});
