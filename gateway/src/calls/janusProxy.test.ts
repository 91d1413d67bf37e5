import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { createLogger } from '@wb/platform';
// eslint-disable-next-line no-restricted-imports -- the calls service's token signer: the proxy must read what it signs
import { roomIdOf, signJanusToken } from '@wb/calls/dist/janus/tokens';
import { isJanusPath, janusUpgradeHandler } from './janusProxy';
import type { JanusProxyOptions } from './janusProxy';

const SESSION = 't'.repeat(40);
const ANON = 'a'.repeat(22);
const TOKEN_SECRET = 'a-token-secret-of-some-length';

/** a stand-in Janus WebSocket transport: speaks janus-protocol, records handshakes and requests, echoes them */
async function fakeJanus(): Promise<{
  url: string;
  seen: http.IncomingHttpHeaders[];
  got: unknown[];
  close(): void;
}> {
  const seen: http.IncomingHttpHeaders[] = [];
  const got: unknown[] = [];
  const server = http.createServer();
  const wss = new WebSocketServer({
    server,
    handleProtocols: (p) => (p.has('janus-protocol') ? 'janus-protocol' : false),
  });
  wss.on('connection', (ws, req) => {
    seen.push(req.headers);
    ws.on('message', (d) => {
      got.push(JSON.parse(String(d as Buffer)));
      ws.send(String(d as Buffer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    seen,
    got,
    close: () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.close();
    },
  };
}

async function gateway(opts: Partial<JanusProxyOptions>): Promise<{ port: number; close(): void }> {
  const server = http.createServer((_q, s) => s.end());
  server.on(
    'upgrade',
    janusUpgradeHandler({
      upstream: undefined,
      sessionCookie: 'sid',
      anonCookie: 'anon',
      resolveSession: (token) =>
        token === SESSION ? { userId: 42, sessionId: 'abc', expiresAt: Date.now() + 1e6 } : null,
      // the gateway's default when neither RT_ALLOWED_ORIGINS nor PUBLIC_URL is set
      allowedOrigins: ['http://localhost:8080', 'http://localhost:5173'],
      log: createLogger({ service: 'test', level: 'silent' }),
      ...opts,
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

/** opens /janus through the gateway: the HTTP status, and a socket when it switched */
function open(
  port: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; protocol?: string; ws?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/janus`, 'janus-protocol', {
      headers: { 'X-Forwarded-For': '203.0.113.9', ...headers },
    });
    ws.once('open', () => resolve({ status: 101, protocol: ws.protocol, ws }));
    ws.once('unexpected-response', (_q, res) => {
      resolve({ status: res.statusCode! });
      res.resume();
    });
    ws.once('error', (err) => {
      if (ws.readyState !== WebSocket.CLOSED) reject(err);
    });
  });
}

async function upgrade(
  port: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; protocol?: string; echo?: string }> {
  const r = await open(port, headers);
  if (!r.ws) return { status: r.status };
  const echo = await ask(r.ws, { janus: 'ping', transaction: 'p' });
  r.ws.close();
  return { status: r.status, protocol: r.protocol, echo: JSON.stringify(echo) };
}

/** sends one request and waits for the answer with its transaction */
function ask(ws: WebSocket, msg: Record<string, unknown>): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const on = (d: WebSocket.RawData): void => {
      const m = JSON.parse(String(d as Buffer)) as Record<string, unknown>;
      if (m.transaction !== msg.transaction) return;
      ws.off('message', on);
      resolve(m);
    };
    ws.on('message', on);
    ws.send(JSON.stringify(msg));
  });
}

describe('gateway /janus upgrade proxy', () => {
  it('matches only the Janus path', () => {
    expect(isJanusPath('/janus')).toBe(true);
    expect(isJanusPath('/janus?x=1')).toBe(true);
    expect(isJanusPath('/janus/other')).toBe(false);
    expect(isJanusPath('/rt/boards/janus')).toBe(false);
  });

  it('passes a signed-in user or a visitor with the anonymous cookie through, with nothing but the handshake', async () => {
    const janus = await fakeJanus();
    const gw = await gateway({ upstream: janus.url });
    try {
      expect(await upgrade(gw.port, { cookie: `sid=${SESSION}` })).toEqual({
        status: 101,
        protocol: 'janus-protocol',
        echo: '{"janus":"ping","transaction":"p"}',
      });
      expect((await upgrade(gw.port, { cookie: `anon=${ANON}` })).status).toBe(101);
      for (const seen of janus.seen) {
        expect(seen.cookie).toBeUndefined();
        expect(seen['x-forwarded-for']).toBeUndefined();
        expect(seen['sec-websocket-protocol']).toBe('janus-protocol');
        expect(seen.origin).toBeUndefined();
      }
    } finally {
      gw.close();
      janus.close();
    }
  });

  it('refuses a foreign Origin also when PUBLIC_URL is unset (the board socket rule: the allowed list)', async () => {
    const janus = await fakeJanus();
    const gw = await gateway({ upstream: janus.url });
    try {
      expect((await upgrade(gw.port, { cookie: `sid=${SESSION}`, origin: 'https://evil.example' })).status).toBe(403);
      expect((await upgrade(gw.port, { cookie: `anon=${ANON}`, origin: 'http://localhost:8081' })).status).toBe(403);
      expect((await upgrade(gw.port, { cookie: `sid=${SESSION}`, origin: 'http://localhost:8080' })).status).toBe(101);
      // no Origin: not a browser (no ambient cookies to abuse), as on the board socket
      expect((await upgrade(gw.port, { cookie: `sid=${SESSION}` })).status).toBe(101);
      expect(janus.seen).toHaveLength(2);
    } finally {
      gw.close();
      janus.close();
    }
  });

  it('refuses without a live session or anonymous cookie, and from another origin', async () => {
    const janus = await fakeJanus();
    const gw = await gateway({ upstream: janus.url, allowedOrigins: ['https://boards.example.com'] });
    try {
      expect((await upgrade(gw.port)).status).toBe(401);
      expect((await upgrade(gw.port, { cookie: `sid=${'x'.repeat(40)}` })).status).toBe(401);
      expect((await upgrade(gw.port, { cookie: 'anon=short' })).status).toBe(401);
      expect((await upgrade(gw.port, { cookie: `sid=${SESSION}`, origin: 'https://evil.example' })).status).toBe(403);
      expect((await upgrade(gw.port, { cookie: `sid=${SESSION}`, origin: 'https://boards.example.com' })).status).toBe(
        101,
      );
      expect(janus.seen).toHaveLength(1);
    } finally {
      gw.close();
      janus.close();
    }
  });

  it("lets a call token reach its own room only: another board's room, and listing rooms, are refused", async () => {
    const janus = await fakeJanus();
    const refused: string[] = [];
    const gw = await gateway({ upstream: janus.url, onRefused: (r) => refused.push(r) });
    const mine = roomIdOf('board-mine');
    const theirs = roomIdOf('board-theirs');
    const token = signJanusToken(TOKEN_SECRET, Date.now() + 60_000, { room: mine });
    const { ws } = await open(gw.port, { cookie: `sid=${SESSION}` });
    try {
      const base = { janus: 'message', session_id: 1, handle_id: 2, token };
      const listOther = await ask(ws!, {
        ...base,
        transaction: 'a',
        body: { request: 'listparticipants', room: theirs },
      });
      expect(listOther).toMatchObject({ janus: 'error', transaction: 'a', session_id: 1, error: { code: 403 } });
      const joinOther = await ask(ws!, {
        ...base,
        transaction: 'b',
        body: { request: 'join', ptype: 'subscriber', room: theirs, streams: [{ feed: 7 }] },
      });
      expect(joinOther).toMatchObject({ janus: 'error', error: { code: 403 } });
      // the room as a string is another room too (Janus would read "123" as a string id)
      expect(
        await ask(ws!, { ...base, transaction: 'c', body: { request: 'exists', room: String(mine) } }),
      ).toMatchObject({
        janus: 'error',
      });
      expect(await ask(ws!, { ...base, transaction: 'd', body: { request: 'list' } })).toMatchObject({
        janus: 'error',
      });
      expect(await ask(ws!, { ...base, transaction: 'e', body: { request: 'kick', room: mine, id: 3 } })).toMatchObject(
        {
          janus: 'error',
        },
      );
      // a token without a room (not one the service hands out now) names no room at all
      const roomless = signJanusToken(TOKEN_SECRET, Date.now() + 60_000);
      expect(
        await ask(ws!, {
          ...base,
          token: roomless,
          transaction: 'f',
          body: { request: 'listparticipants', room: mine },
        }),
      ).toMatchObject({ janus: 'error' });
      expect(janus.got).toEqual([]);
      // its own room, and requests that carry no room, pass
      expect(
        await ask(ws!, { ...base, transaction: 'g', body: { request: 'listparticipants', room: mine } }),
      ).toMatchObject({
        transaction: 'g',
        body: { room: mine },
      });
      expect(await ask(ws!, { ...base, transaction: 'h', body: { request: 'configure', audio: false } })).toMatchObject(
        {
          transaction: 'h',
        },
      );
      expect(await ask(ws!, { janus: 'keepalive', session_id: 1, token, transaction: 'i' })).toMatchObject({
        transaction: 'i',
      });
      expect(janus.got).toHaveLength(3);
      expect(refused).toEqual(['other_room', 'other_room', 'other_room', 'request', 'request', 'other_room']);
    } finally {
      ws?.close();
      gw.close();
      janus.close();
    }
  });

  it('answers 503 when calls are not set up or Janus is unreachable', async () => {
    const none = await gateway({ upstream: undefined });
    const down = await gateway({ upstream: 'ws://127.0.0.1:1' });
    try {
      expect((await upgrade(none.port, { cookie: `sid=${SESSION}` })).status).toBe(503);
      expect((await upgrade(down.port, { cookie: `sid=${SESSION}` })).status).toBe(503);
    } finally {
      none.close();
      down.close();
    }
  });
});
