import request from 'supertest';
import { AppError } from '@wb/proto';
import { fixtureRoutes } from '../testing/fixtures';
import { cookieHeader, setCookies, startHarness } from '../testing/harness';
import type { Harness } from '../testing/harness';
import { DEFAULT_THROTTLE_LIMITS } from './throttle';

const PASSWORD = 'right-password';

function loginService(h: Harness): void {
  h.bus.on('auth', 'login', (input) => {
    const { email, password } = input as { email: string; password: string };
    if (password !== PASSWORD) throw new AppError('ERR_LOGIN_FAILED');
    if (email.startsWith('down')) throw new AppError('ERR_TEMPORARY_PROBLEM');
    return { id: 1, name: email, session: { token: `tok-${email}-${'x'.repeat(32)}`, expiresAt: Date.now() + 60_000 } };
  });
}

/** A browser at `ip`: its own anonymous CSRF binding, and whatever device cookie it was given. */
async function browser(h: Harness, ip: string) {
  const first = setCookies((await request(h.app).get('/api/echo?n=1').set('X-Forwarded-For', ip)).headers);
  const jar: Record<string, string> = { anon: first.anon!.value, 'csrf-token': first['csrf-token']!.value };
  return {
    jar,
    async login(email: string, password: string) {
      const res = await request(h.app)
        .post('/auth/login')
        .set('X-Forwarded-For', ip)
        .set('Cookie', cookieHeader({ ...jar, sid: undefined }))
        .set('x-csrf-token', jar['csrf-token']!)
        .send({ email, password });
      const c = setCookies(res.headers);
      if (c.dev) jar.dev = c.dev.value;
      // stay logged out (keeps the anonymous binding): drop the session cookie and its token
      return res;
    },
  };
}

describe('login throttling (default limits)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ routes: fixtureRoutes, env: { TRUST_PROXY: 'true' } });
    loginService(h);
  });
  afterAll(() => h.close());

  it('answers 429 after 5 failures for one account and address; another address may still log in', async () => {
    const a = await browser(h, '203.0.113.1');
    for (let i = 0; i < 5; i++) expect((await a.login('Victim@Example.com', 'wrong')).status).toBe(400);
    const blocked = await a.login('victim@example.com', PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'ERR_TOO_MANY_REQUESTS', statusCode: 429 });
    expect(blocked.body.message).toMatch(/Too many failed login attempts\. Please wait 15 minutes/);
    const retry = Number(blocked.headers['retry-after']);
    expect(retry).toBeGreaterThan(14 * 60);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    // the service was not asked
    expect(h.bus.callsOf('auth', 'login')).toHaveLength(5);

    const b = await browser(h, '198.51.100.7');
    const ok = await b.login('victim@example.com', PASSWORD);
    expect(ok.status).toBe(200);
  });

  it('a success resets the (account, address) counter', async () => {
    const a = await browser(h, '203.0.113.2');
    for (let i = 0; i < 4; i++) expect((await a.login('reset@example.com', 'wrong')).status).toBe(400);
    expect((await a.login('reset@example.com', PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await a.login('reset@example.com', 'wrong')).status).toBe(400);
    expect((await a.login('reset@example.com', 'wrong')).status).toBe(400);
    expect((await a.login('reset@example.com', PASSWORD)).status).toBe(429);
  });

  it('does not count answers other than ERR_LOGIN_FAILED', async () => {
    const a = await browser(h, '203.0.113.3');
    for (let i = 0; i < 6; i++) expect((await a.login('down@example.com', PASSWORD)).status).toBe(503);
    // invalid input never reaches the throttle either
    for (let i = 0; i < 6; i++) expect((await a.login('not-an-email', 'x')).status).toBe(400);
    expect((await a.login('down@example.com', 'wrong')).status).toBe(400);
  });

  it('counts parallel guesses in full', async () => {
    const a = await browser(h, '203.0.113.4');
    const results = await Promise.all(Array.from({ length: 12 }, () => a.login('burst@example.com', 'wrong')));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });
});

describe('login throttling across addresses and accounts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      routes: fixtureRoutes,
      env: { TRUST_PROXY: 'true' },
      deps: {
        throttleLimits: {
          ...DEFAULT_THROTTLE_LIMITS,
          perAddress: 6,
          accountThreshold: 4,
          accountDelayMs: 1500,
          accountDelayCapMs: 3000,
        },
      },
    });
    loginService(h);
  });
  afterAll(() => h.close());

  it('limits one address across many accounts', async () => {
    const a = await browser(h, '192.0.2.50');
    for (let i = 0; i < 6; i++) expect((await a.login(`spray${i}@example.com`, 'wrong')).status).toBe(400);
    const res = await a.login('spray-next@example.com', 'wrong');
    expect(res.status).toBe(429);
    expect(res.body.message).toContain('from your network');
  });

  it('slows an account attacked from many addresses, but not its owner on a trusted device', async () => {
    const owner = await browser(h, '192.0.2.1');
    expect((await owner.login('owner@example.com', PASSWORD)).status).toBe(200);
    expect(owner.jar.dev).toMatch(/^[\w-]+\.[\w-]+$/);

    for (let i = 0; i < 4; i++)
      expect((await (await browser(h, `192.0.2.${100 + i}`)).login('owner@example.com', 'wrong')).status).toBe(400);
    // threshold reached: the next attempt from anywhere passes and closes the gate for 1.5 s
    const stranger = await browser(h, '192.0.2.200');
    expect((await stranger.login('owner@example.com', 'wrong')).status).toBe(400);
    const slowed = await stranger.login('owner@example.com', PASSWORD);
    expect(slowed.status).toBe(429);
    expect(slowed.body.message).toContain('This account is protected');
    expect(Number(slowed.headers['retry-after'])).toBe(2);

    // the owner's browser (device cookie from an earlier login) is not held up
    expect((await owner.login('owner@example.com', PASSWORD)).status).toBe(200);

    // and the delay is a delay, not a lock
    await new Promise((r) => setTimeout(r, 1600));
    expect((await stranger.login('owner@example.com', PASSWORD)).status).toBe(200);
  });

  it('does not trust a forged device cookie', async () => {
    const owner = await browser(h, '192.0.2.2');
    expect((await owner.login('owner2@example.com', PASSWORD)).status).toBe(200);
    for (let i = 0; i < 5; i++) await (await browser(h, `192.0.2.${110 + i}`)).login('owner2@example.com', 'wrong');
    const forger = await browser(h, '192.0.2.201');
    forger.jar.dev = `${owner.jar.dev!.split('.')[0]}.${'A'.repeat(43)}`;
    expect((await forger.login('owner2@example.com', PASSWORD)).status).toBe(429);
  });
});
