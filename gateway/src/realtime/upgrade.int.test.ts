import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@wb/platform';
import { realtimeKeys } from '@wb/proto';
import type { RealtimeRegistryReader } from '@wb/proto';
import { realtimeUpgradeHandler } from './upgrade';
import type { RealtimeUpgradeOptions } from './upgrade';

const SECRET = 'gateway-test-shared-secret-0123456789';
const PREFIX = 'wbt:';

function verify(header: string | undefined): Record<string, unknown> | null {
  if (!header) return null;
  const [body, mac] = header.split('.');
  if (createHmac('sha256', SECRET).update(body!).digest('base64url') !== mac) return null;
  return JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
}

/** a stand-in realtime node: answers 101, reports what it saw, then echoes bytes */
async function fakeNode(): Promise<{ url: string; seen: http.IncomingHttpHeaders[]; close(): void }> {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer();
  server.on('upgrade', (req, socket) => {
    seen.push(req.headers);
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    socket.pipe(socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `ws://127.0.0.1:${port}`, seen, close: () => server.close() };
}

function memoryRegistry(entries: Record<string, string>, nodes: string[]): RealtimeRegistryReader {
  return {
    get: async (k) => entries[k] ?? null,
    zrangebyscore: async () => nodes,
  };
}

/** what the gateway asks auth for: display names (users.names) */
function namesBus(names: Record<string, string> | Error): {
  calls: { operation: string; input: unknown }[];
  request: NonNullable<RealtimeUpgradeOptions['bus']>['request'];
} {
  const calls: { operation: string; input: unknown }[] = [];
  return {
    calls,
    request: (async (_service: string, operation: string, input: unknown) => {
      calls.push({ operation, input });
      if (names instanceof Error) throw names;
      return { data: names };
    }) as unknown as NonNullable<RealtimeUpgradeOptions['bus']>['request'],
  };
}

async function gateway(
  registry: RealtimeRegistryReader,
  bus?: RealtimeUpgradeOptions['bus'],
): Promise<{ port: number; close(): void }> {
  const server = http.createServer((_q, s) => s.end());
  server.on(
    'upgrade',
    realtimeUpgradeHandler({
      redis: registry,
      redisPrefix: PREFIX,
      sessionCookie: 'sid',
      resolveSession: (token) =>
        token === 't'.repeat(40) ? { userId: 42, sessionId: 'abc', expiresAt: Date.now() + 1e6 } : null,
      secret: SECRET,
      nodeTtlMs: 6000,
      ...(bus ? { bus } : {}),
      log: createLogger({ service: 'test', level: 'silent' }),
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

function upgrade(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; echo?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'x-wb-actor': 'forged', ...headers },
    });
    req.on('upgrade', (res, socket) => {
      socket.once('data', (d: Buffer) => {
        socket.destroy();
        resolve({ status: res.statusCode!, echo: d.toString() });
      });
      socket.write('ping');
    });
    req.on('response', (res) => resolve({ status: res.statusCode! }));
    req.on('error', reject);
    req.end();
  });
}

describe('gateway /rt upgrade proxy', () => {
  it('forwards to the live lease holder with a signed actor; strips cookies and forged headers', async () => {
    const node = await fakeNode();
    const keys = realtimeKeys(PREFIX);
    const reg = memoryRegistry(
      { [keys.lease('folder/b1')]: 'rt-2 7', [keys.node('rt-2')]: JSON.stringify({ nodeId: 'rt-2', url: node.url }) },
      ['rt-1', 'rt-2'],
    );
    const gw = await gateway(reg);
    try {
      const r = await upgrade(gw.port, '/rt/boards/folder%2Fb1', { cookie: `sid=${'t'.repeat(40)}` });
      expect(r).toEqual({ status: 101, echo: 'ping' });
      expect(node.seen[0]!.cookie).toBeUndefined();
      expect(verify(node.seen[0]!['x-wb-actor'] as string)).toMatchObject({ userId: 42, sessionId: 'abc' });
      await upgrade(gw.port, '/rt/boards/folder%2Fb1');
      expect(verify(node.seen[1]!['x-wb-actor'] as string)).toMatchObject({ userId: 0 }); // guest
    } finally {
      gw.close();
      node.close();
    }
  });

  it("A5/A6: signs the session id auth revokes by and the account's name (looked up once, then cached)", async () => {
    const node = await fakeNode();
    const keys = realtimeKeys(PREFIX);
    const reg = memoryRegistry({ [keys.node('rt-1')]: JSON.stringify({ nodeId: 'rt-1', url: node.url }) }, ['rt-1']);
    const bus = namesBus({ '42': 'Ann Teacher' });
    const gw = await gateway(reg, bus);
    try {
      const cookie = { cookie: `sid=${'t'.repeat(40)}` };
      await upgrade(gw.port, '/rt/boards/b1', cookie);
      await upgrade(gw.port, '/rt/boards/b2', cookie);
      await upgrade(gw.port, '/rt/boards/b2'); // a guest: no name from the gateway, no lookup
      expect(verify(node.seen[0]!['x-wb-actor'] as string)).toMatchObject({
        userId: 42,
        sessionId: 'abc',
        name: 'Ann Teacher',
      });
      expect(verify(node.seen[1]!['x-wb-actor'] as string)).toMatchObject({ name: 'Ann Teacher' });
      expect(verify(node.seen[2]!['x-wb-actor'] as string)).not.toHaveProperty('name');
      expect(bus.calls).toEqual([{ operation: 'users.names', input: { ids: [42] } }]);
    } finally {
      gw.close();
      node.close();
    }
  });

  it('A6: a failed name lookup does not stop the upgrade (the node shows a neutral name)', async () => {
    const node = await fakeNode();
    const keys = realtimeKeys(PREFIX);
    const reg = memoryRegistry({ [keys.node('rt-1')]: JSON.stringify({ nodeId: 'rt-1', url: node.url }) }, ['rt-1']);
    const bus = namesBus(new Error('auth down'));
    const gw = await gateway(reg, bus);
    try {
      const r = await upgrade(gw.port, '/rt/boards/b1', { cookie: `sid=${'t'.repeat(40)}` });
      expect(r.status).toBe(101);
      const actor = verify(node.seen[0]!['x-wb-actor'] as string);
      expect(actor).toMatchObject({ userId: 42, sessionId: 'abc' });
      expect(actor).not.toHaveProperty('name');
    } finally {
      gw.close();
      node.close();
    }
  });

  it('answers 503 without a live node and 404 outside /rt/boards/', async () => {
    const gw = await gateway(memoryRegistry({}, []));
    try {
      expect((await upgrade(gw.port, '/rt/boards/x')).status).toBe(503);
      expect((await upgrade(gw.port, '/other')).status).toBe(404);
    } finally {
      gw.close();
    }
  });
});
