/**
 * The gateway with the real auth service (PostgreSQL, NATS, Redis, OTLP receiver): CSRF, 401,
 * login throttling and revocation end to end, and one trace across gateway and auth.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startOtlpReceiver, startStack } from '@wb/platform/testing';
import type { OtlpReceiver, RunningStack } from '@wb/platform/testing';

let stack: RunningStack;
let otlp: OtlpReceiver;
/** auth writes its mails here (no SMTP in this test) */
const mailDir = mkdtempSync(path.join(tmpdir(), 'wb-gateway-int-mail-'));

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  stack = await startStack({
    deployables: ['services/auth', 'gateway'],
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_TRACES_EXPORTER: 'otlp',
      MAIL_OUTBOX_DIR: mailDir,
    },
    // the test plays several client addresses through X-Forwarded-For
    envFor: { gateway: { TRUST_PROXY: 'loopback' } },
  });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await otlp?.close();
  rmSync(mailDir, { recursive: true, force: true });
});

interface Reply {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Headers;
}

/** A cookie jar and the CSRF double-submit, like the web app. */
class Client {
  readonly jar = new Map<string, string>();
  constructor(private readonly ip = '127.0.0.1') {}

  get(path: string): Promise<Reply> {
    return this.send('GET', path);
  }
  /** csrf: 'auto' echoes the cookie, 'none' sends no header, anything else is sent as the header */
  async post(path: string, body: unknown = {}, csrf = 'auto'): Promise<Reply> {
    if (!this.jar.has('csrf-token')) await this.get('/api/user');
    return this.send(
      'POST',
      path,
      body,
      csrf === 'auto' ? this.jar.get('csrf-token') : csrf === 'none' ? undefined : csrf,
    );
  }
  private async send(method: string, path: string, body?: unknown, csrf?: string): Promise<Reply> {
    const headers: Record<string, string> = { accept: 'application/json', 'x-forwarded-for': this.ip };
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (method !== 'GET') headers['content-type'] = 'application/json';
    if (csrf) headers['x-csrf-token'] = csrf;
    const res = await fetch(`${stack.gatewayUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const i = pair!.indexOf('=');
      const gone = attrs.some((a) => a.trim().toLowerCase() === 'max-age=0');
      if (gone) this.jar.delete(pair!.slice(0, i));
      else this.jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  }
}

const email = (label: string): string =>
  `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
const PASSWORD = 'correct horse battery';

async function signup(c: Client, address: string): Promise<void> {
  const res = await c.post('/api/auth/signup', { name: 'Gate Keeper', email: address, password: PASSWORD });
  expect(res.status).toBe(200);
  expect(res.body.session).toBeUndefined();
  expect(c.jar.get('sid')).toBeDefined();
}

describe('gateway + auth', () => {
  it('serves its health and OpenAPI document', async () => {
    const c = new Client();
    expect((await c.get('/api/health')).body).toMatchObject({ status: 'ok', checks: { nats: 'ok', redis: 'ok' } });
    const doc = (await c.get('/api/openapi.json')).body;
    expect(doc.paths['/api/auth/login'].post.requestBody).toBeDefined();
  });

  it('refuses unsafe requests without the CSRF token, including signup', async () => {
    const c = new Client();
    const res = await c.post(
      '/api/auth/signup',
      { name: 'No Token', email: email('csrf'), password: PASSWORD },
      'none',
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ERR_CSRF');
    const other = new Client();
    await other.get('/api/user');
    const stolen = await c.post(
      '/api/auth/signup',
      { name: 'No Token', email: email('csrf'), password: PASSWORD },
      other.jar.get('csrf-token'),
    );
    expect(stolen.status).toBe(403);
  });

  it('answers 401 on login-required calls without a session', async () => {
    const res = await new Client().post('/api/user/settings', { boardMinimap: 1 });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Session expired', code: 'ERR_UNAUTHORIZED', statusCode: 401 });
  });

  it('logs in, rotates the CSRF token, and logs out', async () => {
    const c = new Client();
    const address = email('login');
    await signup(c, address);
    const out = await c.post('/auth/logout');
    expect(out.status).toBe(200);
    expect(c.jar.has('sid')).toBe(false);
    expect((await c.get('/api/user')).body.id).toBe(0);

    const before = c.jar.get('csrf-token');
    const login = await c.post('/api/auth/login', { email: address, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.user.email).toBe(address);
    expect(login.body.session).toBeUndefined();
    expect(c.jar.get('csrf-token')).not.toBe(before);
    expect((await c.get('/api/user')).body.email).toBe(address);
    expect((await c.post('/api/user/settings', { boardMinimap: 1 })).status).toBe(200);
  });

  it('throttles one account from one address after 5 failures, not from another address', async () => {
    const address = email('throttle');
    await signup(new Client('10.1.1.1'), address);
    const attacker = new Client('10.6.6.6');
    for (let i = 0; i < 5; i++)
      expect((await attacker.post('/api/auth/login', { email: address, password: 'wrong password' })).status).toBe(400);
    const blocked = await attacker.post('/api/auth/login', { email: address, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('ERR_TOO_MANY_REQUESTS');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    const owner = new Client('10.2.2.2');
    expect((await owner.post('/api/auth/login', { email: address, password: PASSWORD })).status).toBe(200);
  }, 60_000);

  it('stops a logged-out session everywhere within a second', async () => {
    const a = new Client();
    await signup(a, email('revoke'));
    const stolenCookie = a.jar.get('sid')!;
    const thief = new Client();
    thief.jar.set('sid', stolenCookie);
    expect((await thief.get('/api/user')).body.id).toBeGreaterThan(0);
    expect((await a.post('/auth/logout')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect((await thief.get('/api/user')).body.id).toBe(0);
  });

  it('follows one request through gateway and auth in one trace', async () => {
    const c = new Client();
    await signup(c, email('trace'));
    const res = await c.get('/api/user');
    expect(res.status).toBe(200);
    const traceId = res.headers.get('x-trace-id');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const spans = await otlp.waitFor((all) => {
      const mine = all.filter((s) => s.traceId === traceId);
      return mine.some((s) => s.service === 'gateway') && mine.some((s) => s.service === 'auth');
    }, 15_000);
    const mine = spans.filter((s) => s.traceId === traceId);
    const services = new Set(mine.map((s) => s.service));
    expect(services).toEqual(new Set(['gateway', 'auth']));
    // the auth span descends from a gateway span
    const gatewayIds = new Set(mine.filter((s) => s.service === 'gateway').map((s) => s.spanId));
    expect(
      mine.some((s) => s.service === 'auth' && s.parentSpanId !== undefined && gatewayIds.has(s.parentSpanId)),
    ).toBe(true);
  }, 30_000);
});
