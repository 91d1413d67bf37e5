/**
 * The account life cycle through the real gateway and auth service (PostgreSQL, NATS, Redis, a
 * real SMTP server): signup → verification mail → link → verified → logout → login → settings,
 * plan, config, profile, unsubscribe, terminate; and the signup refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Pool } from 'pg';
import { startSmtpCatcher, startStack } from '@wb/platform/testing';
import type { RunningStack, SmtpCatcher } from '@wb/platform/testing';
import { DEFAULT_SETTINGS, GUEST_USER, PLANS, TERMINATE_CONFIRMATION_PHRASE } from '@wb/proto';
import { Browser, eventually, uniqueEmail } from './browser';

const APP_URL = 'http://app.test';

let stack: RunningStack;
let catcher: SmtpCatcher;
let db: Pool;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  // teams answers whether an account owns a business: terminate asks it first (and fails closed)
  stack = await startStack({
    deployables: ['services/auth', 'services/teams', 'gateway'],
    env: { SMTP_URL: catcher.url, APP_URL },
  });
  db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
}, 60_000);

afterAll(async () => {
  await db?.end();
  await stack?.stop();
  await catcher?.close();
});

async function outboxTypes(): Promise<string[]> {
  const { rows } = await db.query<{ type: string }>('SELECT type FROM auth.outbox ORDER BY id');
  return rows.map((r) => r.type);
}

describe('as a guest', () => {
  it('user, plan, settings and config answer the guest defaults (no 401 on the initial loads)', async () => {
    const guest = new Browser(stack.gatewayUrl);
    expect((await guest.get('/api/user')).body).toEqual(GUEST_USER);
    expect((await guest.get('/api/plan')).body).toEqual(PLANS.starter);
    expect((await guest.get('/api/user/settings')).body).toEqual(DEFAULT_SETTINGS);
    const config = await guest.get('/api/config');
    expect(config.status).toBe(200);
    expect(config.body).toEqual({
      plans: PLANS,
      flags: { signupEnabled: true, trialDays: 7, verificationResendWaitSeconds: 300, passwordMinLength: 8 },
      country: null,
    });
  });

  it('login-required calls answer 401', async () => {
    const guest = new Browser(stack.gatewayUrl);
    const res = await guest.post('/api/user/settings', { boardMinimap: 1 });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('ERR_UNAUTHORIZED');
  });
});

describe('signup refusals', () => {
  const guest = (): Browser => new Browser(stack.gatewayUrl);
  const valid = (): { name: string; email: string; password: string } => ({
    name: 'Ann Example',
    email: uniqueEmail('refused'),
    password: 'long enough pw',
  });

  it('a name shorter than 2 characters → ERR_NAME_TOO_SHORT', async () => {
    const res = await guest().post('/api/auth/signup', { ...valid(), name: ' A ' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ERR_NAME_TOO_SHORT');
  });

  it('a malformed address → ERR_EMAIL_INVALID', async () => {
    const res = await guest().post('/api/auth/signup', { ...valid(), email: 'not-an-address' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ERR_EMAIL_INVALID');
  });

  it('a throwaway domain → ERR_THROWAWAY_NOT_ALLOWED', async () => {
    const res = await guest().post('/api/auth/signup', { ...valid(), email: 'someone@mailinator.com' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ERR_THROWAWAY_NOT_ALLOWED');
  });

  it('a password under 8 or over 128 characters → ERR_INVALID_INPUT naming the field', async () => {
    for (const password of ['short', 'x'.repeat(129)]) {
      const res = await guest().post('/api/auth/signup', { ...valid(), password });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('ERR_INVALID_INPUT');
      expect(res.body.fields).toHaveProperty('password');
    }
  });
});

describe('an account from signup to termination', () => {
  const email = uniqueEmail('ann');
  const password = 'first password 1';
  let browser: Browser;
  const ann = (): Browser => browser;
  let userId: number;
  let unsubscribeLink: string;

  it('signs up: a session cookie, the user without any session token, onboarding on', async () => {
    browser = new Browser(stack.gatewayUrl);
    const res = await browser.post('/api/auth/signup', {
      name: '  Ann Example ',
      email: email.toUpperCase(),
      password,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: {
        id: expect.any(Number),
        name: 'Ann Example',
        picture: null,
        email,
        email_status: 'unverified',
        hasInvalidEmail: false,
        role: null,
      },
    });
    userId = res.body.user.id;
    expect(browser.cookie('sid')).toBeTruthy();
    expect(JSON.stringify(res.body)).not.toContain(browser.cookie('sid')!);
    expect((await browser.get('/api/user')).body.id).toBe(userId);
    const settings = (await browser.get('/api/user/settings')).body;
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, roleOnboarding: true });
    expect((await browser.get('/api/plan')).body).toEqual(PLANS.starter);
    expect(await outboxTypes()).toContain('auth.user.created.v1');
  });

  it('the same address in other case is taken → ERR_EMAIL_TAKEN', async () => {
    const res = await new Browser(stack.gatewayUrl).post('/api/auth/signup', {
      name: 'Other',
      email: email.replace('ann', 'ANN'),
      password: 'another password',
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('ERR_EMAIL_TAKEN');
  });

  it('gets a verification mail with absolute links; asking again within 5 minutes → ERR_VERIFICATION_WAIT', async () => {
    const mail = await catcher.waitFor(email, /verify/i);
    const verify = mail.links.find((l) => l.startsWith(`${APP_URL}/api/auth/verify-email?token=`));
    expect(verify).toBeDefined();
    unsubscribeLink = mail.links.find((l) => l.startsWith(`${APP_URL}/api/auth/unsubscribe?token=`))!;
    expect(unsubscribeLink).toBeDefined();

    const again = await ann().post('/api/user/send-verification');
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('ERR_VERIFICATION_WAIT');

    const broken = await new Browser(stack.gatewayUrl).get('/api/auth/verify-email?token=nonsense');
    expect(broken.status).toBe(302);
    expect(broken.location).toBe('/invalid-verification-link');

    // the link works from any browser (often opened on another device)
    const followed = await new Browser(stack.gatewayUrl).follow(verify!);
    expect(followed.status).toBe(302);
    expect(followed.location).toBe('/email-verified');
    expect((await ann().get('/api/user')).body.email_status).toBe('verified');
    expect(await outboxTypes()).toContain('auth.user.email_verified.v1');

    // opening it a second time still lands on the success page
    expect((await new Browser(stack.gatewayUrl).follow(verify!)).location).toBe('/email-verified');
    const sent = await ann().post('/api/user/send-verification');
    expect(sent.status).toBe(200);
    expect(sent.headers.get('x-notice')).toBe('ALREADY_VERIFIED');
  });

  it('logs out (POST /auth/logout), after which the session is gone', async () => {
    const res = await ann().post('/auth/logout');
    expect(res.status).toBe(200);
    expect(browser.cookie('sid')).toBeUndefined();
    expect((await ann().get('/api/user')).body).toEqual(GUEST_USER);
    expect((await ann().post('/api/user/settings', { boardMinimap: 1 })).status).toBe(401);
  });

  it('login: one ERR_LOGIN_FAILED for a wrong password and an unknown address', async () => {
    const wrong = await new Browser(stack.gatewayUrl).post('/api/auth/login', { email, password: 'not the password' });
    const unknown = await new Browser(stack.gatewayUrl).post('/api/auth/login', {
      email: uniqueEmail('nobody'),
      password: 'not the password',
    });
    expect(wrong.body.code).toBe('ERR_LOGIN_FAILED');
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.status).toBe(wrong.status);
  });

  it('logs in again with a new session id', async () => {
    const res = await ann().post('/api/auth/login', { email: email.toUpperCase(), password });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: userId, email, email_status: 'verified' });
    expect(res.body.session).toBeUndefined();
    expect((await ann().get('/api/user')).body.id).toBe(userId);

    // logging in over an existing session replaces it: new id, and the old cookie is dead
    const oldSid = browser.cookie('sid')!;
    expect((await ann().post('/api/auth/login', { email, password })).status).toBe(200);
    expect(browser.cookie('sid')).not.toBe(oldSid);
    expect((await ann().get('/api/user')).body.id).toBe(userId);
    const stale = new Browser(stack.gatewayUrl);
    stale.setCookie('sid', oldSid);
    await eventually(async () => (await stale.get('/api/user')).body.id === 0, 1500);
  });

  it('updates settings and answers the whole settings object', async () => {
    const res = await ann().post('/api/user/settings', {
      locale: 'de',
      boardMinimap: 1,
      toolStrokeColor: [255, 0, 10],
      penPresets: [{ color: [1, 2, 3], width: 4, pattern: 'dashed' }],
    });
    expect(res.status).toBe(200);
    const expected = {
      ...DEFAULT_SETTINGS,
      roleOnboarding: true,
      locale: 'de',
      boardMinimap: 1,
      toolStrokeColor: [255, 0, 10],
      penPresets: [{ color: [1, 2, 3], width: 4, pattern: 'dashed' }],
    };
    expect(res.body).toEqual(expected);
    expect((await ann().get('/api/user/settings')).body).toEqual(expected);
  });

  it('refuses every invalid field with ERR_INVALID_INPUT and changes nothing', async () => {
    const before = (await ann().get('/api/user/settings')).body;
    const invalid: Record<string, unknown> = {
      locale: 'xx',
      fileDrawerDock: 'left',
      role: 'admin',
      newBoardPermissions: 'owner',
      newBoardBackground: 'stars',
      newBoardDeleteOwnOnly: 2,
      boardMinimap: true,
      boardSnapping: '1',
      boardInertialPanning: -1,
      boardCollapsibleToolbar: null,
      showParticipantNames: 3,
      largeVideo: 'yes',
      toolStrokeColor: [0, 0, 256],
      toolStrokeWidth: 0,
      toolLinePattern: 'wavy',
      toolTextColor: 'black',
      toolTextSize: 5,
      toolTextFont: '',
      toolFormulaColor: [1, 2],
      toolFormulaSize: 201,
      toolFormulaAlignment: 'justify',
      penPresets: [{ color: [0, 0, 0], width: 0, pattern: 'pen' }],
      stylePresets: [{ name: '' }],
      roleOnboarding: 'no',
      emailProductUpdates: 2,
      notASetting: 1,
    };
    // every field of the settings schema has a case here
    expect(
      Object.keys(invalid)
        .filter((k) => k !== 'notASetting')
        .sort(),
    ).toEqual(Object.keys({ ...DEFAULT_SETTINGS, role: 'x' }).sort());
    for (const [key, value] of Object.entries(invalid)) {
      const res = await ann().post('/api/user/settings', { [key]: value });
      expect({ key, status: res.status, code: res.body.code }).toEqual({ key, status: 400, code: 'ERR_INVALID_INPUT' });
      expect(Object.keys(res.body.fields ?? {}).join()).toContain(key);
    }
    expect((await ann().get('/api/user/settings')).body).toEqual(before);
  });

  it('caps preset lists at the plan’s maxPresets → ERR_FEATURE_NOT_ENABLED', async () => {
    const pen = { color: [0, 0, 0], width: 3, pattern: 'pen' };
    const res = await ann().post('/api/user/settings', { penPresets: [pen, pen, pen, pen] });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ERR_FEATURE_NOT_ENABLED');
    expect((await ann().post('/api/user/settings', { penPresets: [pen, pen, pen] })).status).toBe(200);
  });

  it('choosing a role in settings ends onboarding, shows on the user and emits role_changed', async () => {
    const res = await ann().post('/api/user/settings', { role: 'teacher' });
    expect(res.body).toMatchObject({ role: 'teacher', roleOnboarding: false });
    expect((await ann().get('/api/user')).body.role).toBe('teacher');
    expect(await outboxTypes()).toContain('auth.user.role_changed.v1');
  });

  it('page-load reads are cached yet show a change at once (NOTIFY invalidation), also one made behind the service', async () => {
    await ann().get('/api/user'); // fills the cache
    await ann().get('/api/user');
    expect((await ann().post('/api/user/profile', { name: 'Ann Cached' })).status).toBe(200);
    expect((await ann().get('/api/user')).body.name).toBe('Ann Cached');
    // a write that does not go through the service at all (an operator's SQL) invalidates too
    await db.query(`UPDATE auth.users SET name = 'Ann From SQL' WHERE id = $1`, [userId]);
    await eventually(async () => (await ann().get('/api/user')).body.name === 'Ann From SQL', 1000);
  });

  it('updates the profile: name, picture and role (one value with settings.role)', async () => {
    const short = await ann().post('/api/user/profile', { name: 'A' });
    expect(short.body.code).toBe('ERR_NAME_TOO_SHORT');
    const badPicture = await ann().post('/api/user/profile', { picture: 'javascript:alert(1)' });
    expect(badPicture.body.code).toBe('ERR_INVALID_INPUT');
    const res = await ann().post('/api/user/profile', {
      name: 'Ann Teacher',
      picture: 'https://img.example.com/ann.png',
      role: 'student',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: userId,
      name: 'Ann Teacher',
      picture: 'https://img.example.com/ann.png',
      role: 'student',
    });
    expect((await ann().get('/api/user/settings')).body.role).toBe('student');
    expect((await ann().post('/api/user/profile', { picture: null })).body.picture).toBeNull();
    const { rows } = await db.query<{ data: { role: string; previousRole: string } }>(
      `SELECT data FROM auth.outbox WHERE type = 'auth.user.role_changed.v1' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]!.data).toMatchObject({ role: 'student', previousRole: 'teacher' });
  });

  it('unsubscribes from product updates through the mailed link', async () => {
    expect((await new Browser(stack.gatewayUrl).get('/api/auth/unsubscribe?token=1.forged')).location).toBe(
      '/invalid-unsubscribe-link',
    );
    const res = await new Browser(stack.gatewayUrl).follow(unsubscribeLink);
    expect(res.status).toBe(302);
    expect(res.location).toBe('/unsubscribed');
    expect((await ann().get('/api/user/settings')).body.emailProductUpdates).toBe(0);
  });

  it('terminates only with the confirmation phrase; then the session and the login are gone', async () => {
    const wrong = await ann().post('/api/user/terminate', { confirmation: 'please' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('ERR_CONFIRMATION_FAILED');
    expect((await ann().get('/api/user')).body.id).toBe(userId);

    const res = await ann().post('/api/user/terminate', { confirmation: TERMINATE_CONFIRMATION_PHRASE });
    expect(res.status).toBe(200);
    expect(browser.cookie('sid')).toBeUndefined();
    expect((await ann().get('/api/user')).body).toEqual(GUEST_USER);
    expect(await outboxTypes()).toContain('auth.user.terminated.v1');
    // the relay publishes every event to JetStream
    await eventually(
      async () => (await db.query('SELECT 1 FROM auth.outbox WHERE published_at IS NULL')).rowCount === 0,
      5000,
    );
    const login = await new Browser(stack.gatewayUrl).post('/api/auth/login', { email, password });
    expect(login.body.code).toBe('ERR_LOGIN_FAILED');
    const { rows } = await db.query<{ name: string; email: string }>(
      'SELECT name, email FROM auth.users WHERE id = $1',
      [userId],
    );
    expect(rows[0]!.email).not.toContain(email);
    expect(rows[0]!.name).not.toContain('Ann');
  });
});

describe('metrics', () => {
  it('counts signups and logins by outcome on the health server’s /metrics', async () => {
    const port = stack.envOf('services/auth').HEALTH_PORT;
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(text).toMatch(/auth_signups_total\{outcome="ok"\} [1-9]/);
    expect(text).toMatch(/auth_signups_total\{outcome="ERR_EMAIL_TAKEN"\} [1-9]/);
    expect(text).toMatch(/auth_logins_total\{outcome="failed"\} [1-9]/);
    expect(text).toMatch(/auth_logins_total\{outcome="ok"\} [1-9]/);
  });
});

describe('logs', () => {
  it('the auth service logged no error (contract mismatches, unhandled failures)', () => {
    const bad = stack.logs('services/auth').filter((line) => /"level":"(error|fatal)"|REPLY DOES NOT MATCH/.test(line));
    expect(bad).toEqual([]);
  });
});
