/**
 * Malformed input found by a hostile tester (issue 11): each answered 500 or was silently
 * accepted. Run against the gateway's real route definitions over a fake bus: every case must be
 * a JSON 4xx with a code, and nothing may reach a service.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { serviceRoutes } from '../routes';
import { cookieHeader, setCookies, startHarness } from '../testing/harness';
import type { Harness } from '../testing/harness';
import { createAppServer } from './appServer';

let h: Harness;
let auth: { cookie: string; csrf: string };

beforeAll(async () => {
  h = await startHarness({ routes: serviceRoutes });
  const { token } = await h.createSession(7);
  const page = await request(h.app).get('/api/user').set('Cookie', `sid=${token}`);
  const csrf = setCookies(page.headers)['csrf-token']!.value;
  auth = { cookie: cookieHeader({ sid: token, 'csrf-token': csrf }), csrf };
  for (const op of ['board.create', 'board.update', 'board.get', 'board.share', 'board.grant', 'folder.rename'])
    h.bus.on('boards', op, () => ({}));
  for (const op of ['settings.update', 'profile.update', 'signup', 'login']) h.bus.on('auth', op, () => ({}));
});
afterAll(() => h.close());

function send(method: 'post' | 'put', path: string, body: string, headers: Record<string, string> = {}) {
  const agent = request(h.app);
  let r = (method === 'post' ? agent.post(path) : agent.put(path))
    .set('Cookie', auth.cookie)
    .set('x-csrf-token', auth.csrf)
    .set('Content-Type', 'application/json');
  for (const [k, v] of Object.entries(headers)) r = r.set(k, v);
  return r.send(body);
}

function expectRefused(res: request.Response, status = 400, code = 'ERR_INVALID_INPUT'): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(typeof res.body.message).toBe('string');
}

const nothingReached = (): void => {
  for (const op of ['board.create', 'board.update', 'board.grant', 'folder.rename'])
    expect(h.bus.callsOf('boards', op)).toHaveLength(0);
  for (const op of ['settings.update', 'profile.update', 'signup', 'login'])
    expect(h.bus.callsOf('auth', op)).toHaveLength(0);
};

describe('a __proto__ key (defect 1)', () => {
  it.each([
    ['post', '/api/boards', '{"title":"x","__proto__":1}'],
    ['post', '/api/boards', '{"title":"x","__proto__":{"title":"y"}}'],
    ['post', '/api/user/settings', '{"boardMinimap":1,"__proto__":{"boardMinimap":0}}'],
    ['post', '/api/user/profile', '{"name":"Ann","__proto__":{}}'],
  ] as const)('%s %s %s → 400 naming __proto__', async (method, path, body) => {
    const res = await send(method, path, body);
    expectRefused(res);
    expect(Object.keys(res.body.fields)).toContain('__proto__');
    nothingReached();
  });

  it('a nested __proto__ is named with its path', async () => {
    const res = await send('post', '/api/user/settings', '{"stylePresets":[{"name":"a","__proto__":{}}]}');
    expectRefused(res);
    expect(Object.keys(res.body.fields)).toContain('stylePresets.0.__proto__');
  });
});

describe('NUL and lone surrogates in any string (defects 2 and 3)', () => {
  it.each([
    ['post', '/api/boards', { title: 'a\u0000b' }, 'title'],
    ['post', '/api/folders', { name: 'x\u0000' }, 'name'],
    ['post', '/api/user/profile', { name: 'Ann\u0000' }, 'name'],
    ['post', '/api/auth/signup', { name: 'A\u0000n', email: 'a@example.com', password: 'long enough 1' }, 'name'],
    ['post', '/api/auth/login', { email: 'a\u0000@example.com', password: 'whatever' }, 'email'],
    ['post', '/api/user/settings', { toolTextFont: 'Open\u0000Sans' }, 'toolTextFont'],
    ['post', '/api/user/settings', { stylePresets: [{ name: '\u0000' }] }, 'stylePresets.0.name'],
    ['post', '/api/user/settings', { toolTextFont: 'Open \ud800Sans' }, 'toolTextFont'],
    ['post', '/api/user/settings', { toolTextFont: 'x\udfff' }, 'toolTextFont'],
  ] as const)('%s %s %j → 400 naming %s', async (method, path, body, field) => {
    const res = await send(method, path, JSON.stringify(body));
    expectRefused(res);
    expect(res.body.fields).toHaveProperty([field]);
    nothingReached();
  });

  it('a key with NUL, and a NUL in the query string, are refused too', async () => {
    expectRefused(await send('post', '/api/boards', '{"ti\\u0000tle":"x"}'));
    const q = await request(h.app).get('/api/boards?format=col%00umns').set('Cookie', auth.cookie);
    expectRefused(q);
  });

  it('an emoji (a valid surrogate pair) is text like any other', async () => {
    const res = await send('post', '/api/boards', JSON.stringify({ title: 'Maths 😀' }));
    expect(res.status).toBe(200);
    expect(h.bus.callsOf('boards', 'board.create').at(-1)?.input).toMatchObject({ title: 'Maths 😀' });
    h.bus.calls.length = 0;
  });

  it('nesting deeper than any contract → 400, not a stack overflow', async () => {
    const deep = '{"stylePresets":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    expectRefused(await send('post', '/api/user/settings', deep));
  });
});

describe('broken percent-encoding in a path (defect 4)', () => {
  it.each([
    ['get', '/api/boards/%E0%A4%A'],
    ['get', '/api/boards/%'],
    ['get', '/api/boards/%/share'],
    ['get', '/api/boards/ok%E0/share'],
    ['put', '/api/folders/%'],
    ['delete', '/api/folders/%'],
    ['put', '/api/boards/%E0%A4%A'],
  ] as const)('%s %s → 400', async (method, path) => {
    let r = request(h.app)[method](path).set('Cookie', auth.cookie).set('x-csrf-token', auth.csrf);
    if (method === 'put') r = r.set('Content-Type', 'application/json').send('{"title":"x"}');
    expectRefused(await r);
  });
});

describe('a body labelled compressed that does not decompress (defect 5)', () => {
  it.each(['gzip', 'deflate', 'br'])('content-encoding: %s → 400', async (encoding) => {
    const res = await send('post', '/api/boards', 'this is not compressed', { 'Content-Encoding': encoding });
    expectRefused(res);
  });

  it('a real gzip body is read', async () => {
    const res = await request(h.app)
      .post('/api/boards')
      .set('Cookie', auth.cookie)
      .set('x-csrf-token', auth.csrf)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize((b: unknown) => b as string) // the bytes as they are, not JSON of a Buffer
      .send(gzipSync(JSON.stringify({ title: 'zipped' })));
    expect(res.body).toEqual({});
    h.bus.calls.length = 0;
  });

  it('an unknown content-encoding → 415', async () => {
    expectRefused(
      await send('post', '/api/boards', '{}', { 'Content-Encoding': 'x-made-up' }),
      415,
      'ERR_UNSUPPORTED_MEDIA_TYPE',
    );
  });
});

describe('ids beyond PostgreSQL integers (defect 6)', () => {
  it.each([2 ** 31, 2 ** 53 - 1, 1e300])('grant to user %d → 400 naming userId', async (userId) => {
    const res = await send('post', '/api/boards/grant', JSON.stringify({ boardId: 'abc', userId, permission: 'view' }));
    expectRefused(res);
    expect(res.body.fields).toHaveProperty('userId');
    nothingReached();
  });

  it('the OpenAPI document states the bound', async () => {
    const doc = (await request(h.app).get('/api/openapi.json')).body;
    const schema = doc.paths['/api/boards/grant'].post.requestBody.content['application/json'].schema;
    expect(schema.properties.userId.maximum).toBe(2 ** 31 - 1);
  });
});

describe('the CSP', () => {
  it('lets page scripts connect (websockets included) to this origin only', async () => {
    const csp = String((await request(h.app).get('/api/health')).headers['content-security-policy']);
    const connect = csp.split(';').find((d) => d.trim().startsWith('connect-src'));
    expect(connect?.trim()).toBe("connect-src 'self'");
  });
});

describe('slow and greedy clients', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = createAppServer(h.app, { headersTimeoutMs: 300, requestTimeoutMs: 600, maxConnectionsPerAddress: 3 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** opens a socket, writes `text`, resolves with what the server sent before closing it */
  function talk(text: string): Promise<{ data: string; ms: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = connect(port, '127.0.0.1', () => socket.write(text));
      let data = '';
      socket.on('data', (c) => (data += c.toString()));
      socket.on('close', () => resolve({ data, ms: Date.now() - started }));
      socket.on('error', reject);
    });
  }

  it('headers that never finish are cut off (408) at the headers timeout', async () => {
    const { data, ms } = await talk('GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: 1');
    expect(data).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(3000);
  });

  it('a body that never finishes is cut off (408) at the request timeout', async () => {
    const { data, ms } = await talk(
      'POST /api/boards HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ti',
    );
    expect(data).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(3000);
  });

  it('one address holds at most the cap of open connections; a freed slot is usable again', async () => {
    const open = await Promise.all(
      [0, 1, 2].map(
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const s = connect(port, '127.0.0.1', () => resolve(s));
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 50));
    const refused = await talk('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(refused.data).toBe('');
    open[0]!.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const ok = await new Promise<number>((resolve, reject) => {
      http
        .get({ port, host: '127.0.0.1', path: '/api/health', agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(ok).toBe(200);
    for (const s of open) s.destroy();
  });
});
