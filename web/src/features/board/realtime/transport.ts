/**
 * The transport under the board client: one connection = one websocket to the gateway's
 * `/rt/boards/<id>` (same origin; the id is encoded as one path segment, as the gateway decodes
 * it with decodeURIComponent). Kept apart from the protocol logic so tests drive the client with
 * an in-memory transport.
 */
import { encodeJsonFrame, MSG, REALTIME_PATH_PREFIX, REALTIME_PROTOCOL_VERSION } from '@wb/proto';
import { startRenderDecoding } from './renderFrame';

export interface TransportHandlers {
  /** `greeted`: the socket said HELLO already (an early socket, S9): the client must not again */
  onOpen(info?: { greeted: boolean }): void;
  onFrame(frame: Uint8Array): void;
  /** the connection is gone (also when it never opened: code 1006) */
  onClose(code: number, reason: string): void;
}

export interface Connection {
  send(frame: Uint8Array): void;
  close(code?: number, reason?: string): void;
}

export interface Transport {
  connect(handlers: TransportHandlers): Connection;
}

/** ws(s)://<host>/rt/boards/<encodeURIComponent(id)> for the page's own origin */
export function boardSocketUrl(location: Pick<Location, 'protocol' | 'host'>, boardId: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${REALTIME_PATH_PREFIX}${encodeURIComponent(boardId)}`;
}

/**
 * S9: a board opened by link opens its socket at boot (boot.ts), while the session, the page's
 * chunk and the wasm load. Once the session says the person is signed in, that socket says HELLO
 * as a new client would (fresh, render; a signed-in person's name comes from the session, never
 * from HELLO) and what the node answers waits here; a guest's is closed (guests name themselves
 * in HELLO, on the page). The page's first connection to that board adopts the socket and the
 * frames that came (a socket that closed meanwhile is replaced by a new one). A socket no page
 * adopts within EARLY_SOCKET_ABANDON_MS (a new account sent to onboarding, a chunk that failed to
 * load) is closed, so the person does not linger in the board's presence until the tab closes.
 */
interface EarlySocket {
  url: string;
  ws: WebSocket;
  /** frames received before the adoption */
  frames: Uint8Array[];
  greeted: boolean;
}
let early: EarlySocket | null = null;

export const EARLY_SOCKET_ABANDON_MS = 10_000;

export function openBoardSocketEarly(url: string, signedIn: Promise<boolean>): void {
  const e: EarlySocket = { url, ws: newSocket(url), frames: [], greeted: false };
  early = e;
  setTimeout(() => {
    if (early !== e) return; // adopted or replaced
    early = null;
    e.ws.close();
  }, EARLY_SOCKET_ABANDON_MS);
  e.ws.onmessage = (ev: MessageEvent<unknown>) => {
    if (!(ev.data instanceof ArrayBuffer)) return;
    const frame = new Uint8Array(ev.data);
    performance.mark(`wb:early-frame-${frame[0]}`); // the open's timeline (a few frames only)
    e.frames.push(frame);
    startRenderDecoding(frame); // while the page's code is still loading
  };
  void signedIn.then((yes) => {
    if (early !== e) return; // adopted (un-greeted) or replaced already
    if (!yes) {
      early = null;
      e.ws.close();
      return;
    }
    const hello = encodeJsonFrame(MSG.HELLO, { protocol: REALTIME_PROTOCOL_VERSION, fresh: true, render: true });
    if (e.ws.readyState === WebSocket.OPEN) e.ws.send(hello);
    else e.ws.addEventListener('open', () => e.ws.send(hello), { once: true });
    e.greeted = true;
  });
}

function newSocket(url: string): WebSocket {
  performance.mark('wb:socket-connect');
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  return ws;
}

function takeEarly(url: string): EarlySocket | null {
  const e = early;
  early = null;
  if (!e) return null;
  if (e.url === url && (e.ws.readyState === WebSocket.CONNECTING || e.ws.readyState === WebSocket.OPEN)) return e;
  e.ws.close();
  return null;
}

export class WebSocketTransport implements Transport {
  constructor(private readonly url: string) {}

  connect(handlers: TransportHandlers): Connection {
    const adopted = takeEarly(this.url);
    const ws = adopted?.ws ?? newSocket(this.url);
    let closed = false;
    const opened = () => {
      performance.mark('wb:socket-open');
      handlers.onOpen({ greeted: adopted?.greeted ?? false });
    };
    const marked = new Set<number>();
    const deliver = (e: MessageEvent<unknown>) => {
      // the server sends binary frames only
      if (!(e.data instanceof ArrayBuffer)) return;
      const frame = new Uint8Array(e.data);
      // the open's timeline: when each kind of frame first reached the page
      if (!marked.has(frame[0]!)) {
        marked.add(frame[0]!);
        performance.mark(`wb:frame-${frame[0]}`);
      }
      handlers.onFrame(frame);
    };
    if (adopted && ws.readyState === WebSocket.OPEN) {
      // after connect() returned (the caller keeps the connection first); until then frames
      // still queue on the early socket
      queueMicrotask(() => {
        if (closed) return;
        opened();
        for (const frame of adopted.frames.splice(0)) if (!closed) handlers.onFrame(frame);
        ws.onmessage = deliver;
      });
    } else {
      ws.onopen = opened;
      ws.onmessage = deliver;
    }
    ws.onclose = (e) => {
      if (closed) return;
      closed = true;
      handlers.onClose(e.code, e.reason);
    };
    return {
      send: (frame) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(frame);
      },
      close: (code = 1000, reason = '') => {
        if (closed) return;
        closed = true;
        try {
          ws.close(code, reason);
        } catch {
          ws.close();
        }
      },
    };
  }
}
