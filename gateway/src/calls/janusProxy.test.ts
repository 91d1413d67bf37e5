import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@wb/platform';
import { isJanusPath, janusUpgradeHandler } from './janusProxy';
import type { JanusProxyOptions } from './janusProxy';

const SESSION = 't'.repeat(40);
const ANON = 'a'.repeat(22);

/** a stand-in Janus WebSocket transport: answers 101 with the subprotocol, reports what it saw, echoes bytes */
async function fakeJanus(): Promise<{ url: string; seen: http.IncomingHttpHeaders[]; close(): void }> {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer();
  server.on('upgrade', (req, socket) => {
    seen.push(req.headers);
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Protocol: janus-protocol\r\n\r\n',
    );
    socket.pipe(socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `ws://127.0.0.1:${port}`, seen, close: () => server.close() };
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
      log: createLogger({ service: 'test', level: 'silent' }),
      ...opts,
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

function upgrade(
  port: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; protocol?: string; echo?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: '/janus',
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Protocol': 'janus-protocol',
        'X-Forwarded-For': '203.0.113.9',
        ...headers,
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.once('data', (d: Buffer) => {
        socket.destroy();
        resolve({ status: res.statusCode!, protocol: res.headers['sec-websocket-protocol'], echo: d.toString() });
      });
      socket.write('{"janus":"ping"}');
    });
    req.on('response', (res) => resolve({ status: res.statusCode! }));
    req.on('error', reject);
    req.end();
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
        echo: '{"janus":"ping"}',
      });
      expect((await upgrade(gw.port, { cookie: `anon=${ANON}` })).status).toBe(101);
      for (const seen of janus.seen) {
        expect(seen.cookie).toBeUndefined();
        expect(seen['x-forwarded-for']).toBeUndefined();
        expect(seen['sec-websocket-protocol']).toBe('janus-protocol');
        expect(seen['sec-websocket-key']).toBe('dGhlIHNhbXBsZSBub25jZQ==');
      }
    } finally {
      gw.close();
      janus.close();
    }
  });

  it('refuses without a live session or anonymous cookie, and from another origin', async () => {
    const janus = await fakeJanus();
    const gw = await gateway({ upstream: janus.url, publicOrigin: 'https://boards.example.com' });
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
