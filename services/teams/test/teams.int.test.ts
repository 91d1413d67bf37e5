/**
 * The teams service through the real gateway, auth and boards services, PostgreSQL, NATS, Redis
 * and a real SMTP server. Billing is played by the test: it publishes billing.subscription.changed.v1
 * to the stack's JetStream stream as billing's outbox relay would. The effective plan is auth's
 * (GET /api/plan), computed from the teams.licence.changed.v1 events this service emits.
 *
 * The story: Olga buys a 3-seat standard subscription, fills in her business details, invites
 * colleagues (some addresses refused, each with its own code), Carl signs up with the invited
 * address, opens the mailed link and joins, and gets the standard plan; licences run out,
 * deactivation takes the plan away and keeps his boards, billing resizes, ends and restores the
 * subscription, members leave and are removed, Olga cannot terminate her account until she closes
 * the business. Replayed and late billing events change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Pool } from 'pg';
import { connectBus, createLogger } from '@wb/platform';
import type { Bus } from '@wb/platform';
import { startSmtpCatcher, startStack } from '@wb/platform/testing';
import type { ReceivedMail, RunningStack, SmtpCatcher } from '@wb/platform/testing';
import {
  CLOSE_BUSINESS_CONFIRMATION_PHRASE,
  LEAVE_BUSINESS_CONFIRMATION_PHRASE,
  TERMINATE_CONFIRMATION_PHRASE,
} from '@wb/proto';
import type { BusinessInfo, InvitationsReply } from '@wb/proto';
import { Browser, eventually, expectError, FakeBilling, planOf, signUpAs, uniqueEmail, withHeaders } from './helpers';
import type { Person } from './helpers';

const APP_URL = 'http://app.test';

let stack: RunningStack;
let catcher: SmtpCatcher;
let db: Pool;
let bus: Bus;
let billing: FakeBilling;

/** the owner, her colleagues, and Pia who owns another business */
let olga: Person;
let carl: Person;
let pia: Person;
let dana: Person;
let erin: Person;
const latencies: number[] = [];

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  stack = await startStack({
    deployables: ['services/auth', 'services/boards', 'services/teams', 'gateway'],
    env: { SMTP_URL: catcher.url, APP_URL },
    // the plan changes below must reach the board limits at once
    envFor: { 'services/boards': { PLAN_CACHE_TTL_MS: '0' } },
  });
  db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
  bus = await connectBus({
    url: stack.env.NATS_URL!,
    prefix: stack.natsPrefix,
    name: 'test-billing',
    log: createLogger({ service: 'test', level: 'silent' }),
    ensureStream: false,
  });
  billing = new FakeBilling(bus, stack.natsPrefix);
  [olga, pia, dana] = await Promise.all([
    signUpAs(stack.gatewayUrl, 'Olga Owner'),
    signUpAs(stack.gatewayUrl, 'Pia Other'),
    signUpAs(stack.gatewayUrl, 'Dana Bystander'),
  ]);
}, 90_000);

afterAll(async () => {
  if (latencies.length) {
    process.stdout.write(`teams licence change → GET /api/plan: ${latencies.join(', ')} ms\n`);
  }
  await bus?.drain();
  await db?.end();
  await stack?.stop();
  await catcher?.close();
});

// ---------------------------------------------------------------------------------------------
// helpers

async function info(b: Browser): Promise<BusinessInfo | null> {
  const res = await b.get('/api/business/info');
  expect(res.status).toBe(200);
  return res.body as BusinessInfo | null;
}

/** waits until GET /api/plan says `plan`; returns the milliseconds it took from `since` */
async function planReaches(b: Browser, plan: string, since = Date.now()): Promise<number> {
  await eventually(async () => (await planOf(b)) === plan, 5000, 20);
  return Date.now() - since;
}

async function licenceEvents(userId: number): Promise<Array<{ businessId: number; plan: string | null }>> {
  const { rows } = await db.query<{ data: { businessId: number; plan: string | null } }>(
    "SELECT data FROM teams.outbox WHERE type = 'teams.licence.changed.v1' AND (data->>'userId')::int = $1 ORDER BY id",
    [userId],
  );
  return rows.map((r) => r.data);
}

async function outboxCount(): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM teams.outbox');
  return rows[0]!.n;
}

async function invite(b: Browser, emails: string[]): Promise<InvitationsReply> {
  const res = await b.post('/api/business/invitations', { emails });
  expect(res.status).toBe(200);
  return res.body as InvitationsReply;
}

const codesOf = (reply: InvitationsReply): Record<string, string | null> =>
  Object.fromEntries(reply.results.map((r) => [r.email, r.code]));

/** the token of a join-team link in a mail */
function tokenOf(mail: ReceivedMail): string {
  const link = mail.links.find((l) => l.startsWith(`${APP_URL}/join-team?token=`));
  if (!link) throw new Error(`no join-team link in: ${mail.text}`);
  return new URL(link).searchParams.get('token')!;
}

/** invites `person`, waits for the mail and joins with its link; the token is kept for later */
async function inviteAndJoin(
  owner: Browser,
  person: Person,
): Promise<{ status: number; body: BusinessInfo & { code?: string }; token: string }> {
  const reply = await invite(owner, [person.email]);
  expect(codesOf(reply)).toEqual({ [person.email]: null });
  const token = tokenOf(await catcher.waitFor(person.email, /team/));
  const res = await person.browser.post('/api/business/join', { token });
  return { status: res.status, body: res.body as BusinessInfo & { code?: string }, token };
}

/** waits until the teams consumer has applied billing's latest word about `ownerId` */
async function billingApplied(ownerId: number, id: string): Promise<void> {
  const seq = id.split(':')[1];
  await eventually(async () => {
    const { rows } = await db.query<{ seq: string }>('SELECT seq::text FROM teams.subscriptions WHERE owner_id = $1', [
      ownerId,
    ]);
    return rows[0]?.seq === seq;
  }, 5000);
}

// ---------------------------------------------------------------------------------------------

describe('before there is a business', () => {
  it('a guest reads an empty business (id 0) and no team, and may change nothing', async () => {
    const guest = new Browser(stack.gatewayUrl);
    const details = await guest.get('/api/business');
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({ id: 0, company: '', vat_nr: '', created: null, active: 0 });
    expect(await info(guest)).toBeNull();
    expectError(await guest.post('/api/business/invitations', { emails: ['a@example.com'] }), 401, 'ERR_UNAUTHORIZED');
    expectError(await guest.post('/api/business/join', { token: 'x' }), 401, 'ERR_UNAUTHORIZED');
  });

  it('someone in no team: owner actions → ERR_BUSINESS_NOT_FOUND, leaving → ERR_NOT_IN_BUSINESS', async () => {
    const b = dana.browser;
    expect(await info(b)).toBeNull();
    expectError(
      await b.post('/api/business/invitations', { emails: ['a@example.com'] }),
      404,
      'ERR_BUSINESS_NOT_FOUND',
    );
    expectError(await b.put('/api/business/seats', { seats: 3 }), 404, 'ERR_BUSINESS_NOT_FOUND');
    expectError(await b.post(`/api/business/members/${olga.id}/deactivate`), 404, 'ERR_BUSINESS_NOT_FOUND');
    expectError(await b.delete('/api/business/invitations/1'), 404, 'ERR_BUSINESS_NOT_FOUND');
    expectError(
      await b.post('/api/business/close', { confirmation: CLOSE_BUSINESS_CONFIRMATION_PHRASE }),
      404,
      'ERR_BUSINESS_NOT_FOUND',
    );
    expectError(
      await b.post('/api/business/leave', { confirmation: LEAVE_BUSINESS_CONFIRMATION_PHRASE }),
      403,
      'ERR_NOT_IN_BUSINESS',
    );
    expectError(await b.post('/api/business/join', { token: 'no-such-token' }), 404, 'ERR_INVITATION_MISSING');
  });

  it('refuses malformed input with ERR_INVALID_INPUT', async () => {
    const b = olga.browser;
    for (const body of [{}, { emails: [] }, { emails: 'a@example.com' }, { emails: Array(51).fill('a@example.com') }]) {
      expectError(await b.post('/api/business/invitations', body), 400, 'ERR_INVALID_INPUT');
    }
    expectError(await b.put('/api/business/seats', { seats: 0 }), 400, 'ERR_INVALID_INPUT');
    expectError(await b.post('/api/business/members/abc/deactivate'), 400, 'ERR_INVALID_INPUT');
    expectError(await b.put('/api/business', { country_code: 'XX' }), 400, 'ERR_INVALID_INPUT');
    expectError(await b.put('/api/business', { unknown: 'x' }), 400, 'ERR_INVALID_INPUT');
  });
});

describe('a 3-seat standard subscription', () => {
  it('opens a business owned by the subscriber, who holds one of its licences', async () => {
    await billing.subscription({ userId: olga.id, subscriptionId: 'sub-olga', plan: 'standard', seats: 3 });
    await eventually(async () => (await info(olga.browser)) !== null, 5000);
    expect(await info(olga.browser)).toMatchObject({
      name: 'Olga Owner',
      owner: { id: olga.id, name: 'Olga Owner' },
      status: { active: 1 },
      role: 'owner',
      plan: 'standard',
      licences: { used: 1, total: 3, requested: null },
      // the owner's address is her account's (her member row has no invited one)
      members: [{ id: olga.id, name: 'Olga Owner', role: 'owner', status: 'active', email: olga.email }],
      deactivated: [],
      invitations: [],
    });
    expect(await licenceEvents(olga.id)).toEqual([
      { userId: olga.id, businessId: expect.any(Number), plan: 'standard' },
    ]);
    // Pia owns another business
    await billing.subscription({ userId: pia.id, subscriptionId: 'sub-pia', plan: 'premium', seats: 2 });
    await eventually(async () => (await info(pia.browser))?.licences?.total === 2, 5000);
  });

  it('a trial gives one licence whatever the seats; a plan without teams or no plan opens nothing', async () => {
    const tom = await signUpAs(stack.gatewayUrl, 'Tom Trial');
    await billing.subscription({ userId: tom.id, subscriptionId: 'trial-tom', plan: 'standard', seats: 5 });
    await eventually(async () => (await info(tom.browser)) !== null, 5000);
    expect((await info(tom.browser))?.licences).toEqual({ used: 1, total: 1, requested: null });
    for (const plan of ['starter', null] as const) {
      const id = await billing.subscription({ userId: dana.id, subscriptionId: 'sub-dana', plan, seats: 3 });
      await billingApplied(dana.id, id);
      expect(await info(dana.browser)).toBeNull();
    }
  });

  it('the checkout’s billing form becomes the business details: the team is named after the organisation', async () => {
    const sam = await signUpAs(stack.gatewayUrl, 'Sam Checkout');
    await billing.subscription({ userId: sam.id, subscriptionId: 'sub-sam', plan: 'premium', seats: 2 });
    await eventually(async () => (await info(sam.browser)) !== null, 5000);
    expect((await info(sam.browser))?.name).toBe('Sam Checkout'); // no organisation yet: the owner's name
    // a phone saved in settings stays: the billing form has none
    expect((await sam.browser.put('/api/business', { company: 'Old name', phone: '+49 30 1234' })).status).toBe(200);
    await billing.customer({
      userId: sam.id,
      company: ' Riverside Academy ',
      first_name: 'Sam',
      last_name: 'Checkout',
      email: 'Accounts@Riverside.example',
      country_code: 'de',
      city_region: 'Berlin',
      postal_code: '10115',
      street_address: 'Invalidenstraße 1',
      extended_address: '',
      vat_nr: '',
    });
    await eventually(async () => (await info(sam.browser))?.name === 'Riverside Academy', 5000);
    expect((await sam.browser.get('/api/business')).body).toMatchObject({
      company: 'Riverside Academy',
      email: 'accounts@riverside.example',
      country_code: 'DE',
      street_address: 'Invalidenstraße 1',
      phone: '+49 30 1234',
    });
    const owner = (await info(sam.browser))?.members?.[0];
    expect(owner).toMatchObject({ id: sam.id, role: 'owner', email: sam.email });
  });

  it('business details: saved by the owner, VAT and email checked, id 0 until then (promo)', async () => {
    expect((await olga.browser.get('/api/business')).body).toMatchObject({ id: 0, active: 1 });
    expectError(
      await olga.browser.put('/api/business', { country_code: 'EE', vat_nr: 'DE123' }),
      400,
      'ERR_INVALID_VAT',
    );
    expectError(await olga.browser.put('/api/business', { vat_nr: 'EE100000000' }), 400, 'ERR_INVALID_VAT');
    expectError(await olga.browser.put('/api/business', { email: 'billing at acme' }), 400, 'ERR_EMAIL_INVALID');
    const body = {
      company: 'Acme School',
      first_name: 'Olga',
      last_name: 'Owner',
      email: 'Billing@Acme.example',
      phone: '+372 5555 5555',
      website: 'https://acme.example',
      country_code: 'ee',
      city_region: 'Tallinn',
      street_address: 'Main 1',
      postal_code: '10111',
      vat_nr: 'EE100000000',
    };
    const saved = await olga.browser.put('/api/business', body);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      ...body,
      email: 'billing@acme.example',
      country_code: 'EE',
      extended_address: '',
    });
    expect(saved.body.id).toBeGreaterThan(0);
    expect((await olga.browser.get('/api/business')).body).toEqual(saved.body);
    expect((await info(olga.browser))?.name).toBe('Acme School');
    // a guest or someone else sees their own (none)
    expect((await dana.browser.get('/api/business')).body).toMatchObject({ id: 0, company: '' });
  });

  it('invitations: one result per address, each refusal with its own code; the mail carries the join link', async () => {
    const carlEmail = uniqueEmail('carl');
    const reply = await invite(withHeaders(olga, { 'x-locale': 'en' }), [
      ` ${carlEmail.toUpperCase()} `,
      olga.email,
      'someone@mailinator.com',
      'not an address',
      pia.email,
      carlEmail, // the same address twice counts once
    ]);
    expect(codesOf(reply)).toEqual({
      [carlEmail]: null,
      [olga.email]: 'ERR_CANT_INVITE_YOURSELF',
      'someone@mailinator.com': 'ERR_THROWAWAY_NOT_ALLOWED',
      'not an address': 'ERR_EMAIL_INVALID',
      [pia.email]: 'ERR_USER_IN_BUSINESS',
    });
    expect(reply.results.find((r) => r.code === 'ERR_CANT_INVITE_YOURSELF')?.message).toMatch(/yourself/);
    expect(reply.info.invitations).toEqual([{ id: expect.any(Number), email: carlEmail, created: expect.any(String) }]);
    expect(codesOf(await invite(olga.browser, [carlEmail]))).toEqual({ [carlEmail]: 'ERR_USER_ALREADY_INVITED' });

    const mail = await catcher.waitFor(carlEmail, /invited you to the team Acme School/);
    expect(mail.text).toContain('Olga Owner invited you to join the team “Acme School”');
    expect(mail.text).toContain(carlEmail);
    expect(tokenOf(mail)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    carl = await signUpAs(stack.gatewayUrl, 'Carl Colleague', carlEmail);
    // someone else signed in cannot use Carl's link
    expectError(await dana.browser.post('/api/business/join', { token: tokenOf(mail) }), 400, 'ERR_NO_EMAIL_MATCH');
    expectError(
      await carl.browser.post('/api/business/join', { token: `${tokenOf(mail)}x` }),
      404,
      'ERR_INVITATION_MISSING',
    );

    // Carl, on the starter plan, fills his 5 boards; the team's plan lets him make more
    for (let i = 0; i < 5; i++) expect((await carl.browser.post('/api/boards', { title: `c${i}` })).status).toBe(200);
    expectError(await carl.browser.post('/api/boards', { title: 'sixth' }), 403, 'ERR_MAX_BOARDS_REACHED');

    const started = Date.now();
    const joined = await carl.browser.post('/api/business/join', { token: tokenOf(mail) });
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual({
      id: expect.any(Number),
      name: 'Acme School',
      owner: { id: olga.id, name: 'Olga Owner' },
      status: { active: 1 },
      role: 'member',
      plan: 'standard',
    });
    const ms = await planReaches(carl.browser, 'standard', started);
    latencies.push(ms);
    expect(ms).toBeLessThan(1000);
    expect((await carl.browser.post('/api/boards', { title: 'sixth' })).status).toBe(200);

    // the link works once
    expectError(await carl.browser.post('/api/business/join', { token: tokenOf(mail) }), 404, 'ERR_INVITATION_MISSING');
    // the owner is told, in her language
    expect((await catcher.waitFor(olga.email, /Carl Colleague joined your team Acme School/)).text).toContain(
      `${APP_URL}/settings/users`,
    );
    expect(await info(olga.browser)).toMatchObject({
      licences: { used: 2, total: 3 },
      members: [
        { id: olga.id, role: 'owner' },
        { id: carl.id, name: 'Carl Colleague', email: carlEmail, role: 'member', status: 'active' },
      ],
      invitations: [],
    });
  });

  it('writes the invitation in the invitee’s language, else in the language the owner uses', async () => {
    const kurt = await signUpAs(stack.gatewayUrl, 'Kurt Deutsch');
    expect((await kurt.browser.post('/api/user/settings', { locale: 'de' })).status).toBe(200);
    const nobody = uniqueEmail('nobody');
    const reply = await invite(withHeaders(olga, { 'x-locale': 'fr' }), [kurt.email, nobody]);
    expect(codesOf(reply)).toEqual({ [kurt.email]: null, [nobody]: null });
    const de = await catcher.waitFor(kurt.email, /eingeladen/);
    expect(de.text).toContain('Dem Team beitreten');
    const fr = await catcher.waitFor(nobody, /vous invite/);
    expect(fr.text).toContain('Rejoindre l’équipe');
    // tidy: cancel both (checked below)
    for (const inv of reply.info.invitations!)
      expect((await olga.browser.delete(`/api/business/invitations/${inv.id}`)).status).toBe(200);
  });

  it('one team per person: members and owners of other teams are refused', async () => {
    expect(codesOf(await invite(olga.browser, [carl.email]))).toEqual({ [carl.email]: 'ERR_USER_IN_YOUR_BUSINESS' });
    expect(codesOf(await invite(pia.browser, [carl.email]))).toEqual({ [carl.email]: 'ERR_USER_IN_BUSINESS' });
    // invited by both, Erin joins Pia's team first; Olga's link then answers ERR_USER_IN_BUSINESS
    erin = await signUpAs(stack.gatewayUrl, 'Erin Both');
    await invite(olga.browser, [erin.email]);
    const fromOlga = await catcher.waitFor(erin.email, /Acme School/);
    expect((await inviteAndJoin(pia.browser, erin)).status).toBe(200);
    expectError(
      await erin.browser.post('/api/business/join', { token: tokenOf(fromOlga) }),
      409,
      'ERR_USER_IN_BUSINESS',
    );
    // Pia's two licences are hers and Erin's: a third person finds none
    const fay = await signUpAs(stack.gatewayUrl, 'Fay Late');
    expectError(await inviteAndJoin(pia.browser, fay), 409, 'ERR_NO_AVAILABLE_SEATS');
  });
});

describe('licences', () => {
  let dave: Person;
  let finn: Person;
  let finnToken: string;

  it('the licence count: joins stop when they are used up; asking for fewer than active users is refused', async () => {
    dave = await signUpAs(stack.gatewayUrl, 'Dave Third');
    finn = await signUpAs(stack.gatewayUrl, 'Finn Fourth');
    expect((await inviteAndJoin(olga.browser, dave)).status).toBe(200);
    const refused = await inviteAndJoin(olga.browser, finn);
    expectError(refused, 409, 'ERR_NO_AVAILABLE_SEATS');
    finnToken = refused.token;
    expectError(await olga.browser.put('/api/business/seats', { seats: 2 }), 400, 'ERR_SEAT_COUNT_TOO_LOW');
    const asked = await olga.browser.put('/api/business/seats', { seats: 5 });
    expect(asked.status).toBe(200);
    expect(asked.body.licences).toEqual({ used: 3, total: 3, requested: 5 });
    // billing asks before changing the subscription's seats
    await expect(bus.request('teams', 'seats.check', { seats: 2 }, { userId: olga.id })).rejects.toMatchObject({
      code: 'ERR_SEAT_COUNT_TOO_LOW',
    });
    expect((await bus.request('teams', 'seats.check', { seats: 3 }, { userId: olga.id })).data).toEqual({
      ok: true,
      activeUsers: 3,
    });
  });

  it('only the owner manages: a member gets ERR_FORBIDDEN; the owner cannot be deactivated or removed', async () => {
    expectError(
      await carl.browser.post('/api/business/invitations', { emails: ['x@example.com'] }),
      403,
      'ERR_FORBIDDEN',
    );
    expectError(await carl.browser.post(`/api/business/members/${dave.id}/deactivate`), 403, 'ERR_FORBIDDEN');
    expectError(await carl.browser.put('/api/business/seats', { seats: 9 }), 403, 'ERR_FORBIDDEN');
    expectError(await carl.browser.put('/api/business', { company: 'Mine' }), 403, 'ERR_FORBIDDEN');
    expectError(await olga.browser.post(`/api/business/members/${olga.id}/deactivate`), 403, 'ERR_FORBIDDEN');
    expectError(await olga.browser.delete(`/api/business/members/${olga.id}`), 403, 'ERR_FORBIDDEN');
    expectError(await olga.browser.post(`/api/business/members/${pia.id}/deactivate`), 403, 'ERR_NOT_IN_BUSINESS');
    expectError(await olga.browser.delete(`/api/business/members/${dana.id}`), 403, 'ERR_NOT_IN_BUSINESS');
    expectError(
      await olga.browser.post('/api/business/leave', { confirmation: LEAVE_BUSINESS_CONFIRMATION_PHRASE }),
      403,
      'ERR_FORBIDDEN',
    );
  });

  it('deactivation takes the plan away within a second and keeps the member’s boards; activation needs a free licence', async () => {
    const started = Date.now();
    const res = await olga.browser.post(`/api/business/members/${carl.id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.body.licences).toMatchObject({ used: 2 });
    expect(res.body.deactivated).toEqual([expect.objectContaining({ id: carl.id, status: 'deactivated' })]);
    latencies.push(await planReaches(carl.browser, 'starter', started));
    expect(latencies.at(-1)).toBeLessThan(1000);
    expect(await info(carl.browser)).toMatchObject({ role: 'member', status: { active: 0 }, plan: 'standard' });
    // his six boards are still his; a seventh is over the starter limit
    expect((await carl.browser.get('/api/boards')).body).toHaveLength(6);
    expectError(await carl.browser.post('/api/boards', { title: 'seventh' }), 403, 'ERR_MAX_BOARDS_REACHED');
    // deactivating twice changes nothing
    const before = await licenceEvents(carl.id);
    expect((await olga.browser.post(`/api/business/members/${carl.id}/deactivate`)).status).toBe(200);
    expect(await licenceEvents(carl.id)).toEqual(before);

    // the freed licence goes to Finn (his link from before works now); then none is left for Carl
    expect((await finn.browser.post('/api/business/join', { token: finnToken })).status).toBe(200);
    expectError(await olga.browser.post(`/api/business/members/${carl.id}/activate`), 409, 'ERR_NO_AVAILABLE_SEATS');
  });

  it('billing’s new seat count becomes the licences; the requested count is then settled', async () => {
    const id = await billing.subscription({ userId: olga.id, subscriptionId: 'sub-olga', plan: 'standard', seats: 5 });
    await billingApplied(olga.id, id);
    expect((await info(olga.browser))?.licences).toEqual({ used: 3, total: 5, requested: null });
    expect((await olga.browser.post(`/api/business/members/${carl.id}/activate`)).status).toBe(200);
    await planReaches(carl.browser, 'standard');
  });

  it('the subscription ending stops every licence; coming back restores the active ones', async () => {
    await billing.subscription({ userId: olga.id, subscriptionId: 'sub-olga', plan: null, seats: 5 });
    await Promise.all([planReaches(carl.browser, 'starter'), planReaches(dave.browser, 'starter')]);
    expect(await info(carl.browser)).toMatchObject({ status: { active: 0 }, plan: null });
    expect((await olga.browser.get('/api/business')).body).toMatchObject({ active: 0 });
    await billing.subscription({ userId: olga.id, subscriptionId: 'sub-olga', plan: 'premium', seats: 5 });
    await Promise.all([planReaches(carl.browser, 'premium'), planReaches(dave.browser, 'premium')]);
    expect(await info(carl.browser)).toMatchObject({ status: { active: 1 }, plan: 'premium' });
  });

  it('fewer seats from billing deactivate the most recently activated members', async () => {
    const id = await billing.subscription({ userId: olga.id, subscriptionId: 'sub-olga', plan: 'premium', seats: 2 });
    await billingApplied(olga.id, id);
    const now = await info(olga.browser);
    // activated last: Carl (re-activated), then Finn
    expect(now?.members?.map((m) => m.id)).toEqual([olga.id, dave.id]);
    expect(now?.deactivated?.map((m) => m.id).sort()).toEqual([carl.id, finn.id].sort());
    await Promise.all([planReaches(carl.browser, 'starter'), planReaches(finn.browser, 'starter')]);
    expect(await planOf(dave.browser)).toBe('premium');
  });

  it('replayed and late billing events change nothing', async () => {
    const latest = await billing.subscription({
      userId: olga.id,
      subscriptionId: 'sub-olga',
      plan: 'premium',
      seats: 3,
    });
    await billingApplied(olga.id, latest);
    const rows = await outboxCount();
    // the same event again (a new Nats-Msg-Id gets it past JetStream's de-duplication)
    await billing.subscription(
      { userId: olga.id, subscriptionId: 'sub-olga', plan: 'premium', seats: 3 },
      { id: latest, msgId: `${latest}-again` },
    );
    // an older word arriving late (a sequence below every one applied)
    await billing.subscription(
      { userId: olga.id, subscriptionId: 'sub-olga', plan: null, seats: 1 },
      { id: 'billing:0' },
    );
    // a marker event for someone else, published after both: once it is applied, so are they
    const marker = await billing.subscription({ userId: dana.id, subscriptionId: 'sub-dana', plan: null, seats: 0 });
    await billingApplied(dana.id, marker);
    expect(await outboxCount()).toBe(rows);
    expect((await info(olga.browser))?.licences?.total).toBe(3);
    expect(await planOf(dave.browser)).toBe('premium');
  });

  it('members leave with the confirmation phrase and keep their data; the owner removes members', async () => {
    expectError(
      await dave.browser.post('/api/business/leave', { confirmation: 'leave please' }),
      400,
      'ERR_CONFIRMATION_FAILED',
    );
    expect(
      (await dave.browser.post('/api/business/leave', { confirmation: ` ${LEAVE_BUSINESS_CONFIRMATION_PHRASE} ` }))
        .status,
    ).toBe(200);
    expect(await info(dave.browser)).toBeNull();
    await planReaches(dave.browser, 'starter');
    expect((await olga.browser.delete(`/api/business/members/${finn.id}`)).status).toBe(200);
    expect(await info(finn.browser)).toBeNull();
    expect((await info(olga.browser))?.deactivated?.map((m) => m.id)).toEqual([carl.id]);
  });

  it('a cancelled invitation’s link no longer works; cancelling twice → ERR_INVITATION_MISSING', async () => {
    const gina = await signUpAs(stack.gatewayUrl, 'Gina Cancelled');
    const reply = await invite(olga.browser, [gina.email]);
    const id = reply.results[0]!.invitation!.id;
    const mail = await catcher.waitFor(gina.email, /Acme School/);
    const cancelled = await olga.browser.delete(`/api/business/invitations/${id}`);
    expect(cancelled.status).toBe(200);
    expect((cancelled.body as BusinessInfo).invitations!.map((i) => i.email)).not.toContain(gina.email);
    expectError(await olga.browser.delete(`/api/business/invitations/${id}`), 404, 'ERR_INVITATION_MISSING');
    expectError(await pia.browser.delete(`/api/business/invitations/${id}`), 404, 'ERR_INVITATION_MISSING');
    expectError(await gina.browser.post('/api/business/join', { token: tokenOf(mail) }), 404, 'ERR_INVITATION_MISSING');
  });
});

describe('closing the business and terminating accounts', () => {
  it('the owner cannot terminate the account while the business is open', async () => {
    expectError(
      await olga.browser.post('/api/user/terminate', { confirmation: TERMINATE_CONFIRMATION_PHRASE }),
      409,
      'ERR_CANT_TERMINATE_OWNER',
    );
    expect((await olga.browser.get('/api/user')).body.id).toBe(olga.id);
  });

  it('closing needs the owner and the phrase; it ends every member’s licence', async () => {
    // Carl active again to see his plan go
    expect((await olga.browser.post(`/api/business/members/${carl.id}/activate`)).status).toBe(200);
    await planReaches(carl.browser, 'premium');
    const pending = uniqueEmail('pending');
    await invite(olga.browser, [pending]);
    expectError(
      await carl.browser.post('/api/business/close', { confirmation: CLOSE_BUSINESS_CONFIRMATION_PHRASE }),
      403,
      'ERR_FORBIDDEN',
    );
    expectError(
      await olga.browser.post('/api/business/close', { confirmation: 'close' }),
      400,
      'ERR_CONFIRMATION_FAILED',
    );
    expect(
      (await olga.browser.post('/api/business/close', { confirmation: CLOSE_BUSINESS_CONFIRMATION_PHRASE })).status,
    ).toBe(200);
    await planReaches(carl.browser, 'starter');
    expect(await info(carl.browser)).toBeNull();
    expect(await info(olga.browser)).toBeNull();
    const { rows } = await db.query('SELECT status FROM teams.invitations WHERE email = $1', [pending]);
    expect(rows).toEqual([{ status: 'cancelled' }]);
    // billing hears which subscription paid for it (it cancels that one at the provider)
    const { rows: closed } = await db.query(
      "SELECT data FROM teams.outbox WHERE type = 'teams.business.closed.v1' AND (data->>'ownerId')::int = $1",
      [olga.id],
    );
    expect(closed).toEqual([
      {
        data: { businessId: expect.any(Number), ownerId: olga.id, subscriptionId: expect.any(String), reason: 'owner' },
      },
    ]);
    // the owner keeps her own subscription's plan
    expect(await planOf(olga.browser)).toBe('premium');
  });

  it('a closed business stays closed for the subscription it ran on', async () => {
    const same = await billing.subscription({ userId: olga.id, subscriptionId: 'sub-olga', plan: 'premium', seats: 4 });
    await billingApplied(olga.id, same);
    expect(await info(olga.browser)).toBeNull();
    const { rows } = await db.query('SELECT 1 FROM teams.businesses WHERE owner_id = $1 AND closed_at IS NULL', [
      olga.id,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('after closing, the owner may terminate the account', async () => {
    expect(
      (await olga.browser.post('/api/user/terminate', { confirmation: TERMINATE_CONFIRMATION_PHRASE })).status,
    ).toBe(200);
  });

  it('a terminated member’s licence is freed; a new subscription after closing opens a new business', async () => {
    expect((await info(pia.browser))?.licences?.used).toBe(2);
    expect(
      (await erin.browser.post('/api/user/terminate', { confirmation: TERMINATE_CONFIRMATION_PHRASE })).status,
    ).toBe(200);
    await eventually(async () => (await info(pia.browser))?.licences?.used === 1, 5000);
    expect(await licenceEvents(erin.id)).toEqual([
      { userId: erin.id, businessId: expect.any(Number), plan: 'premium' },
      { userId: erin.id, businessId: expect.any(Number), plan: null },
    ]);

    const first = (await info(pia.browser))!.id;
    expect(
      (await pia.browser.post('/api/business/close', { confirmation: CLOSE_BUSINESS_CONFIRMATION_PHRASE })).status,
    ).toBe(200);
    await billing.subscription({ userId: pia.id, subscriptionId: 'sub-pia-2', plan: 'ultimate', seats: 2 });
    await eventually(async () => (await info(pia.browser)) !== null, 5000);
    expect(await info(pia.browser)).toMatchObject({ plan: 'ultimate', licences: { used: 1, total: 2 } });
    expect((await info(pia.browser))!.id).not.toBe(first);
  });

  it('terminating fails closed (ERR_TEMPORARY_PROBLEM) while teams does not answer', async () => {
    await stack.stopOne('services/teams');
    try {
      expectError(
        await dana.browser.post('/api/user/terminate', { confirmation: TERMINATE_CONFIRMATION_PHRASE }),
        503,
        'ERR_TEMPORARY_PROBLEM',
      );
      expect((await dana.browser.get('/api/user')).body.id).toBe(dana.id);
    } finally {
      await stack.restartOne('services/teams');
    }
    expect(
      (await dana.browser.post('/api/user/terminate', { confirmation: TERMINATE_CONFIRMATION_PHRASE })).status,
    ).toBe(200);
  });

  it('the teams service logged no error on the way', () => {
    const failures = stack.logs('services/teams').filter((line) => /"level":(50|60)/.test(line));
    expect(failures).toEqual([]);
  });
});
