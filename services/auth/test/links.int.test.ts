/**
 * Password change, password recovery and change of email through the real gateway, following
 * the links that arrive at a real SMTP server; sessions revoked in one place stop working in
 * every other browser within about a second.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSmtpCatcher, startStack } from '@wb/platform/testing';
import type { RunningStack, SmtpCatcher } from '@wb/platform/testing';
import { GUEST_USER } from '@wb/proto';
import { Browser, eventually, sleep, uniqueEmail } from './browser';

const APP_URL = 'http://app.test';

let stack: RunningStack;
let catcher: SmtpCatcher;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  stack = await startStack({ deployables: ['services/auth', 'gateway'], env: { SMTP_URL: catcher.url, APP_URL } });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await catcher?.close();
});

const browser = (): Browser => new Browser(stack.gatewayUrl);

async function signup(label: string, password: string): Promise<{ b: Browser; email: string; id: number }> {
  const b = browser();
  const email = uniqueEmail(label);
  const res = await b.post('/api/auth/signup', { name: `${label} user`, email, password });
  expect(res.status).toBe(200);
  return { b, email, id: res.body.user.id };
}

async function login(email: string, password: string): Promise<Browser> {
  const b = browser();
  const res = await b.post('/api/auth/login', { email, password });
  expect({ status: res.status, code: res.body?.code }).toEqual({ status: 200, code: undefined });
  return b;
}

/** a login-required call: 401 once the browser's session has been revoked */
const loggedIn = async (b: Browser): Promise<boolean> => (await b.post('/api/user/send-verification')).status !== 401;

function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token')!;
}

describe('changing the password', () => {
  it('needs the current password, ends the OTHER sessions within ~1 s and keeps this one', async () => {
    const { b: here, email } = await signup('pwchange', 'first password');
    const elsewhere = await login(email, 'first password');
    expect(await loggedIn(elsewhere)).toBe(true);

    const wrong = await here.post('/api/user/password', {
      currentPassword: 'not it at all',
      newPassword: 'second password',
    });
    expect(wrong.body.code).toBe('ERR_INVALID_CREDENTIALS');
    const short = await here.post('/api/user/password', { currentPassword: 'first password', newPassword: 'short' });
    expect(short.body.code).toBe('ERR_INVALID_INPUT');

    const res = await here.post('/api/user/password', {
      currentPassword: 'first password',
      newPassword: 'second password',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-notice')).toBe('PASSWORD_CHANGED');
    const changedAt = Date.now();
    await eventually(async () => !(await loggedIn(elsewhere)), 1500);
    expect(Date.now() - changedAt).toBeLessThan(1500);
    expect(await loggedIn(here)).toBe(true);

    expect((await browser().post('/api/auth/login', { email, password: 'first password' })).body.code).toBe(
      'ERR_LOGIN_FAILED',
    );
    await login(email, 'second password');
  });
});

describe('password recovery', () => {
  it('always answers OK and mails nothing for an unknown address', async () => {
    const nobody = uniqueEmail('nobody');
    const res = await browser().post('/api/auth/password-recovery/request', { email: nobody });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    await expect(catcher.waitFor(nobody, undefined, 1500)).rejects.toThrow();
  });

  it('mails a single-use link; completing it sets the password and ends ALL sessions', async () => {
    const { b: session1, email } = await signup('recover', 'forgotten password');
    const res = await browser().post('/api/auth/password-recovery/request', { email: email.toUpperCase() });
    expect(res.body).toEqual({ ok: true });
    const mail = await catcher.waitFor(email, /password/i);
    const link = mail.links.find((l) => l.startsWith(`${APP_URL}/password-recovery/create-password?token=`));
    expect(link).toBeDefined();

    const bad = await browser().post('/api/auth/password-recovery/complete', {
      token: 'x'.repeat(43),
      password: 'brand new password',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('ERR_INVALID_TOKEN');

    // the web page at the link posts the token with the new password
    const page = browser();
    const done = await page.post('/api/auth/password-recovery/complete', {
      token: tokenOf(link!),
      password: 'brand new password',
    });
    expect(done.status).toBe(200);
    await eventually(async () => !(await loggedIn(session1)), 1500);

    const again = await page.post('/api/auth/password-recovery/complete', {
      token: tokenOf(link!),
      password: 'another new password',
    });
    expect(again.body.code).toBe('ERR_INVALID_TOKEN');
    expect((await browser().post('/api/auth/login', { email, password: 'forgotten password' })).body.code).toBe(
      'ERR_LOGIN_FAILED',
    );
    await login(email, 'brand new password');
  });
});

describe('change of email', () => {
  it('refuses a wrong password, a throwaway address and a taken address', async () => {
    const { b } = await signup('mover1', 'mover password');
    const { email: taken } = await signup('occupant', 'occupant password');
    const wrong = await b.post('/api/user/email', { email: uniqueEmail('new'), password: 'wrong password' });
    expect(wrong.body.code).toBe('ERR_INVALID_CREDENTIALS');
    const throwaway = await b.post('/api/user/email', { email: 'me@yopmail.com', password: 'mover password' });
    expect(throwaway.body.code).toBe('ERR_THROWAWAY_NOT_ALLOWED');
    const res = await b.post('/api/user/email', { email: taken.toUpperCase(), password: 'mover password' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('ERR_EMAIL_TAKEN');
  });

  it('confirms through the link to the new address, and reverts through the link to the old one', async () => {
    const { b, email: oldEmail, id } = await signup('mover2', 'mover password');
    const other = await login(oldEmail, 'mover password');
    const newEmail = uniqueEmail('moved');

    const start = await b.post('/api/user/email', { email: newEmail, password: 'mover password' });
    expect(start.status).toBe(200);
    expect(start.headers.get('x-notice')).toBe('EMAIL_CHANGE_STARTED');
    expect((await b.get('/api/user')).body.email).toBe(oldEmail); // nothing changes before the click

    const confirmMail = await catcher.waitFor(newEmail, /confirm/i);
    const confirm = confirmMail.links.find((l) => l.startsWith(`${APP_URL}/api/auth/change-email/confirm?token=`))!;
    expect(confirm).toBeDefined();
    const revertMail = await catcher.waitFor(oldEmail, /changed/i);
    const revert = revertMail.links.find((l) => l.startsWith(`${APP_URL}/api/auth/change-email/revert?token=`))!;
    expect(revert).toBeDefined();

    expect((await browser().get('/api/auth/change-email/confirm?token=garbage')).location).toBe(
      '/invalid-verification-link',
    );
    expect((await browser().get(`/api/auth/change-email/confirm?token=${tokenOf(revert)}`)).location).toBe(
      '/invalid-verification-link',
    );

    const confirmed = await browser().follow(confirm);
    expect(confirmed.status).toBe(302);
    expect(confirmed.location).toBe('/change-email/success');
    expect((await b.get('/api/user')).body).toMatchObject({ id, email: newEmail, email_status: 'verified' });
    await login(newEmail, 'mover password');

    const reverted = await browser().follow(revert);
    expect(reverted.status).toBe(302);
    expect(reverted.location).toBe('/change-email/reverted');
    await eventually(async () => !(await loggedIn(b)) && !(await loggedIn(other)), 1500);
    expect((await b.get('/api/user')).body).toEqual(GUEST_USER);

    const back = await login(oldEmail, 'mover password');
    expect((await back.get('/api/user')).body).toMatchObject({ id, email: oldEmail, email_status: 'unverified' });
    expect((await browser().post('/api/auth/login', { email: newEmail, password: 'mover password' })).body.code).toBe(
      'ERR_LOGIN_FAILED',
    );
    // the confirmation link cannot bring the change back after the revert
    await sleep(10);
    expect((await browser().follow(confirm)).location).toBe('/invalid-verification-link');
  });
});

describe('logs', () => {
  it('the auth service logged no error (contract mismatches, unhandled failures)', () => {
    const bad = stack.logs('services/auth').filter((line) => /"level":"(error|fatal)"|REPLY DOES NOT MATCH/.test(line));
    expect(bad).toEqual([]);
  });
});
