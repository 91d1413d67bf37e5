/**
 * A minimal Janus API client over WebSocket, the way a browser speaks it (no SDK): for tests that
 * check what Janus accepts with a call token. Every request may carry `token`; asynchronous
 * VideoRoom requests (join, configure, …) resolve with the event that carries their transaction.
 * Events without a transaction are kept in `events`.
 */
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { CALL_JANUS_SUBPROTOCOL } from '@wb/proto';

export interface JanusMessage {
  janus: string;
  transaction?: string;
  session_id?: number;
  sender?: number;
  data?: { id?: number };
  error?: { code: number; reason: string };
  plugindata?: { plugin: string; data: Record<string, unknown> };
  jsep?: { type: string; sdp: string };
  [key: string]: unknown;
}

export class JanusTestClient {
  readonly events: JanusMessage[] = [];
  private readonly pending = new Map<string, (m: JanusMessage) => void>();
  /** requests answered by an ack (keepalive, trickle) */
  private readonly ackAnswers = new Set<string>();
  private listeners: ((m: JanusMessage) => void)[] = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const m = JSON.parse((raw as Buffer).toString('utf8')) as JanusMessage;
      // an asynchronous request's ack: its event follows
      if (m.janus === 'ack' && m.transaction && this.pending.has(m.transaction) && !this.ackAnswers.has(m.transaction))
        return;
      const done = m.transaction ? this.pending.get(m.transaction) : undefined;
      if (done) {
        this.pending.delete(m.transaction!);
        this.ackAnswers.delete(m.transaction!);
        done(m);
      } else {
        this.events.push(m);
        for (const l of this.listeners) l(m);
      }
    });
  }

  /** open `url` (ws://…; through the gateway: its /janus path with the browser's cookies in `headers`) */
  static open(url: string, headers: Record<string, string> = {}): Promise<JanusTestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, CALL_JANUS_SUBPROTOCOL, { headers });
      ws.once('open', () => resolve(new JanusTestClient(ws)));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
  }

  /** one request; resolves with its answer (success, error, or the event of an async request) */
  send(body: Record<string, unknown>, timeoutMs = 10_000): Promise<JanusMessage> {
    const transaction = randomBytes(6).toString('hex');
    if (body.janus === 'keepalive' || body.janus === 'trickle') this.ackAnswers.add(transaction);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new Error(`no answer to ${String(body.janus)} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(transaction, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      this.ws.send(JSON.stringify({ ...body, transaction }));
    });
  }

  /** the next event without a transaction that matches */
  nextEvent(match: (m: JanusMessage) => boolean, timeoutMs = 15_000): Promise<JanusMessage> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((l) => l !== listener);
        reject(new Error(`no matching event within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (m: JanusMessage) => {
        if (!match(m)) return;
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== listener);
        resolve(m);
      };
      this.listeners.push(listener);
    });
  }

  async createSession(token?: string): Promise<number> {
    const r = await this.send({ janus: 'create', ...(token ? { token } : {}) });
    if (r.janus !== 'success') throw new JanusRequestError(r);
    return r.data!.id!;
  }

  async attach(session: number, token: string | undefined, plugin = 'janus.plugin.videoroom'): Promise<number> {
    const r = await this.send({ janus: 'attach', session_id: session, plugin, ...(token ? { token } : {}) });
    if (r.janus !== 'success') throw new JanusRequestError(r);
    return r.data!.id!;
  }

  /** a plugin message; resolves with the plugin data (check `error_code`) and the jsep, if any */
  async message(
    session: number,
    handle: number,
    body: Record<string, unknown>,
    token?: string,
    jsep?: { type: string; sdp: string },
  ): Promise<{ data: Record<string, unknown>; jsep?: { type: string; sdp: string }; raw: JanusMessage }> {
    const r = await this.send({
      janus: 'message',
      session_id: session,
      handle_id: handle,
      body,
      ...(token ? { token } : {}),
      ...(jsep ? { jsep } : {}),
    });
    if (r.janus === 'error') throw new JanusRequestError(r);
    return { data: r.plugindata?.data ?? {}, jsep: r.jsep, raw: r };
  }

  keepalive(session: number, token?: string): Promise<JanusMessage> {
    return this.send({ janus: 'keepalive', session_id: session, ...(token ? { token } : {}) });
  }

  close(): void {
    this.ws.close();
  }
}

export class JanusRequestError extends Error {
  readonly code: number;
  constructor(readonly reply: JanusMessage) {
    super(`Janus ${reply.janus}: ${reply.error?.code ?? ''} ${reply.error?.reason ?? ''}`);
    this.code = reply.error?.code ?? 0;
  }
}
