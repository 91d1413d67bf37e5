/// <reference types="jest" />
import {
  JANUS_CLOSED,
  JANUS_TIMEOUT,
  JanusError,
  JanusSession,
  type HandleEvent,
  type JanusTimers,
  type SocketLike,
} from './janusClient';

/** a WebSocket stand-in: records what the client sends, lets the test answer as Janus */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  private fns: Record<string, ((e: { data: unknown }) => void)[]> = {};
  addEventListener(type: string, fn: (e: { data: unknown }) => void) {
    (this.fns[type] ??= []).push(fn);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    this.readyState = 3;
    this.fire('close');
  }
  fire(type: string, data?: unknown) {
    for (const fn of this.fns[type] ?? []) fn({ data });
  }
  open() {
    this.readyState = 1;
    this.fire('open');
  }
  /** Janus's answer to the last request (its transaction filled in) */
  reply(m: Record<string, unknown>, which = this.sent.length - 1) {
    this.fire('message', JSON.stringify({ transaction: this.sent[which]!.transaction, ...m }));
  }
  push(m: Record<string, unknown>) {
    this.fire('message', JSON.stringify(m));
  }
}

/** timers the test runs by hand */
class FakeTimers implements JanusTimers {
  private next = 1;
  timeouts = new Map<number, () => void>();
  intervals = new Map<number, () => void>();
  setTimeout(fn: () => void) {
    const id = this.next++;
    this.timeouts.set(id, fn);
    return id;
  }
  clearTimeout(id: unknown) {
    this.timeouts.delete(id as number);
  }
  setInterval(fn: () => void) {
    const id = this.next++;
    this.intervals.set(id, fn);
    return id;
  }
  clearInterval(id: unknown) {
    this.intervals.delete(id as number);
  }
  fireTimeouts() {
    const all = [...this.timeouts.values()];
    this.timeouts.clear();
    all.forEach((fn) => fn());
  }
  tick() {
    [...this.intervals.values()].forEach((fn) => fn());
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0));

async function connected(token = 'tok-1') {
  const socket = new FakeSocket();
  const timers = new FakeTimers();
  const pending = JanusSession.connect({
    url: 'ws://x/janus',
    token,
    socket: () => socket,
    timers,
    keepaliveMs: 25_000,
  });
  socket.open();
  await flush();
  expect(socket.sent[0]).toMatchObject({ janus: 'create', token });
  socket.reply({ janus: 'success', data: { id: 77 } });
  const session = await pending;
  return { session, socket, timers };
}

describe('JanusSession', () => {
  test('create: token and transaction on the request; the session id from the answer', async () => {
    const { session, socket } = await connected();
    expect(session.id).toBe(77);
    expect(typeof socket.sent[0]!.transaction).toBe('string');
    expect(socket.sent[0]!.session_id).toBeUndefined();
  });

  test('attach and a plugin message: the ack is skipped, the event with the same transaction answers', async () => {
    const { session, socket } = await connected();
    const attaching = session.attach('janus.plugin.videoroom');
    expect(socket.sent[1]).toMatchObject({
      janus: 'attach',
      plugin: 'janus.plugin.videoroom',
      session_id: 77,
      token: 'tok-1',
    });
    socket.reply({ janus: 'success', data: { id: 5 } });
    const handle = await attaching;
    expect(handle.id).toBe(5);

    const joining = handle.message({ request: 'join', room: 1 });
    const join = socket.sent[2]!;
    expect(join).toMatchObject({ janus: 'message', handle_id: 5, session_id: 77, body: { request: 'join', room: 1 } });
    let done = false;
    void joining.then(() => (done = true));
    socket.reply({ janus: 'ack' });
    // an unrelated transaction's event does not answer this one
    socket.push({
      janus: 'event',
      transaction: 'other',
      sender: 5,
      plugindata: { plugin: 'x', data: { videoroom: 'x' } },
    });
    await flush();
    expect(done).toBe(false);
    socket.reply(
      {
        janus: 'event',
        sender: 5,
        plugindata: { plugin: 'janus.plugin.videoroom', data: { videoroom: 'joined', id: 9 } },
        jsep: { type: 'offer', sdp: 'v=0' },
      },
      2,
    );
    await expect(joining).resolves.toEqual({
      data: { videoroom: 'joined', id: 9 },
      jsep: { type: 'offer', sdp: 'v=0' },
    });
  });

  test('two requests in flight are matched by transaction, whatever the order of answers', async () => {
    const { session, socket } = await connected();
    const a = session.request({ janus: 'attach', plugin: 'p' });
    const b = session.request({ janus: 'attach', plugin: 'p' });
    socket.reply({ janus: 'success', data: { id: 2 } }, 2);
    socket.reply({ janus: 'success', data: { id: 1 } }, 1);
    expect((await a).data?.id).toBe(1);
    expect((await b).data?.id).toBe(2);
  });

  test('errors: Janus core errors and plugin error codes reject with their code', async () => {
    const { session, socket } = await connected();
    const a = session.request({ janus: 'attach', plugin: 'nope' });
    socket.reply({ janus: 'error', error: { code: 460, reason: 'No such plugin' } });
    await expect(a).rejects.toMatchObject({ code: 460, message: 'No such plugin' });

    const attaching = session.attach('janus.plugin.videoroom');
    socket.reply({ janus: 'success', data: { id: 5 } });
    const handle = await attaching;
    const join = handle.message({ request: 'join', room: 404 });
    socket.reply({
      janus: 'event',
      sender: 5,
      plugindata: {
        plugin: 'janus.plugin.videoroom',
        data: { videoroom: 'event', error_code: 426, error: 'No such room' },
      },
    });
    const err = (await join.catch((e: unknown) => e)) as JanusError;
    expect(err).toBeInstanceOf(JanusError);
    expect(err.code).toBe(426);
  });

  test('trickle ends at the ack and sends {completed: true} at the end of gathering', async () => {
    const { session, socket } = await connected();
    const attaching = session.attach('janus.plugin.videoroom');
    socket.reply({ janus: 'success', data: { id: 5 } });
    const handle = await attaching;
    const one = handle.trickle({
      candidate: 'candidate:1 1 udp 1 198.18.0.2 5000 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
    });
    expect(socket.sent[2]).toMatchObject({
      janus: 'trickle',
      handle_id: 5,
      candidate: { sdpMid: '0' },
      token: 'tok-1',
    });
    socket.reply({ janus: 'ack' });
    await one;
    const end = handle.trickle(null);
    expect(socket.sent[3]!.candidate).toEqual({ completed: true });
    socket.reply({ janus: 'ack' });
    await end;
  });

  test('keepalive every interval with the current token; a refreshed token is used from then on', async () => {
    const { session, socket, timers } = await connected('tok-1');
    timers.tick();
    expect(socket.sent[1]).toMatchObject({ janus: 'keepalive', session_id: 77, token: 'tok-1' });
    socket.reply({ janus: 'ack' });
    session.setToken('tok-2');
    timers.tick();
    expect(socket.sent[2]).toMatchObject({ janus: 'keepalive', token: 'tok-2' });
    socket.reply({ janus: 'ack' });
    await flush();
    expect(session.closed).toBe(false);
  });

  test('a refused keepalive (expired token) ends the session and says so', async () => {
    const { session, socket, timers } = await connected();
    const closed = jest.fn();
    session.onClosed(closed);
    timers.tick();
    socket.reply({
      janus: 'error',
      error: { code: 403, reason: 'Unauthorized request (wrong or missing secret/token)' },
    });
    await flush();
    expect(session.closed).toBe(true);
    expect(closed).toHaveBeenCalledWith(expect.objectContaining({ code: 403 }));
    expect(timers.intervals.size).toBe(0);
    await expect(session.request({ janus: 'keepalive' })).rejects.toMatchObject({ code: JANUS_CLOSED });
  });

  test('no answer in time rejects with a timeout', async () => {
    const { session, timers } = await connected();
    const a = session.request({ janus: 'attach', plugin: 'p' });
    timers.fireTimeouts();
    await expect(a).rejects.toMatchObject({ code: JANUS_TIMEOUT });
  });

  test('the socket closing rejects what is in flight and reports the loss', async () => {
    const { session, socket } = await connected();
    const closed = jest.fn();
    session.onClosed(closed);
    const a = session.request({ janus: 'attach', plugin: 'p' });
    socket.close();
    await expect(a).rejects.toMatchObject({ code: JANUS_CLOSED });
    expect(closed).toHaveBeenCalledTimes(1);
  });

  test('a socket that never opens fails the connect', async () => {
    const socket = new FakeSocket();
    const pending = JanusSession.connect({ url: 'ws://x', token: 't', socket: () => socket, timers: new FakeTimers() });
    socket.fire('error');
    await expect(pending).rejects.toMatchObject({ code: JANUS_CLOSED });
  });

  test('handle events: plugin events without a pending transaction, webrtcup, media, hangup, detached', async () => {
    const { session, socket } = await connected();
    const attaching = session.attach('janus.plugin.videoroom');
    socket.reply({ janus: 'success', data: { id: 5 } });
    const handle = await attaching;
    const seen: HandleEvent[] = [];
    handle.on((e) => seen.push(e));
    socket.push({ janus: 'event', sender: 5, plugindata: { plugin: 'p', data: { videoroom: 'talking', id: 3 } } });
    socket.push({ janus: 'event', sender: 6, plugindata: { plugin: 'p', data: { videoroom: 'other handle' } } });
    socket.push({ janus: 'webrtcup', sender: 5 });
    socket.push({ janus: 'media', sender: 5, type: 'video', receiving: true, mid: '1' });
    socket.push({ janus: 'hangup', sender: 5, reason: 'DTLS alert' });
    socket.push({ janus: 'detached', sender: 5 });
    socket.push({ janus: 'webrtcup', sender: 5 }); // forgotten after detached
    socket.fire('message', 'not json');
    expect(seen).toEqual([
      { kind: 'event', data: { videoroom: 'talking', id: 3 }, jsep: undefined },
      { kind: 'webrtcup' },
      { kind: 'media', type: 'video', receiving: true, mid: '1' },
      { kind: 'hangup', reason: 'DTLS alert' },
      { kind: 'detached' },
    ]);
  });

  test('destroy: a destroy request, then the socket closes; no closed callback for a chosen leave', async () => {
    const { session, socket } = await connected();
    const closed = jest.fn();
    session.onClosed(closed);
    const leaving = session.destroy();
    expect(socket.sent[1]).toMatchObject({ janus: 'destroy', session_id: 77 });
    socket.reply({ janus: 'success' });
    await leaving;
    expect(socket.readyState).toBe(3);
    expect(closed).not.toHaveBeenCalled();
  });

  test('a session timeout from Janus ends the session', async () => {
    const { session, socket } = await connected();
    const closed = jest.fn();
    session.onClosed(closed);
    socket.push({ janus: 'timeout', session_id: 77 });
    expect(session.closed).toBe(true);
    expect(closed).toHaveBeenCalledTimes(1);
  });
});
