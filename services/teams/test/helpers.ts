/** Teams test helpers; the browser itself is the platform's (`@wb/platform/testing`). */
import { expect } from '@jest/globals';
import type { Bus } from '@wb/platform';
import { Browser, uniqueEmail } from '@wb/platform/testing';
import { eventSubject } from '@wb/proto';
import type { EventData, EventEnvelope, PlanName } from '@wb/proto';

export { Browser, eventually, sleep, uniqueEmail } from '@wb/platform/testing';
export type { Reply } from '@wb/platform/testing';

export const PASSWORD = 'long enough pw';

export interface Person {
  browser: Browser;
  id: number;
  email: string;
  name: string;
}

/** sign up through the gateway with a known address (the invitation tests need it) */
export async function signUpAs(
  gatewayUrl: string,
  name: string,
  email = uniqueEmail(name.toLowerCase().replace(/[^a-z0-9]+/g, '-')),
): Promise<Person> {
  const browser = new Browser(gatewayUrl);
  const res = await browser.post('/api/auth/signup', { name, email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { browser, id: res.body.user.id as number, email: email.toLowerCase(), name };
}

/** the same session, sending extra headers (e.g. the web's x-locale) */
export function withHeaders(p: Person, headers: Record<string, string>): Browser {
  const b = new Browser(p.browser.baseUrl, headers);
  for (const name of ['sid', 'csrf-token']) {
    const v = p.browser.cookie(name);
    if (v) b.setCookie(name, v);
  }
  return b;
}

export function expectError(res: { status: number; body: { code?: string } }, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
}

/**
 * Plays the billing service: publishes billing.subscription.changed.v1 (and customer.changed) to the stack's JetStream
 * stream exactly as billing's outbox relay would (id "billing:<outbox sequence>", Nats-Msg-Id = id).
 */
export class FakeBilling {
  private seq = 0;
  constructor(
    private readonly bus: Bus,
    private readonly prefix: string,
  ) {}

  async subscription(
    data: EventData<'billing.subscription.changed.v1'>,
    opts: { id?: string; msgId?: string } = {},
  ): Promise<string> {
    const id = opts.id ?? `billing:${++this.seq}`;
    const type = 'billing.subscription.changed.v1';
    const envelope: EventEnvelope = { id, type, occurredAt: new Date().toISOString(), data };
    await this.bus.js.publish(eventSubject(this.prefix, type), JSON.stringify(envelope), { msgID: opts.msgId ?? id });
    return id;
  }

  /** billing.customer.changed.v1: the billing form of an accepted checkout */
  async customer(data: EventData<'billing.customer.changed.v1'>): Promise<string> {
    const id = `billing:${++this.seq}`;
    const type = 'billing.customer.changed.v1';
    const envelope: EventEnvelope = { id, type, occurredAt: new Date().toISOString(), data };
    await this.bus.js.publish(eventSubject(this.prefix, type), JSON.stringify(envelope), { msgID: id });
    return id;
  }
}

export const planOf = async (b: Browser): Promise<PlanName> =>
  ((await b.get('/api/plan')).body as { name: PlanName }).name;
