/**
 * The transport under the board client: one connection = one websocket to the gateway's
 * `/rt/boards/<id>` (same origin; the id is encoded as one path segment, as the gateway decodes
 * it with decodeURIComponent). Kept apart from the protocol logic so tests drive the client with
 * an in-memory transport.
 */
import { REALTIME_PATH_PREFIX } from '@wb/proto';

export interface TransportHandlers {
  onOpen(): void;
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
 * S9: a board opened by link opens its socket at boot (main.tsx), while the session, the page's
 * chunk and the wasm load; the page's first connection to that board adopts it. The node sends
 * nothing before HELLO, so nothing is missed; a socket that closed meanwhile (a guest still
 * picking a name: 4408 after 10 s) is replaced by a new one.
 */
let early: { url: string; ws: WebSocket } | null = null;

export function openBoardSocketEarly(url: string): void {
  early = { url, ws: newSocket(url) };
}

function newSocket(url: string): WebSocket {
  performance.mark('wb:socket-connect');
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  return ws;
}

function takeEarly(url: string): WebSocket | null {
  const e = early;
  early = null;
  if (!e) return null;
  if (e.url === url && (e.ws.readyState === WebSocket.CONNECTING || e.ws.readyState === WebSocket.OPEN)) return e.ws;
  e.ws.close();
  return null;
}

export class WebSocketTransport implements Transport {
  constructor(private readonly url: string) {}

  connect(handlers: TransportHandlers): Connection {
    const ws = takeEarly(this.url) ?? newSocket(this.url);
    let closed = false;
    const opened = () => {
      performance.mark('wb:socket-open');
      handlers.onOpen();
    };
    if (ws.readyState === WebSocket.OPEN) queueMicrotask(() => !closed && opened());
    else ws.onopen = opened;
    ws.onmessage = (e: MessageEvent<unknown>) => {
      // the server sends binary frames only
      if (e.data instanceof ArrayBuffer) handlers.onFrame(new Uint8Array(e.data));
    };
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
