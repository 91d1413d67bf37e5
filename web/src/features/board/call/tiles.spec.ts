/// <reference types="jest" />
import { errorCodeOf, refreshDelay, socketUrl } from './callSession';
import { describe as describeStream, diffStreams, layout, PAGE_SIZE, toFeed, wantedStreams, type Feed } from './tiles';

const feed = (id: number, kind: Feed['kind'], display = `P${id}`): Feed => ({
  id,
  display,
  kind,
  audioMid: '0',
  videoMid: '1',
  audioOff: false,
  videoOff: false,
  moderated: false,
  talking: false,
});

describe('toFeed', () => {
  test('kind and on/off states from the stream descriptions; moderated and disabled streams are off', () => {
    const f = toFeed({
      id: 4,
      display: 'Ada',
      streams: [
        { type: 'audio', mid: '0', description: describeStream('host', false) },
        { type: 'video', mid: '1', description: describeStream('host', true) },
      ],
    });
    expect(f).toMatchObject({
      id: 4,
      display: 'Ada',
      kind: 'host',
      audioMid: '0',
      videoMid: '1',
      audioOff: true,
      videoOff: false,
    });
    const m = toFeed({
      id: 5,
      streams: [
        { type: 'audio', mid: '0', description: 'member', moderated: true },
        { type: 'video', mid: '1', disabled: true },
      ],
    });
    expect(m).toMatchObject({ kind: 'member', audioOff: false, moderated: true, videoOff: true, videoMid: undefined });
  });

  test('a publisher without streams yet keeps what was known (talking, name)', () => {
    const before = { ...feed(6, 'screen', 'Ada'), talking: true };
    expect(toFeed({ id: 6 }, before)).toMatchObject({ display: 'Ada', kind: 'screen', talking: true, audioOff: true });
  });
});

describe('layout and subscriptions for 1 teacher + 30 students', () => {
  const host = feed(1, 'host', 'Teacher');
  const screen = feed(2, 'screen', 'Teacher');
  const students = Array.from({ length: 30 }, (_, i) => feed(100 + i, 'member', `S${String(i).padStart(2, '0')}`));
  const all = [host, screen, ...students];

  test('a student sees the screen share and the teacher pinned, and 6 students per page (not themself)', () => {
    const me = new Set([100]);
    const l = layout(all, me, 0);
    expect(l.pinned.map((f) => f.id)).toEqual([2, 1]);
    expect(l.page).toHaveLength(PAGE_SIZE);
    expect(l.page.map((f) => f.id)).not.toContain(100);
    expect(l.pages).toBe(5); // 29 other students
    const last = layout(all, me, 99);
    expect(last.pageIndex).toBe(4);
    expect(last.page).toHaveLength(29 - 4 * PAGE_SIZE);
  });

  test('every audio but mine; video only of the pinned feeds and the visible page', () => {
    const me = new Set([100]);
    const l = layout(all, me, 1);
    const wanted = wantedStreams(all, me, l);
    const audio = wanted.filter((s) => s.mid === '0');
    const video = wanted.filter((s) => s.mid === '1');
    expect(audio).toHaveLength(31); // teacher, screen, 29 students
    expect(video.map((s) => s.feed).sort()).toEqual([1, 2, ...l.page.map((f) => f.id)].sort());
    expect(video).toHaveLength(2 + PAGE_SIZE);
  });

  test('the teacher (host) sees all students paged and receives no own streams', () => {
    const me = new Set([1, 2]);
    const l = layout(all, me, 0);
    expect(l.pinned).toEqual([]);
    expect(l.pages).toBe(5);
    const wanted = wantedStreams(all, me, l);
    expect(wanted.some((s) => s.feed === 1 || s.feed === 2)).toBe(false);
    expect(wanted.filter((s) => s.mid === '1')).toHaveLength(PAGE_SIZE);
  });

  test('a muted stream (no mid published) is not asked for', () => {
    const quiet = { ...feed(7, 'member'), audioMid: undefined };
    const wanted = wantedStreams([quiet], new Set(), layout([quiet], new Set(), 0));
    expect(wanted).toEqual([{ feed: 7, mid: '1' }]);
  });

  test('turning the page: subscribe to the new page’s video, unsubscribe the old one, audio stays', () => {
    const me = new Set([1, 2]);
    const p0 = wantedStreams(all, me, layout(all, me, 0));
    const p1 = wantedStreams(all, me, layout(all, me, 1));
    const { subscribe, unsubscribe } = diffStreams(p0, p1);
    expect(subscribe).toHaveLength(PAGE_SIZE);
    expect(unsubscribe).toHaveLength(PAGE_SIZE);
    expect([...subscribe, ...unsubscribe].every((s) => s.mid === '1')).toBe(true);
    expect(diffStreams(p1, p1)).toEqual({ subscribe: [], unsubscribe: [] });
  });

  test('the order is stable by name, so tiles do not jump when someone talks', () => {
    const a = layout(all, new Set([1, 2]), 0).page.map((f) => f.id);
    const talking = all.map((f) => (f.id === 103 ? { ...f, talking: true } : f));
    expect(layout(talking, new Set([1, 2]), 0).page.map((f) => f.id)).toEqual(a);
  });
});

describe('call session helpers', () => {
  test('refresh at 80 % of the token’s remaining life, never sooner than 5 s', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(refreshDelay('2026-01-01T00:10:00Z', now)).toBe(480_000);
    expect(refreshDelay('2026-01-01T00:00:01Z', now)).toBe(5_000);
  });

  test('the Janus path becomes a ws(s) URL on the page’s origin', () => {
    expect(socketUrl('/janus', 'http://127.0.0.1:8080')).toBe('ws://127.0.0.1:8080/janus');
    expect(socketUrl('/janus', 'https://wb.example')).toBe('wss://wb.example/janus');
  });

  test('failures map to readable messages', () => {
    expect(errorCodeOf({ status: 403, code: 'ERR_FEATURE_NOT_ENABLED' })).toBe('upgrade');
    expect(errorCodeOf({ status: 403, code: 'ERR_FORBIDDEN' })).toBe('forbidden');
    expect(errorCodeOf({ status: 404, code: 'ERR_BOARD_NOT_FOUND' })).toBe('forbidden');
    expect(errorCodeOf({ status: 503, code: 'ERR_SERVICE_UNAVAILABLE' })).toBe('unavailable');
    expect(errorCodeOf({ status: 500, code: 'ERR_INTERNAL' })).toBe('failed');
    const denied = new Error('Permission denied');
    denied.name = 'NotAllowedError';
    expect(errorCodeOf(denied)).toBe('permission');
    const none = new Error('Requested device not found');
    none.name = 'NotFoundError';
    expect(errorCodeOf(none)).toBe('noDevice');
  });
});
