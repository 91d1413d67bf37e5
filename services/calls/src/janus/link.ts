/**
 * The service's one connection to Janus (janode over WebSocket, authenticated with the API
 * secret): a session and a VideoRoom handle for the synchronous room requests (create, allowed,
 * list, destroy, moderate), kept open and re-opened with backoff (0.5 s doubling to 10 s) when
 * Janus goes away. A request while Janus is unreachable waits at most the request timeout for
 * the link and then fails with JanusUnavailable (503), never hangs and never a 500.
 *
 * janode is an ES module: it is loaded with import() (kept as is by TypeScript's node16 output).
 */
import type { HandleClass, JanodeConnection, JanodeHandle, JanodeSession, JanusReply } from 'janode';
import type { Logger } from '@wb/platform';
import { JanusUnavailable, VideoRoomError } from './errors';

export type VideoRoomData = Record<string, unknown>;
export type VideoRoomSend = (body: Record<string, unknown>) => Promise<VideoRoomData>;

/** What rooms need of Janus (tests may give a fake). */
export interface JanusApi {
  /** one VideoRoom request on the shared handle; resolves with the plugin's `data` */
  request: VideoRoomSend;
  /** run `fn` with a handle of its own (a temporary room participant), detached afterwards */
  withHandle<T>(fn: (send: VideoRoomSend) => Promise<T>): Promise<T>;
  readonly up: boolean;
}

interface Link {
  conn: JanodeConnection;
  session: JanodeSession;
  handle: JanodeHandle;
}

type JanodeModule = (typeof import('janode'))['default'];
let janodeModule: Promise<{ Janode: JanodeModule; Handle: HandleClass }> | undefined;
function loadJanode(): Promise<{ Janode: JanodeModule; Handle: HandleClass }> {
  janodeModule ??= Promise.all([import('janode'), import('janode/handle')]).then(([m, h]) => {
    m.default.Logger.setLevel('none'); // its console output would bypass pino; errors reach us as rejections
    /**
     * The generic handle fails asynchronous requests (a VideoRoom `join` is answered by an event
     * carrying the transaction, not by "success"): this one resolves them with that event.
     */
    class TransactionHandle extends h.default {
      override handleMessage(message: JanusReply): unknown {
        const tx = typeof message.transaction === 'string' ? message.transaction : undefined;
        if (message.janus === 'event' && tx && this.ownsTransaction(tx)) {
          this.closeTransactionWithSuccess(tx, message);
          return true;
        }
        return null;
      }
    }
    return { Janode: m.default, Handle: TransactionHandle };
  });
  return janodeModule;
}

const PLUGIN = 'janus.plugin.videoroom';
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10_000;
/** Janus destroys a session after 60 s without a request; janode keeps ours alive every 15 s */
const KEEPALIVE_S = 15;

export interface JanusLinkOptions {
  url: string;
  apiSecret: string;
  timeoutMs: number;
  log: Logger;
  /** told whenever the link comes up or goes down (metrics) */
  onState?: (up: boolean) => void;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new JanusUnavailable(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function pluginData(reply: JanusReply): VideoRoomData {
  const data = reply.plugindata?.data;
  if (!data) throw new Error(`unexpected Janus reply "${reply.janus}" without plugin data`);
  if (typeof data.error_code === 'number') {
    throw new VideoRoomError(data.error_code, typeof data.error === 'string' ? data.error : '');
  }
  return data;
}

export class JanusLink implements JanusApi {
  private link: Link | null = null;
  private handleClass: HandleClass | undefined;
  private connecting: Promise<Link> | null = null;
  private backoffMs = BACKOFF_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly opts: JanusLinkOptions) {}

  get up(): boolean {
    return this.link !== null;
  }

  /** connect in the background (start-up does not wait for Janus: joins answer 503 until it is up) */
  start(): void {
    this.connect().catch(() => undefined);
  }

  async request(body: Record<string, unknown>): Promise<VideoRoomData> {
    const link = await this.ready();
    return this.send(link.handle, body);
  }

  async withHandle<T>(fn: (send: VideoRoomSend) => Promise<T>): Promise<T> {
    const link = await this.ready();
    const handle = await this.guard(link.session.attach({ id: PLUGIN, Handle: this.handleClass }), 'attach');
    try {
      return await fn((body) => this.send(handle, body));
    } finally {
      await handle.detach().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const link = this.link;
    this.link = null;
    if (link) await link.conn.close().catch(() => undefined);
  }

  private async send(handle: JanodeHandle, body: Record<string, unknown>): Promise<VideoRoomData> {
    return pluginData(await this.guard(handle.message(body), String(body.request)));
  }

  /** a Janus call bounded by the timeout; a failure while the link is down is JanusUnavailable */
  private async guard<T>(p: Promise<T>, what: string): Promise<T> {
    try {
      return await withTimeout(p, this.opts.timeoutMs, what);
    } catch (err) {
      if (err instanceof JanusUnavailable || !this.link) {
        throw err instanceof JanusUnavailable ? err : new JanusUnavailable(`${what}: ${(err as Error).message}`);
      }
      throw err;
    }
  }

  private async ready(): Promise<Link> {
    if (this.link) return this.link;
    if (this.closed) throw new JanusUnavailable('the link is closed');
    return withTimeout(this.connect(), this.opts.timeoutMs, 'connect');
  }

  private connect(): Promise<Link> {
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<Link> {
    clearTimeout(this.retryTimer);
    let conn: JanodeConnection | undefined;
    try {
      const { Janode, Handle } = await loadJanode();
      this.handleClass = Handle;
      conn = await Janode.connect({
        address: { url: this.opts.url, apisecret: this.opts.apiSecret },
        retry_time_secs: 1,
        max_retries: 1,
      });
      const session = await conn.create(KEEPALIVE_S);
      const handle = await session.attach({ id: PLUGIN, Handle });
      const link: Link = { conn, session, handle };
      const lost = (why: string) => () => this.lost(link, why);
      conn.once(Janode.EVENT.CONNECTION_CLOSED, lost('connection closed'));
      conn.once(Janode.EVENT.CONNECTION_ERROR, lost('connection error'));
      session.once(Janode.EVENT.SESSION_DESTROYED, lost('session destroyed'));
      handle.once(Janode.EVENT.HANDLE_DETACHED, lost('handle detached'));
      if (this.closed) {
        await conn.close().catch(() => undefined);
        throw new JanusUnavailable('the link is closed');
      }
      this.link = link;
      this.backoffMs = BACKOFF_MIN_MS;
      this.opts.log.info({ url: this.opts.url }, 'connected to Janus');
      this.opts.onState?.(true);
      return link;
    } catch (err) {
      await conn?.close().catch(() => undefined);
      this.opts.log.warn({ err, url: this.opts.url, retryInMs: this.backoffMs }, 'cannot reach Janus');
      this.scheduleRetry();
      throw err instanceof JanusUnavailable ? err : new JanusUnavailable((err as Error).message);
    }
  }

  private lost(link: Link, why: string): void {
    if (this.link !== link) return;
    this.link = null;
    this.opts.onState?.(false);
    if (this.closed) return;
    this.opts.log.warn({ why }, 'lost the Janus link; reconnecting');
    link.conn.close().catch(() => undefined);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    const delay = this.backoffMs;
    this.backoffMs = Math.min(BACKOFF_MAX_MS, this.backoffMs * 2);
    this.retryTimer = setTimeout(() => {
      this.connect().catch(() => undefined);
    }, delay);
    this.retryTimer.unref();
  }
}
