import request from 'supertest';
import { AppError } from '@wb/proto';
import { sessionIdOf } from '@wb/platform';
import { isCsrfTokenValid, mintAnonId, mintCsrfToken } from './csrf';
import { fixtureRoutes } from '../testing/fixtures';
import { cookieHeader, setCookies, startHarness } from '../testing/harness';
import type { Harness } from '../testing/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ routes: fixtureRoutes });
  h.bus.on('boards', 'notify', () => null);
  h.bus.on('auth', 'user.get', (_input, actor) => ({ id: actor.userId, name: `user ${actor.userId}` }));
  h.bus.on('auth', 'logout', () => null);
});
afterAll(() => h.close());

async function visit(cookie = ''): Promise<{ anon: string; csrf: string }> {
  const res = await request(h.app).get('/api/echo?n=1').set('Cookie', cookie);
  const c = setCookies(res.headers);
  return { anon: c.anon!.value, csrf: c['csrf-token']!.value };
}
const post = (cookies: Record<string, string | undefined>, header?: string) => {
  const r = request(h.app).post('/api/notify').set('Cookie', cookieHeader(cookies));
  return header === undefined ? r : r.set('x-csrf-token', header);
};

describe('CSRF', () => {
  it('issues an anonymous binding and a readable token on the first visit', async () => {
    const res = await request(h.app).get('/api/echo?n=1');
    const c = setCookies(res.headers);
    expect(c.anon!.attrs).toBe('Path=/; SameSite=Lax; HttpOnly');
    expect(c['csrf-token']!.attrs).toBe('Path=/; SameSite=Lax');
    expect(isCsrfTokenValid(h.config.csrfSecret, c.anon!.value, c['csrf-token']!.value)).toBe(true);
  });

  it('does not re-issue a token that is still valid', async () => {
    const v = await visit();
    const res = await request(h.app)
      .get('/api/echo?n=1')
      .set('Cookie', cookieHeader({ anon: v.anon, 'csrf-token': v.csrf }));
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('accepts the token in the header or the body field', async () => {
    const v = await visit();
    expect((await post({ anon: v.anon, 'csrf-token': v.csrf }, v.csrf)).status).toBe(200);
    const viaBody = await request(h.app)
      .put('/api/boards/b1')
      .set('Cookie', cookieHeader({ anon: v.anon, 'csrf-token': v.csrf }))
      .send({ title: 'x', 'csrf-token': v.csrf });
    // past CSRF (the strict body schema did not see the field) and stopped by auth: 401
    expect(viaBody.status).toBe(401);
  });

  it('refuses a missing header', async () => {
    const v = await visit();
    const res = await post({ anon: v.anon, 'csrf-token': v.csrf });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.any(String), code: 'ERR_CSRF', statusCode: 403 });
  });

  it('refuses a missing cookie', async () => {
    const v = await visit();
    expect((await post({ anon: v.anon }, v.csrf)).status).toBe(403);
  });

  it('refuses a forged token', async () => {
    const v = await visit();
    const forged = `${v.csrf.slice(0, 23)}${'A'.repeat(43)}`;
    expect((await post({ anon: v.anon, 'csrf-token': forged }, forged)).status).toBe(403);
    expect((await post({ anon: v.anon, 'csrf-token': 'x' }, 'x')).status).toBe(403);
  });

  it("refuses another visitor's (valid) token", async () => {
    const mine = await visit();
    const theirs = await visit();
    const res = await post({ anon: mine.anon, 'csrf-token': theirs.csrf }, theirs.csrf);
    expect(res.status).toBe(403);
    // and hands out a token that fits this visitor
    const fresh = setCookies(res.headers)['csrf-token']!.value;
    expect(isCsrfTokenValid(h.config.csrfSecret, mine.anon, fresh)).toBe(true);
  });

  it('refuses a header that differs from the cookie, even if both are valid', async () => {
    const v = await visit();
    const other = mintCsrfToken(h.config.csrfSecret, v.anon);
    expect((await post({ anon: v.anon, 'csrf-token': v.csrf }, other)).status).toBe(403);
  });

  it("refuses a session user's request carrying an anonymous token", async () => {
    const s = await h.createSession(21);
    const v = await visit();
    expect((await post({ sid: s.token, anon: v.anon, 'csrf-token': v.csrf }, v.csrf)).status).toBe(403);
    const tokenForSession = mintCsrfToken(h.config.csrfSecret, s.sessionId);
    expect((await post({ sid: s.token, 'csrf-token': tokenForSession }, tokenForSession)).status).toBe(200);
  });

  it('guards login too (anonymous binding)', async () => {
    h.bus.on('auth', 'login', () => ({ id: 1, name: 'A' }));
    const res = await request(h.app)
      .post('/auth/login')
      .set('Cookie', `anon=${mintAnonId()}`)
      .send({ email: 'a@b.cd', password: 'pw' });
    expect(res.status).toBe(403);
    expect(h.bus.callsOf('auth', 'login')).toHaveLength(0);
  });
});

describe('sessions', () => {
  it('answers 401 Session expired on required routes without a session', async () => {
    const res = await request(h.app).get('/api/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Session expired', code: 'ERR_UNAUTHORIZED', statusCode: 401 });
  });

  it('answers 401 before CSRF for an expired session, and clears the dead cookie', async () => {
    const res = await request(h.app)
      .post('/auth/logout')
      .set('Cookie', `sid=${'z'.repeat(43)}`);
    expect(res.status).toBe(401);
    const c = setCookies(res.headers);
    expect(c.sid).toEqual({ value: '', attrs: 'Path=/; SameSite=Lax; Max-Age=0; HttpOnly' });
  });

  it('resolves a session from Redis and passes the user to the service', async () => {
    const s = await h.createSession(42);
    const res = await request(h.app).get('/api/user').set('Cookie', `sid=${s.token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 42, name: 'user 42' });
  });

  it('asks auth on a Redis miss', async () => {
    const s = await h.createSession(43);
    await h.store.remove([s.sessionId]);
    h.bus.on('auth', 'session.resolve', (input) =>
      (input as { sessionId: string }).sessionId === s.sessionId
        ? { sessionId: s.sessionId, userId: 43, expiresAt: Date.now() + 60_000 }
        : null,
    );
    try {
      const res = await request(h.app).get('/api/user').set('Cookie', `sid=${s.token}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(43);
      // both bus calls of the request belong to its trace (the gateway hands the context over)
      const lookup = h.bus.callsOf('auth', 'session.resolve').at(-1);
      const user = h.bus.callsOf('auth', 'user.get').at(-1);
      expect(lookup?.parent).toBeDefined();
      expect(lookup?.parent).toBe(user?.parent);
    } finally {
      h.bus.on('auth', 'session.resolve', () => null);
    }
  });

  it('answers 503 (and keeps the cookie) when sessions cannot be resolved', async () => {
    h.bus.on('auth', 'session.resolve', () => {
      throw new AppError('ERR_SERVICE_UNAVAILABLE');
    });
    try {
      const res = await request(h.app)
        .get('/api/user')
        .set('Cookie', `sid=${'q'.repeat(43)}`);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('ERR_SERVICE_UNAVAILABLE');
      expect(setCookies(res.headers).sid).toBeUndefined();
      // the web app's page still loads
      expect(
        (
          await request(h.app)
            .get('/')
            .set('Accept', 'text/html')
            .set('Cookie', `sid=${'q'.repeat(43)}`)
        ).status,
      ).toBe(200);
    } finally {
      h.bus.on('auth', 'session.resolve', () => null);
    }
  });

  it('does not look up malformed tokens', async () => {
    const before = h.bus.callsOf('auth', 'session.resolve').length;
    for (const bad of ['short', `${'a'.repeat(40)}!`, 'x'.repeat(600)]) {
      expect((await request(h.app).get('/api/user').set('Cookie', `sid=${bad}`)).status).toBe(401);
    }
    expect(h.bus.callsOf('auth', 'session.resolve')).toHaveLength(before);
  });

  it('stops a revoked session within 1 s without asking Redis on every request', async () => {
    const s = await h.createSession(44);
    const get = () => request(h.app).get('/api/user').set('Cookie', `sid=${s.token}`);
    expect((await get()).status).toBe(200);
    await h.store.remove([s.sessionId]);
    const removedAt = Date.now();
    let status = 200;
    while (status === 200) {
      status = (await get()).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
    expect(Date.now() - removedAt).toBeLessThanOrEqual(1100);
  });

  it('drops a session at once on a revocation broadcast', async () => {
    const s = await h.createSession(45);
    const get = () => request(h.app).get('/api/user').set('Cookie', `sid=${s.token}`);
    expect((await get()).status).toBe(200);
    await h.store.remove([s.sessionId]);
    h.sessions.forget([s.sessionId]);
    expect((await get()).status).toBe(401);
  });

  it("login ('issue') sets the session cookie, strips the grant and rotates the CSRF token", async () => {
    const grantToken = 'g'.repeat(20) + Math.random().toString(36).slice(2).padEnd(24, 'x');
    const expiresAt = Date.now() + 3600_000;
    h.bus.on('auth', 'login', async () => {
      await h.store.put({ sessionId: sessionIdOf(grantToken), userId: 77, expiresAt });
      return { id: 77, name: 'Ann', session: { token: grantToken, expiresAt } };
    });
    const v = await visit();
    const res = await request(h.app)
      .post('/auth/login')
      .set('Cookie', cookieHeader({ anon: v.anon, 'csrf-token': v.csrf }))
      .set('x-csrf-token', v.csrf)
      .send({ email: 'ann@example.com', password: 'secret-pw' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 77, name: 'Ann' });
    const c = setCookies(res.headers);
    expect(c.sid!.value).toBe(grantToken);
    expect(c.sid!.attrs).toMatch(/^Path=\/; SameSite=Lax; Max-Age=(3599|3600); HttpOnly$/);
    const csrf = c['csrf-token']!.value;
    expect(csrf).not.toBe(v.csrf);
    expect(isCsrfTokenValid(h.config.csrfSecret, sessionIdOf(grantToken), csrf)).toBe(true);
    // exactly one csrf cookie in the response
    expect((res.headers['set-cookie'] as unknown as string[]).filter((l) => l.startsWith('csrf-token='))).toHaveLength(
      1,
    );

    // the new cookies work for the next request; the old token no longer does
    const next = { sid: grantToken, anon: v.anon, 'csrf-token': csrf };
    expect((await request(h.app).get('/api/user').set('Cookie', cookieHeader(next))).body.id).toBe(77);
    expect((await post({ ...next, 'csrf-token': v.csrf }, v.csrf)).status).toBe(403);

    // logout ('end') clears the session and rotates the token back to the anonymous binding
    const out = await request(h.app).post('/auth/logout').set('Cookie', cookieHeader(next)).set('x-csrf-token', csrf);
    expect(out.status).toBe(200);
    const oc = setCookies(out.headers);
    expect(oc.sid!.attrs).toContain('Max-Age=0');
    expect(isCsrfTokenValid(h.config.csrfSecret, v.anon, oc['csrf-token']!.value)).toBe(true);
    // the gateway forgot the session locally (auth revokes it in Redis)
    await h.store.remove([sessionIdOf(grantToken)]);
    expect((await request(h.app).get('/api/user').set('Cookie', `sid=${grantToken}`)).status).toBe(401);
  });

  it('answers 500 without details when a login reply carries a malformed grant', async () => {
    h.bus.on('auth', 'login', () => ({ id: 1, name: 'A', session: { token: 'short' } }));
    const v = await visit();
    const res = await request(h.app)
      .post('/auth/login')
      .set('Cookie', cookieHeader({ anon: v.anon, 'csrf-token': v.csrf }))
      .set('x-csrf-token', v.csrf)
      .send({ email: 'bad-grant@example.com', password: 'pw' });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('ERR_UNKNOWN');
    expect(setCookies(res.headers).sid).toBeUndefined();
  });
});

describe('cookies over https', () => {
  let hs: Harness;
  beforeAll(async () => {
    hs = await startHarness({ routes: fixtureRoutes, env: { PUBLIC_URL: 'https://boards.example.com' } });
  });
  afterAll(() => hs.close());

  it('uses __Host- names and Secure', async () => {
    const grant = { token: 'h'.repeat(43), expiresAt: Date.now() + 600_000 };
    hs.bus.on('auth', 'login', () => ({ id: 5, name: 'B', session: grant }));
    const first = setCookies((await request(hs.app).get('/api/echo?n=1')).headers);
    expect(first['__Host-anon']!.attrs).toBe('Path=/; SameSite=Lax; HttpOnly; Secure');
    expect(first['__Host-csrf-token']!.attrs).toBe('Path=/; SameSite=Lax; Secure');
    const anon = first['__Host-anon']!.value;
    const csrf = first['__Host-csrf-token']!.value;
    const res = await request(hs.app)
      .post('/auth/login')
      .set('Cookie', cookieHeader({ '__Host-anon': anon, '__Host-csrf-token': csrf }))
      .set('x-csrf-token', csrf)
      .send({ email: 'b@example.com', password: 'pw' });
    expect(res.status).toBe(200);
    const c = setCookies(res.headers);
    expect(c['__Host-sid']!.attrs).toMatch(/^Path=\/; SameSite=Lax; Max-Age=(599|600); HttpOnly; Secure$/);
    expect(c['__Host-csrf-token']!.attrs).toBe('Path=/; SameSite=Lax; Secure');
    expect(c.sid).toBeUndefined();
    const hsts = (await request(hs.app).get('/api/health')).headers['strict-transport-security'];
    expect(hsts).toContain('max-age=31536000');
  });

  it('ignores the plain cookie names', async () => {
    const s = await hs.createSession(9);
    expect((await request(hs.app).get('/api/user').set('Cookie', `sid=${s.token}`)).status).toBe(401);
    hs.bus.on('auth', 'user.get', (_i, actor) => ({ id: actor.userId, name: 'x' }));
    expect((await request(hs.app).get('/api/user').set('Cookie', `__Host-sid=${s.token}`)).status).toBe(200);
  });
});
