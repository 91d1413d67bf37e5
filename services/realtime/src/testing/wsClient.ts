/** Connect a TestClient over a real websocket (integration tests, benchmarks). */
import { WebSocket } from 'ws';
import { REALTIME_ACTOR_HEADER, REALTIME_PATH_PREFIX } from '@wb/proto';
import { signActor } from '../server/actor';
import type { TestClient } from './client';

export interface WsConnection {
  ws: WebSocket;
  /** resolves with the close code and reason */
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export function connectClient(
  nodeUrl: string,
  boardId: string,
  client: TestClient,
  opts: {
    secret: string;
    name?: string;
    origin?: string;
    /** null: send none (e.g. through the gateway, which signs it) */
    actorHeader?: string | null;
    headers?: Record<string, string>;
    /** give up on an upgrade that gets no answer (default 5000 ms) */
    timeoutMs?: number;
  },
): Promise<WsConnection> {
  const header =
    opts.actorHeader === undefined
      ? signActor(opts.secret, { userId: client.userId, ...(opts.name ? { name: opts.name } : {}) }, Date.now())
      : opts.actorHeader;
  const ws = new WebSocket(`${nodeUrl}${REALTIME_PATH_PREFIX}${encodeURIComponent(boardId)}`, {
    headers: {
      ...(header ? { [REALTIME_ACTOR_HEADER]: header } : {}),
      ...(opts.origin ? { origin: opts.origin } : {}),
      ...opts.headers,
    },
  });
  ws.binaryType = 'nodebuffer';
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      client.detach();
      resolve({ code, reason: reason.toString() });
    });
  });
  ws.on('message', (data: Buffer) => client.receive(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
  return new Promise((resolve, reject) => {
    // a paused or dead node may accept TCP and never answer the upgrade
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('upgrade timed out'));
    }, opts.timeoutMs ?? 5000);
    ws.once('close', () => clearTimeout(timer));
    ws.once('open', () => {
      clearTimeout(timer);
      client.attach((f) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(f);
      });
      resolve({ ws, closed, close: () => ws.close() });
    });
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}
