/**
 * A small client of Janus's JSON API over one WebSocket (subprotocol `janus-protocol`): a session,
 * plugin handles, requests matched to answers by transaction, trickle ICE, keepalives and the
 * short-lived token Janus checks on every request (token_auth). Written here rather than taken
 * from npm: `janode` is Node-only and Meetecho's browser `janus.js` (npm `janus-gateway`) is a large
 * callback-style script with HTTP long-polling, webrtc-adapter and its own media handling, of which
 * a call needs only the signalling below. No media here: the call session owns the PeerConnections.
 */

/** what the client needs of a WebSocket (tests pass a fake) */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error', fn: () => void): void;
  addEventListener(type: 'message', fn: (e: { data: unknown }) => void): void;
}

export type Jsep = { type: 'offer' | 'answer'; sdp: string };

/** a message from Janus (only the fields this client reads) */
export interface JanusMessage {
  janus: string;
  transaction?: string;
  session_id?: number;
  sender?: number;
  data?: { id?: number };
  error?: { code: number; reason: string };
  plugindata?: { plugin: string; data: Record<string, unknown> };
  jsep?: Jsep;
  [key: string]: unknown;
}

/** Janus refused a request (core error or a plugin's error_code), or the socket went away */
export class JanusError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'JanusError';
  }
}
/** code of errors raised here rather than by Janus */
export const JANUS_CLOSED = -1;
export const JANUS_TIMEOUT = -2;
/** Janus's own code for a missing or invalid token (JANUS_ERROR_UNAUTHORIZED) */
export const JANUS_UNAUTHORIZED = 403;

export interface JanusTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
}
const realTimers: JanusTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
};

export interface JanusConnectOptions {
  url: string;
  token: string;
  /** opens the socket (default: a browser WebSocket with the `janus-protocol` subprotocol) */
  socket?: (url: string) => SocketLike;
  /** Janus ends sessions idle for 60 s by default: a keepalive every 25 s */
  keepaliveMs?: number;
  /** how long a request may wait for its answer */
  timeoutMs?: number;
  timers?: JanusTimers;
}

export type HandleEvent =
  /** a plugin event: data is plugindata.data; jsep when Janus sends an offer or answer */
  | { kind: 'event'; data: Record<string, unknown>; jsep?: Jsep }
  | { kind: 'webrtcup' }
  | { kind: 'media'; type: string; receiving: boolean; mid?: string }
  | { kind: 'slowlink'; uplink: boolean }
  | { kind: 'hangup'; reason: string }
  | { kind: 'detached' };

interface Pending {
  resolve: (m: JanusMessage) => void;
  reject: (e: Error) => void;
  /** keepalive and trickle end at the ack; plugin messages at their event */
  ackEnds: boolean;
  timer: unknown;
}

const OPEN = 1;

let counter = 0;
const transactionId = () => `t${Date.now().toString(36)}${(++counter).toString(36)}`;

/** a plugin's error in an event or success (videoroom: error_code + error) */
function pluginError(m: JanusMessage): JanusError | null {
  const data = m.plugindata?.data;
  if (data && typeof data.error_code === 'number')
    return new JanusError(data.error_code, typeof data.error === 'string' ? data.error : 'plugin error');
  return null;
}

export class JanusSession {
  private pending = new Map<string, Pending>();
  private handles = new Map<number, JanusHandle>();
  private closedFns = new Set<(err: JanusError) => void>();
  private keepalive: unknown = null;
  private ended = false;
  id = 0;

  private constructor(
    private readonly socket: SocketLike,
    private token: string,
    private readonly timers: JanusTimers,
    private readonly timeoutMs: number,
  ) {
    socket.addEventListener('message', (e) => this.receive(e.data));
    socket.addEventListener('close', () =>
      this.end(new JanusError(JANUS_CLOSED, 'the call server closed the connection')),
    );
  }

  /** open the socket and create a session (the token's first use) */
  static async connect(opts: JanusConnectOptions): Promise<JanusSession> {
    const open = opts.socket ?? ((url: string) => new WebSocket(url, 'janus-protocol'));
    const socket = open(opts.url);
    const timers = opts.timers ?? realTimers;
    const session = new JanusSession(socket, opts.token, timers, opts.timeoutMs ?? 15_000);
    if (socket.readyState !== OPEN) {
      await new Promise<void>((resolve, reject) => {
        const fail = () => reject(new JanusError(JANUS_CLOSED, 'could not connect to the call server'));
        socket.addEventListener('open', () => resolve());
        socket.addEventListener('error', fail);
        socket.addEventListener('close', fail);
      });
    }
    const created = await session.request({ janus: 'create' });
    session.id = created.data?.id ?? 0;
    const every = opts.keepaliveMs ?? 25_000;
    session.keepalive = timers.setInterval(() => {
      session.request({ janus: 'keepalive' }, true).catch((err: JanusError) => session.end(err));
    }, every);
    return session;
  }

  /** later requests (keepalives included) carry this token: the refreshed one from calls/join */
  setToken(token: string): void {
    this.token = token;
  }

  get closed(): boolean {
    return this.ended;
  }

  /** called once when the session ends for any reason other than destroy() */
  onClosed(fn: (err: JanusError) => void): () => void {
    this.closedFns.add(fn);
    return () => this.closedFns.delete(fn);
  }

  async attach(plugin: string): Promise<JanusHandle> {
    const m = await this.request({ janus: 'attach', plugin });
    const handle = new JanusHandle(this, m.data?.id ?? 0);
    this.handles.set(handle.id, handle);
    return handle;
  }

  /**
   * Send a request with transaction, token and session id; resolves with the answer that ends it
   * (success, the plugin's event, or the ack for keepalive/trickle), rejects on error or timeout.
   */
  request(body: Record<string, unknown>, ackEnds = false): Promise<JanusMessage> {
    if (this.ended) return Promise.reject(new JanusError(JANUS_CLOSED, 'the call has ended'));
    const transaction = transactionId();
    const msg: Record<string, unknown> = { ...body, transaction, token: this.token };
    if (this.id) msg.session_id = this.id;
    return new Promise<JanusMessage>((resolve, reject) => {
      const timer = this.timers.setTimeout(() => {
        this.pending.delete(transaction);
        reject(new JanusError(JANUS_TIMEOUT, `no answer from the call server to ${String(body.janus)}`));
      }, this.timeoutMs);
      this.pending.set(transaction, { resolve, reject, ackEnds, timer });
      try {
        this.socket.send(JSON.stringify(msg));
      } catch {
        this.settle(transaction, null, new JanusError(JANUS_CLOSED, 'the call server connection is closed'));
      }
    });
  }

  /** leave politely: destroy the session (Janus detaches its handles), then close the socket */
  async destroy(): Promise<void> {
    if (this.ended) return;
    try {
      await this.request({ janus: 'destroy' });
    } catch {
      // the socket may already be gone: closing below is what matters
    }
    this.end(null);
    try {
      this.socket.close(1000);
    } catch {
      // already closed
    }
  }

  /** @internal */
  forget(handleId: number): void {
    this.handles.delete(handleId);
  }

  private settle(transaction: string, m: JanusMessage | null, err: Error | null): void {
    const p = this.pending.get(transaction);
    if (!p) return;
    this.pending.delete(transaction);
    this.timers.clearTimeout(p.timer);
    if (err) p.reject(err);
    else p.resolve(m!);
  }

  private receive(raw: unknown): void {
    let m: JanusMessage;
    try {
      m = JSON.parse(String(raw)) as JanusMessage;
    } catch {
      return; // not JSON: nothing Janus sends
    }
    if (!m || typeof m.janus !== 'string') return;
    const t = m.transaction;
    const p = t ? this.pending.get(t) : undefined;
    switch (m.janus) {
      case 'ack':
        if (p?.ackEnds) this.settle(t!, m, null);
        return;
      case 'success': {
        if (p) this.settle(t!, m, pluginError(m));
        return;
      }
      case 'error':
        if (p) this.settle(t!, null, new JanusError(m.error?.code ?? 0, m.error?.reason ?? 'error'));
        return;
      case 'event': {
        // an answer to a plugin message carries its transaction; other events are the plugin's own
        if (p) {
          this.settle(t!, m, pluginError(m));
          // the handle sees answers with an offer too (the subscriber's "attached"/"updated")
          return;
        }
        const h = m.sender ? this.handles.get(m.sender) : undefined;
        if (h && m.plugindata) h.emit({ kind: 'event', data: m.plugindata.data, jsep: m.jsep });
        return;
      }
      case 'timeout':
        this.end(new JanusError(JANUS_CLOSED, 'the call session timed out'));
        return;
      default: {
        const h = m.sender ? this.handles.get(m.sender) : undefined;
        if (!h) return;
        if (m.janus === 'webrtcup') h.emit({ kind: 'webrtcup' });
        else if (m.janus === 'media')
          h.emit({
            kind: 'media',
            type: String(m.type),
            receiving: m.receiving === true,
            mid: typeof m.mid === 'string' ? m.mid : undefined,
          });
        else if (m.janus === 'slowlink') h.emit({ kind: 'slowlink', uplink: m.uplink === true });
        else if (m.janus === 'hangup') h.emit({ kind: 'hangup', reason: typeof m.reason === 'string' ? m.reason : '' });
        else if (m.janus === 'detached') {
          h.emit({ kind: 'detached' });
          this.forget(h.id);
        }
      }
    }
  }

  private end(err: JanusError | null): void {
    if (this.ended) return;
    this.ended = true;
    if (this.keepalive !== null) this.timers.clearInterval(this.keepalive);
    const reason = err ?? new JanusError(JANUS_CLOSED, 'the call has ended');
    for (const t of [...this.pending.keys()]) this.settle(t, null, reason);
    this.handles.clear();
    if (err) for (const fn of this.closedFns) fn(err);
    this.closedFns.clear();
  }
}

/** one attached plugin handle: plugin messages with optional JSEP, trickle, events */
export class JanusHandle {
  private listeners = new Set<(e: HandleEvent) => void>();

  constructor(
    private readonly session: JanusSession,
    readonly id: number,
  ) {}

  on(fn: (e: HandleEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** @internal */
  emit(e: HandleEvent): void {
    for (const fn of this.listeners) fn(e);
  }

  /** a plugin request; resolves with the plugin's answer (data and an optional jsep) */
  async message(body: Record<string, unknown>, jsep?: Jsep): Promise<{ data: Record<string, unknown>; jsep?: Jsep }> {
    const m = await this.session.request({ janus: 'message', handle_id: this.id, body, ...(jsep ? { jsep } : {}) });
    return { data: m.plugindata?.data ?? {}, jsep: m.jsep };
  }

  /** one local ICE candidate, or null once gathering completed */
  async trickle(candidate: { candidate: string; sdpMid?: string | null; sdpMLineIndex?: number | null } | null) {
    await this.session.request(
      { janus: 'trickle', handle_id: this.id, candidate: candidate ?? { completed: true } },
      true,
    );
  }

  async detach(): Promise<void> {
    this.session.forget(this.id);
    this.listeners.clear();
    if (this.session.closed) return;
    await this.session.request({ janus: 'detach', handle_id: this.id }).catch(() => undefined);
  }
}
