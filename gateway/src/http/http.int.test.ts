import request from 'supertest';
import { AppError } from '@wb/proto';
import { reply } from '../testing/fakes';
import { fixtureRoutes } from '../testing/fixtures';
import { cookieHeader, setCookies, startHarness } from '../testing/harness';
import type { Harness } from '../testing/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ routes: fixtureRoutes });
});
afterAll(() => h.close());

/** A first visit: returns the anonymous cookies a browser would then hold. */
async function visit(): Promise<{ cookie: string; csrf: string }> {
  const res = await request(h.app).get('/api/echo?n=1');
  const c = setCookies(res.headers);
  return {
    cookie: cookieHeader({ anon: c.anon!.value, 'csrf-token': c['csrf-token']!.value }),
    csrf: c['csrf-token']!.value,
  };
}

describe('input validation', () => {
  beforeAll(() => {
    h.bus.on('boards', 'echo', (input) => input);
    h.bus.on('auth', 'settings.update', () => ({ ok: true }));
  });

  it('answers 400 ERR_INVALID_INPUT naming every bad field', async () => {
    const { id } = await h.createSession(11).then((s) => ({ id: s.token }));
    const page = await request(h.app).get('/api/echo?n=1').set('Cookie', `sid=${id}`);
    const csrf = setCookies(page.headers)['csrf-token']!.value;
    const res = await request(h.app)
      .post('/api/user/settings')
      .set('Cookie', cookieHeader({ sid: id, 'csrf-token': csrf }))
      .set('x-csrf-token', csrf)
      .send({ locale: 'xx', toolTextSize: 2, bogus: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'ERR_INVALID_INPUT', statusCode: 400 });
    expect(Object.keys(res.body.fields).sort()).toEqual(['bogus', 'locale', 'toolTextSize']);
    expect(res.body.message).toMatch(/^Invalid input: /);
    for (const f of ['locale', 'toolTextSize', 'bogus']) expect(res.body.message).toContain(f);
    expect(h.bus.callsOf('auth', 'settings.update')).toHaveLength(0);
  });

  it('validates and coerces the query; unknown query keys never reach the service', async () => {
    const bad = await request(h.app).get('/api/echo?n=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('n');
    const ok = await request(h.app).get('/api/echo?n=42&tag=x');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ n: 42, tag: 'x' });
  });

  it('joins multi-segment params', async () => {
    h.bus.on('files', 'path', (input) => input);
    const res = await request(h.app).get('/api/files/a/b/c.txt');
    expect(res.body).toEqual({ path: 'a/b/c.txt' });
  });
});

describe('JSON only', () => {
  it('refuses a non-JSON body with 415', async () => {
    const v = await visit();
    const res = await request(h.app)
      .post('/auth/login')
      .set('Cookie', v.cookie)
      .set('x-csrf-token', v.csrf)
      .set('Content-Type', 'text/plain')
      .send('email=a');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      message: 'Requests must be sent as JSON',
      code: 'ERR_UNSUPPORTED_MEDIA_TYPE',
      statusCode: 415,
    });
  });

  it('refuses a form post with 415', async () => {
    const res = await request(h.app).post('/auth/login').type('form').send({ email: 'a@b.c' });
    expect(res.status).toBe(415);
  });

  it('refuses a body over the limit with 413', async () => {
    const v = await visit();
    const res = await request(h.app)
      .post('/auth/login')
      .set('Cookie', v.cookie)
      .set('x-csrf-token', v.csrf)
      .send({ email: 'a@b.c', password: 'x'.repeat(150 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'ERR_PAYLOAD_TOO_LARGE', statusCode: 413 });
  });

  it('answers malformed JSON with 400', async () => {
    const v = await visit();
    const res = await request(h.app)
      .post('/auth/login')
      .set('Cookie', v.cookie)
      .set('x-csrf-token', v.csrf)
      .set('Content-Type', 'application/json')
      .send('{"email":');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'ERR_INVALID_INPUT', statusCode: 400, message: 'Malformed JSON body' });
  });
});

describe('replies', () => {
  it('passes notice and redirect as headers', async () => {
    h.bus.on('boards', 'notify', () => reply(null, { notice: 'VERIFICATION_EMAIL_SENT', redirect: '/dashboard' }));
    const v = await visit();
    const res = await request(h.app).post('/api/notify').set('Cookie', v.cookie).set('x-csrf-token', v.csrf);
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect(res.headers['x-notice']).toBe('VERIFICATION_EMAIL_SENT');
    expect(res.headers['x-redirect']).toBe('/dashboard');
  });

  it("answers 302 for reply:'redirect' routes and never redirects off-site", async () => {
    h.bus.on('auth', 'email.verify', (input) =>
      reply(null, {
        redirect: (input as { token: string }).token === 'goodtoken' ? '/email-verified' : '//evil.example',
      }),
    );
    const ok = await request(h.app).get('/auth/verify-email?token=goodtoken');
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toBe('/email-verified');
    const evil = await request(h.app).get('/auth/verify-email?token=badtoken1');
    expect(evil.headers.location).toBe('/');
  });

  it("uses the route's input builder and sends the actor", async () => {
    const s = await h.createSession(5);
    h.bus.on('boards', 'rename', (input) => input);
    const page = await request(h.app)
      .get('/api/echo?n=1')
      .set('Cookie', `sid=${s.token}`)
      .set('Accept-Language', 'de-DE,de;q=0.9,en;q=0.5')
      .set('User-Agent', 'jest');
    const csrf = setCookies(page.headers)['csrf-token']!.value;
    const res = await request(h.app)
      .put('/api/boards/b1')
      .set('Cookie', cookieHeader({ sid: s.token, 'csrf-token': csrf }))
      .set('x-csrf-token', csrf)
      .set('Accept-Language', 'fr')
      .set('cf-ipcountry', 'EE')
      .send({ title: 'New' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'b1', title: 'New' });
    const call = h.bus.callsOf('boards', 'rename').at(-1)!;
    // country only from a trusted proxy: TRUST_PROXY is off here
    expect(call.actor).toEqual({ userId: 5, sessionId: s.sessionId, ip: expect.any(String), locale: 'fr' });
  });

  it('passes AppErrors from services through', async () => {
    h.bus.on('boards', 'boom', () => {
      throw new AppError('ERR_BOARD_NOT_FOUND');
    });
    const v = await visit();
    const res = await request(h.app).delete('/api/boom').set('Cookie', v.cookie).set('x-csrf-token', v.csrf);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Board not found', code: 'ERR_BOARD_NOT_FOUND', statusCode: 404 });
  });

  it('turns anything else into a 500 without internals, and logs it', async () => {
    h.bus.on('boards', 'boom', () => {
      throw new Error('connect ECONNREFUSED db-primary:5432 password=hunter2');
    });
    const v = await visit();
    const res = await request(h.app).delete('/api/boom').set('Cookie', v.cookie).set('x-csrf-token', v.csrf);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      message: 'Something went wrong. Please try again.',
      code: 'ERR_UNKNOWN',
      statusCode: 500,
    });
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
    expect(h.logText()).toContain('ECONNREFUSED');
  });
});

describe('transport', () => {
  it('answers unknown API paths with 404 JSON', async () => {
    for (const path of ['/api/nope', '/api', '/auth/nope/deeper']) {
      const res = await request(h.app).get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Not found', code: 'ERR_NOT_FOUND', statusCode: 404 });
    }
  });

  it('sets security headers and hides the framework', async () => {
    const res = await request(h.app).get('/api/echo?n=1');
    expect(res.headers['x-powered-by']).toBeUndefined();
    const csp = res.headers['content-security-policy'] as string;
    // WebAssembly (Automerge on the board page) may compile; eval() stays forbidden
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
  });

  it('serves health and records request metrics by route pattern', async () => {
    const health = await request(h.app).get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', service: 'gateway', checks: {} });
    await request(h.app).get('/api/files/x/y');
    const text = await h.metrics.metrics();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/files\/:path\(\*\)",status="200"\} \d+/,
    );
    expect(text).toMatch(/route="\(not found\)",status="404"/);
  });

  it('logs method, path without query, status and no cookies or tokens', async () => {
    const s = await h.createSession(3);
    await request(h.app).get('/api/echo?n=7&secret=shh').set('Cookie', `sid=${s.token}`);
    const line = h
      .logText()
      .split('\n')
      .filter((l) => l.includes('"path":"/api/echo"'))
      .at(-1)!;
    const entry = JSON.parse(line) as Record<string, unknown>;
    expect(entry).toMatchObject({ method: 'GET', path: '/api/echo', status: 200, msg: 'request' });
    expect(typeof entry.ms).toBe('number');
    expect(h.logText()).not.toContain(s.token);
    expect(h.logText()).not.toContain('shh');
  });

  it('explains how to build the web app when it is missing', async () => {
    const res = await request(h.app).get('/').set('Accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.text).toContain('npm run build -w @wb/web');
  });
});
