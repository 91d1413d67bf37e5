/**
 * A local fake of Braintree's gateway API for tests and local runs: a node:http server answering
 * the endpoints the `braintree` SDK calls for PaymentProvider's operations, in Braintree's XML,
 * with its state in memory. Point the SDK at it with `environment: fake.url` (see
 * braintreeProvider.ts). What it emulates and what not: services/billing/README.md.
 *
 * Sandbox magic values (Braintree's documented meanings):
 * - nonces `fake-valid-nonce`, `fake-valid-{visa,mastercard,amex,discover,debit}-nonce` vault a
 *   card that charges fine; `fake-processor-declined-{visa,mastercard,amex,discover}-nonce` fail
 *   card verification (2000 Do Not Honor) and decline every charge; `fake-consumed-nonce` and any
 *   nonce used before are refused as consumed (93107); other nonces are unknown (93108);
 * - amounts 2000.00–2999.99 are processor-declined with the amount's integer part as response
 *   code (2000 Do Not Honor, 2001 Insufficient Funds, …).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeBraintreeOptions {
  host?: string;
  /** 0 (default) = a free port */
  port?: number;
  merchantId?: string;
  publicKey?: string;
  privateKey?: string;
  /** the fake's clock: billing dates, trial ends, created-at */
  now?: () => Date;
}

export interface FakeTransaction {
  id: string;
  type: 'sale' | 'credit';
  /** cents */
  amountCents: number;
  status: 'submitted_for_settlement' | 'settled' | 'processor_declined';
  customerId: string;
  subscriptionId: string | null;
  paymentMethodToken: string;
  processorResponseCode: string;
  processorResponseText: string;
  createdAt: Date;
}

export interface FakeSubscription {
  id: string;
  planId: string;
  status: 'Active' | 'Canceled' | 'Expired' | 'Past Due' | 'Pending';
  priceCents: number;
  balanceCents: number;
  paymentMethodToken: string;
  firstBillingDate: string;
  nextBillingDate: string | null;
  paidThroughDate: string | null;
  billingCycle: number;
  failureCount: number;
  createdAt: Date;
  transactionIds: string[];
}

interface FakeCustomer {
  id: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  company?: string;
  createdAt: Date;
}
interface FakeCard {
  token: string;
  customerId: string;
  cardType: string;
  last4: string;
  declines: boolean;
}

/** Which requests a fault applies to; by default every request. */
export interface RequestMatch {
  method?: string;
  /** tested against the path after /merchants/{id}, e.g. /subscriptions */
  path?: RegExp;
}

export const WEBHOOK_SAMPLE_KINDS = [
  'subscription_charged_successfully',
  'subscription_went_past_due',
  'subscription_canceled',
  'subscription_expired',
  'subscription_trial_ended',
] as const;

const VALID_NONCES: Record<string, { cardType: string; last4: string }> = {
  'fake-valid-nonce': { cardType: 'Visa', last4: '1881' },
  'fake-valid-visa-nonce': { cardType: 'Visa', last4: '1881' },
  'fake-valid-mastercard-nonce': { cardType: 'MasterCard', last4: '4444' },
  'fake-valid-amex-nonce': { cardType: 'American Express', last4: '0005' },
  'fake-valid-discover-nonce': { cardType: 'Discover', last4: '1117' },
  'fake-valid-debit-nonce': { cardType: 'Visa', last4: '0001' },
};
const DECLINED_NONCES: Record<string, { cardType: string; last4: string }> = {
  'fake-processor-declined-visa-nonce': { cardType: 'Visa', last4: '0002' },
  'fake-processor-declined-mastercard-nonce': { cardType: 'MasterCard', last4: '0004' },
  'fake-processor-declined-amex-nonce': { cardType: 'American Express', last4: '0006' },
  'fake-processor-declined-discover-nonce': { cardType: 'Discover', last4: '0007' },
};
const DECLINE_TEXTS: Record<number, string> = {
  2000: 'Do Not Honor',
  2001: 'Insufficient Funds',
  2002: 'Limit Exceeded',
  2003: "Cardholder's Activity Limit Exceeded",
  2004: 'Expired Card',
  2005: 'Invalid Credit Card Number',
  2010: 'Card Issuer Declined CVV',
};

// --- XML in Braintree's shape ------------------------------------------------------------------

type XmlValue = string | number | boolean | Date | null | undefined | XmlValue[] | { [key: string]: XmlValue };

const kebab = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function toXml(name: string, value: XmlValue, itemName = 'item'): string {
  const tag = kebab(name);
  if (value === null || value === undefined) return `<${tag} nil="true"/>`;
  if (Array.isArray(value)) {
    return `<${tag} type="array">${value.map((v) => toXml(itemName, v)).join('')}</${tag}>`;
  }
  if (value instanceof Date) return `<${tag} type="datetime">${value.toISOString()}</${tag}>`;
  if (typeof value === 'number') return `<${tag} type="integer">${value}</${tag}>`;
  if (typeof value === 'boolean') return `<${tag} type="boolean">${value}</${tag}>`;
  if (typeof value === 'object') {
    return `<${tag}>${Object.entries(value)
      .map(([k, v]) => toXml(k, v, ARRAY_ITEMS[k]))
      .join('')}</${tag}>`;
  }
  return `<${tag}>${escapeXml(value)}</${tag}>`;
}
const ARRAY_ITEMS: Record<string, string> = {
  transactions: 'transaction',
  addOns: 'add-on',
  discounts: 'discount',
  creditCards: 'credit-card',
  errors: 'error',
};

const money = (cents: number) => {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};
const cents = (decimal: unknown) => {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(str(decimal));
  if (!m) return NaN;
  const c = Number(m[2]) * 100 + Number((m[3] ?? '0').padEnd(2, '0'));
  return m[1] ? -c : c;
};
const day = (d: Date) => d.toISOString().slice(0, 10);
function addMonths(date: string, months: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return day(target);
}
const addDays = (date: string, days: number) =>
  day(new Date(new Date(`${date}T00:00:00Z`).getTime() + days * 86400000));

/** a request value as text ('' for anything that is not a string or number) */
function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

class ValidationFailure extends Error {
  constructor(
    message: string,
    readonly errors: { code: string; attribute: string; message: string }[],
    readonly extra: Record<string, XmlValue> = {},
  ) {
    super(message);
  }
}

interface Reply {
  status: number;
  body?: string;
}

export class FakeBraintree {
  readonly merchantId: string;
  readonly publicKey: string;
  readonly privateKey: string;
  readonly customers = new Map<string, FakeCustomer>();
  readonly cards = new Map<string, FakeCard>();
  readonly subscriptions = new Map<string, FakeSubscription>();
  readonly transactions: FakeTransaction[] = [];
  /** every request the fake received, in order */
  readonly requests: { method: string; path: string; body: unknown }[] = [];
  /** billing plans: any id ending in -monthly (1 month) or -yearly (12 months) exists */
  readonly planMonths = (planId: string) =>
    planId.endsWith('-monthly') ? 1 : planId.endsWith('-yearly') ? 12 : undefined;

  private readonly usedNonces = new Set<string>(['fake-consumed-nonce']);
  private readonly issuedNonces = new Map<string, { cardType: string; last4: string; declines: boolean }>();
  private readonly faults: { kind: 'fail' | 'delay'; left: number; status: number; ms: number; match: RequestMatch }[] =
    [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly server: http.Server;
  private readonly now: () => Date;
  private seq = 0;
  url = '';

  private constructor(options: FakeBraintreeOptions) {
    this.merchantId = options.merchantId ?? 'fake-merchant';
    this.publicKey = options.publicKey ?? 'fake-public-key';
    this.privateKey = options.privateKey ?? 'fake-private-key';
    this.now = options.now ?? (() => new Date());
    this.server = http.createServer((req, res) => this.onRequest(req, res));
  }

  static async start(options: FakeBraintreeOptions = {}): Promise<FakeBraintree> {
    const fake = new FakeBraintree(options);
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      fake.server.once('error', reject);
      fake.server.listen(options.port ?? 0, host, () => resolve());
    });
    const { port } = fake.server.address() as AddressInfo;
    fake.url = `http://${host}:${port}`;
    return fake;
  }

  /** What BraintreeProvider / createBraintreeGateway need to talk to this fake. */
  get config(): { environment: string; merchantId: string; publicKey: string; privateKey: string } {
    return {
      environment: this.url,
      merchantId: this.merchantId,
      publicKey: this.publicKey,
      privateKey: this.privateKey,
    };
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // --- test helpers --------------------------------------------------------------------------

  /** The next `count` matching requests answer `status` (default 500) and change nothing. */
  failNext(count: number, options: { status?: number } & RequestMatch = {}): void {
    this.faults.push({ kind: 'fail', left: count, status: options.status ?? 500, ms: 0, match: options });
  }

  /**
   * The next `count` matching requests are carried out at once but answered after `ms`: a
   * client that times out has in fact created (and charged) what it asked for, as in real life.
   */
  delayNext(count: number, ms: number, match: RequestMatch = {}): void {
    this.faults.push({ kind: 'delay', left: count, status: 0, ms, match });
  }

  /**
   * A single-use nonce, as Drop-in hands out for a real card: vaulting it twice fails with 93107
   * (the static `fake-valid-nonce` may be used any number of times, as in the sandbox).
   */
  issueNonce(options: { declines?: boolean } = {}): string {
    const nonce = `fake-issued-${randomBytes(8).toString('hex')}`;
    this.issuedNonces.set(nonce, { cardType: 'Visa', last4: '1111', declines: !!options.declines });
    return nonce;
  }

  /** Successful sales (money taken), oldest first. */
  charges(customerId?: string): FakeTransaction[] {
    return this.transactions.filter(
      (t) => t.type === 'sale' && t.status !== 'processor_declined' && (!customerId || t.customerId === customerId),
    );
  }

  /** Marks transactions settled (all pending ones by default), like Braintree's nightly batch. */
  settle(transactionId?: string): void {
    for (const t of this.transactions) {
      if (t.status === 'submitted_for_settlement' && (!transactionId || t.id === transactionId)) t.status = 'settled';
    }
  }

  /** Refunds a sale in full: a credit transaction. */
  refund(transactionId: string): FakeTransaction {
    const sale = this.transactions.find((t) => t.id === transactionId && t.type === 'sale');
    if (!sale) throw new Error(`no sale ${transactionId}`);
    return this.record({ ...sale, type: 'credit', status: 'submitted_for_settlement', createdAt: this.now() });
  }

  /**
   * Runs the subscription's next billing (ends a trial, renews a period): a successful charge
   * moves the paid-through and next billing dates one cycle on; a declined one makes it Past Due.
   */
  bill(subscriptionId: string): FakeTransaction {
    const sub = this.mustSubscription(subscriptionId);
    const card = this.cards.get(sub.paymentMethodToken)!;
    const tx = this.charge(card, sub.priceCents, sub.id);
    sub.transactionIds.unshift(tx.id);
    if (tx.status === 'processor_declined') {
      sub.status = 'Past Due';
      sub.failureCount += 1;
      sub.balanceCents += sub.priceCents;
    } else {
      this.startPeriod(sub, sub.nextBillingDate ?? day(this.now()));
    }
    return tx;
  }

  /** Puts a subscription into Past Due as if its renewal had been declined. */
  advanceToPastDue(subscriptionId: string): void {
    const sub = this.mustSubscription(subscriptionId);
    const card = this.cards.get(sub.paymentMethodToken)!;
    const tx = this.record({
      id: this.id(),
      type: 'sale',
      amountCents: sub.priceCents,
      status: 'processor_declined',
      customerId: card.customerId,
      subscriptionId: sub.id,
      paymentMethodToken: card.token,
      processorResponseCode: '2001',
      processorResponseText: 'Insufficient Funds',
      createdAt: this.now(),
    });
    sub.transactionIds.unshift(tx.id);
    sub.status = 'Past Due';
    sub.failureCount += 1;
    sub.balanceCents += sub.priceCents;
  }

  /**
   * A signed webhook notification (`bt_signature`, `bt_payload`) of `kind` for a subscription:
   * with the fake's current state of that subscription when it knows it, else Braintree's sample
   * subject (only the id), as `webhookTesting.sampleNotification` makes it.
   */
  webhook(kind: string, subscriptionId: string): { bt_signature: string; bt_payload: string } {
    const sub = this.subscriptions.get(subscriptionId);
    const subject = sub
      ? toXml('subscription', this.subscriptionXml(sub))
      : `<subscription><id>${escapeXml(subscriptionId)}</id><transactions type="array"></transactions><add_ons type="array"></add_ons><discounts type="array"></discounts></subscription>`;
    const xml =
      `<notification><timestamp type="datetime">${this.now().toISOString()}</timestamp>` +
      `<kind>${escapeXml(kind)}</kind><subject>${subject}</subject></notification>`;
    const payload = Buffer.from(xml).toString('base64') + '\n';
    // Braintree's scheme: public_key|hex(HMAC-SHA1(key = SHA1(private_key), payload))
    const key = createHash('sha1').update(this.privateKey).digest();
    const signature = createHmac('sha1', key).update(payload, 'binary').digest('hex');
    return { bt_signature: `${this.publicKey}|${signature}`, bt_payload: payload };
  }

  // --- HTTP ----------------------------------------------------------------------------------

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const prefix = `/merchants/${this.merchantId}`;
      const url = req.url ?? '/';
      const path = url.startsWith(prefix) ? url.slice(prefix.length).split('?')[0]! : url;
      let body: Record<string, unknown>;
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        return this.send(res, { status: 400 });
      }
      this.requests.push({ method, path, body });
      const fault = this.takeFault(method, path);
      if (fault?.kind === 'fail') return this.send(res, { status: fault.status });
      let reply: Reply;
      if (!this.authorized(req) || !url.startsWith(prefix)) reply = { status: 401 };
      else {
        try {
          reply = this.route(method, path, body);
        } catch (err) {
          if (err instanceof ValidationFailure) reply = { status: 422, body: this.errorXml(err) };
          else if (err instanceof NotFound) reply = { status: 404 };
          else reply = { status: 500, body: `<error>${escapeXml(String(err))}</error>` };
        }
      }
      if (fault?.kind === 'delay') {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!res.destroyed) this.send(res, reply);
        }, fault.ms);
        this.timers.add(timer);
      } else this.send(res, reply);
    });
  }

  private send(res: http.ServerResponse, reply: Reply): void {
    const body = reply.body === undefined ? '' : `<?xml version="1.0" encoding="UTF-8"?>\n${reply.body}`;
    res.writeHead(reply.status, { 'Content-Type': 'application/xml; charset=utf-8' });
    res.end(body);
  }

  private takeFault(method: string, path: string) {
    const fault = this.faults.find(
      (f) => f.left > 0 && (!f.match.method || f.match.method === method) && (!f.match.path || f.match.path.test(path)),
    );
    if (fault) fault.left -= 1;
    return fault;
  }

  private authorized(req: http.IncomingMessage): boolean {
    const expected = `Basic ${Buffer.from(`${this.publicKey}:${this.privateKey}`).toString('base64')}`;
    return req.headers.authorization === expected;
  }

  private route(method: string, path: string, body: Record<string, unknown>): Reply {
    const seg = path.split('/').filter(Boolean).map(decodeURIComponent);
    const key = `${method} /${seg[0] ?? ''}`;
    const input = (name: string) => (body[name] ?? {}) as Record<string, unknown>;
    switch (true) {
      case key === 'POST /client_token' && seg.length === 1:
        return this.ok('clientToken', { value: this.clientToken(input('client_token')) });
      case key === 'POST /customers' && seg.length === 1:
        return this.ok('customer', this.customerXml(this.createCustomer(input('customer'))), 201);
      case key === 'GET /customers' && seg.length === 2:
        return this.ok('customer', this.customerXml(this.mustCustomer(seg[1]!)));
      case key === 'PUT /customers' && seg.length === 2:
        return this.ok('customer', this.customerXml(this.updateCustomer(seg[1]!, input('customer'))));
      case key === 'POST /payment_methods' && seg.length === 1:
        return this.ok('creditCard', this.cardXml(this.createCard(input('payment_method'))), 201);
      case key === 'GET /payment_methods' && seg.length === 3 && seg[1] === 'any': {
        const card = this.cards.get(seg[2]!);
        return card ? this.ok('creditCard', this.cardXml(card)) : { status: 404 };
      }
      case key === 'POST /subscriptions' && seg.length === 1:
        return this.ok('subscription', this.subscriptionXml(this.createSubscription(input('subscription'))), 201);
      case key === 'GET /subscriptions' && seg.length === 2: {
        const sub = this.subscriptions.get(seg[1]!);
        return sub ? this.ok('subscription', this.subscriptionXml(sub)) : { status: 404 };
      }
      case key === 'PUT /subscriptions' && seg.length === 2:
        return this.ok('subscription', this.subscriptionXml(this.updateSubscription(seg[1]!, input('subscription'))));
      case key === 'PUT /subscriptions' && seg.length === 3 && seg[2] === 'cancel':
        return this.ok('subscription', this.subscriptionXml(this.cancelSubscription(seg[1]!)));
      case key === 'POST /transactions' && seg.length === 1:
        return this.ok('transaction', this.transactionXml(this.sale(input('transaction'))), 201);
      case key === 'POST /transactions' && seg[1] === 'advanced_search_ids':
        return {
          status: 200,
          body: toXml('searchResults', {
            pageSize: 50,
            ids: this.searchTransactions(input('search')).map((t) => t.id),
          }),
        };
      case key === 'POST /transactions' && seg[1] === 'advanced_search': {
        const found = this.searchTransactions(input('search'));
        return {
          status: 200,
          body:
            `<credit-card-transactions type="collection"><current-page-number type="integer">1</current-page-number>` +
            `<page-size type="integer">50</page-size><total-items type="integer">${found.length}</total-items>` +
            found.map((t) => toXml('transaction', this.transactionXml(t))).join('') +
            `</credit-card-transactions>`,
        };
      }
      default:
        return { status: 404 };
    }
  }

  private ok(root: string, value: XmlValue, status = 200): Reply {
    return { status, body: toXml(root, value) };
  }

  // --- operations ------------------------------------------------------------------------------

  private clientToken(params: Record<string, unknown>): string {
    if (params.customer_id && !this.customers.has(str(params.customer_id))) {
      throw new ValidationFailure('Customer specified by customer_id does not exist', [
        { code: '92804', attribute: 'customer_id', message: 'Customer specified by customer_id does not exist' },
      ]);
    }
    const token = {
      version: 2,
      authorizationFingerprint: randomBytes(16).toString('hex'),
      configUrl: `${this.url}/merchants/${this.merchantId}/client_api/v1/configuration`,
      environment: 'fake',
      merchantId: this.merchantId,
      ...(params.customer_id ? { customerId: params.customer_id } : {}),
    };
    return Buffer.from(JSON.stringify(token)).toString('base64');
  }

  private createCustomer(attrs: Record<string, unknown>): FakeCustomer {
    const id = attrs.id ? str(attrs.id) : this.id();
    if (this.customers.has(id)) {
      throw new ValidationFailure('Customer ID has already been taken.', [
        { code: '91609', attribute: 'id', message: 'Customer ID has already been taken.' },
      ]);
    }
    if (attrs.email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(str(attrs.email))) {
      throw new ValidationFailure('Email is an invalid format.', [
        { code: '81604', attribute: 'email', message: 'Email is an invalid format.' },
      ]);
    }
    const customer: FakeCustomer = { id, createdAt: this.now() };
    this.customers.set(id, Object.assign(customer, this.customerFields(attrs)));
    return customer;
  }

  private updateCustomer(id: string, attrs: Record<string, unknown>): FakeCustomer {
    const customer = this.mustCustomer(id);
    return Object.assign(customer, this.customerFields(attrs));
  }

  private customerFields(attrs: Record<string, unknown>): Partial<FakeCustomer> {
    const out: Partial<FakeCustomer> = {};
    if (attrs.first_name !== undefined) out.firstName = str(attrs.first_name);
    if (attrs.last_name !== undefined) out.lastName = str(attrs.last_name);
    if (attrs.email !== undefined) out.email = str(attrs.email);
    if (attrs.company !== undefined) out.company = str(attrs.company);
    return out;
  }

  private mustCustomer(id: string): FakeCustomer {
    const customer = this.customers.get(id);
    if (!customer) throw new NotFound();
    return customer;
  }

  private mustSubscription(id: string): FakeSubscription {
    const sub = this.subscriptions.get(id);
    if (!sub) throw new Error(`no subscription ${id}`);
    return sub;
  }

  private createCard(attrs: Record<string, unknown>): FakeCard {
    const customerId = str(attrs.customer_id);
    if (!this.customers.has(customerId)) {
      throw new ValidationFailure('Customer ID is invalid.', [
        { code: '93105', attribute: 'customer_id', message: 'Customer ID is invalid.' },
      ]);
    }
    const nonce = str(attrs.payment_method_nonce);
    if (this.usedNonces.has(nonce)) {
      throw new ValidationFailure('Cannot use a payment_method_nonce more than once.', [
        {
          code: '93107',
          attribute: 'payment_method_nonce',
          message: 'Cannot use a payment_method_nonce more than once.',
        },
      ]);
    }
    const kind = VALID_NONCES[nonce] ?? DECLINED_NONCES[nonce] ?? this.issuedNonces.get(nonce);
    if (!kind) {
      throw new ValidationFailure('Unknown payment_method_nonce.', [
        { code: '93108', attribute: 'payment_method_nonce', message: 'Unknown payment_method_nonce.' },
      ]);
    }
    const token = attrs.token ? str(attrs.token) : this.id();
    if (this.cards.has(token)) {
      throw new ValidationFailure('Payment method token is in use.', [
        { code: '91719', attribute: 'token', message: 'Customer ID has already been taken.' },
      ]);
    }
    const declines = nonce in DECLINED_NONCES || !!this.issuedNonces.get(nonce)?.declines;
    const options = (attrs.options ?? {}) as Record<string, unknown>;
    // the static sandbox nonces can be used again and again; issued ones once
    if (this.issuedNonces.delete(nonce)) this.usedNonces.add(nonce);
    if (declines && options.verify_card) {
      throw new ValidationFailure('Do Not Honor', [], {
        verification: {
          status: 'processor_declined',
          processorResponseCode: '2000',
          processorResponseText: 'Do Not Honor',
          creditCard: { cardType: kind.cardType, last4: kind.last4 },
        },
      });
    }
    const card: FakeCard = { token, customerId, cardType: kind.cardType, last4: kind.last4, declines };
    this.cards.set(token, card);
    return card;
  }

  private createSubscription(attrs: Record<string, unknown>): FakeSubscription {
    const id = attrs.id ? str(attrs.id) : this.id();
    const fail = (code: string, attribute: string, message: string): never => {
      throw new ValidationFailure(message, [{ code, attribute, message }]);
    };
    if (this.subscriptions.has(id)) fail('81902', 'id', 'ID has already been taken.');
    const planId = str(attrs.plan_id);
    if (!this.planMonths(planId)) fail('91904', 'plan_id', 'Plan ID is invalid.');
    const card = this.cards.get(str(attrs.payment_method_token));
    if (!card) fail('91903', 'payment_method_token', 'Payment method token is invalid.');
    const priceCents = cents(attrs.price);
    if (!Number.isInteger(priceCents) || priceCents < 0) fail('81904', 'price', 'Price is an invalid format.');
    const today = day(this.now());
    const first = attrs.first_billing_date ? str(attrs.first_billing_date).slice(0, 10) : today;
    if (first < today) fail('81910', 'first_billing_date', 'First Billing Date cannot be in the past.');
    const sub: FakeSubscription = {
      id,
      planId,
      status: 'Pending',
      priceCents,
      balanceCents: 0,
      paymentMethodToken: card!.token,
      firstBillingDate: first,
      nextBillingDate: first,
      paidThroughDate: null,
      billingCycle: 0,
      failureCount: 0,
      createdAt: this.now(),
      transactionIds: [],
    };
    if (first === today) {
      // billed at once: Braintree does not create the subscription when the first charge fails
      const tx = this.charge(card!, priceCents, id);
      if (tx.status === 'processor_declined') {
        throw new ValidationFailure(tx.processorResponseText, [], { transaction: this.transactionXml(tx) });
      }
      sub.transactionIds.unshift(tx.id);
      this.startPeriod(sub, today);
    }
    this.subscriptions.set(id, sub);
    return sub;
  }

  private updateSubscription(id: string, attrs: Record<string, unknown>): FakeSubscription {
    const sub = this.subscriptions.get(id);
    if (!sub) throw new NotFound();
    if (sub.status === 'Canceled' || sub.status === 'Expired') {
      throw new ValidationFailure('Subscription has been canceled.', [
        { code: '81901', attribute: 'base', message: 'Cannot edit a canceled subscription.' },
      ]);
    }
    if (attrs.plan_id !== undefined) {
      const months = this.planMonths(str(attrs.plan_id));
      if (!months) {
        throw new ValidationFailure('Plan ID is invalid.', [
          { code: '91904', attribute: 'plan_id', message: 'Plan ID is invalid.' },
        ]);
      }
      if (months !== this.planMonths(sub.planId)) {
        // like Braintree: a subscription keeps its plan's billing cycle for life
        const message = 'Cannot update subscription to a plan with a different billing frequency.';
        throw new ValidationFailure(message, [{ code: '91922', attribute: 'plan_id', message }]);
      }
      sub.planId = str(attrs.plan_id);
    }
    if (attrs.price !== undefined) sub.priceCents = cents(attrs.price);
    if (attrs.payment_method_token !== undefined) {
      const card = this.cards.get(str(attrs.payment_method_token));
      if (!card) {
        throw new ValidationFailure('Payment method token is invalid.', [
          { code: '91903', attribute: 'payment_method_token', message: 'Payment method token is invalid.' },
        ]);
      }
      sub.paymentMethodToken = card.token;
    }
    return sub;
  }

  private cancelSubscription(id: string): FakeSubscription {
    const sub = this.subscriptions.get(id);
    if (!sub) throw new NotFound();
    if (sub.status === 'Canceled') {
      throw new ValidationFailure('Subscription has already been canceled.', [
        { code: '81905', attribute: 'status', message: 'Subscription has already been canceled.' },
      ]);
    }
    sub.status = 'Canceled';
    sub.nextBillingDate = null;
    return sub;
  }

  /** transaction.sale: here only a subscription's retried charge (retryCharge). */
  private sale(attrs: Record<string, unknown>): FakeTransaction {
    const sub = this.subscriptions.get(str(attrs.subscription_id));
    if (!sub) {
      throw new ValidationFailure('Subscription ID is invalid.', [
        { code: '91515', attribute: 'subscription_id', message: 'Subscription ID is invalid.' },
      ]);
    }
    const amount = attrs.amount !== undefined ? cents(attrs.amount) : sub.balanceCents || sub.priceCents;
    const tx = this.charge(this.cards.get(sub.paymentMethodToken)!, amount, sub.id);
    sub.transactionIds.unshift(tx.id);
    if (tx.status === 'processor_declined') {
      sub.failureCount += 1;
      throw new ValidationFailure(tx.processorResponseText, [], { transaction: this.transactionXml(tx) });
    }
    if (sub.status === 'Past Due') {
      sub.balanceCents = Math.max(0, sub.balanceCents - amount);
      if (sub.balanceCents === 0) this.startPeriod(sub, sub.nextBillingDate ?? day(this.now()));
    }
    return tx;
  }

  private charge(card: FakeCard, amountCents: number, subscriptionId: string | null): FakeTransaction {
    const units = Math.floor(amountCents / 100);
    const declineCode = card.declines ? 2000 : units >= 2000 && units <= 2999 ? units : 0;
    return this.record({
      id: this.id(),
      type: 'sale',
      amountCents,
      status: declineCode ? 'processor_declined' : 'submitted_for_settlement',
      customerId: card.customerId,
      subscriptionId,
      paymentMethodToken: card.token,
      processorResponseCode: declineCode ? String(declineCode) : '1000',
      processorResponseText: declineCode ? (DECLINE_TEXTS[declineCode] ?? 'Processor Declined') : 'Approved',
      createdAt: this.now(),
    });
  }

  private startPeriod(sub: FakeSubscription, start: string): void {
    const months = this.planMonths(sub.planId) ?? 1;
    const next = addMonths(start, months);
    sub.status = 'Active';
    sub.billingCycle += 1;
    sub.balanceCents = 0;
    sub.failureCount = 0;
    sub.paidThroughDate = addDays(next, -1);
    sub.nextBillingDate = next;
  }

  private record(tx: FakeTransaction): FakeTransaction {
    const copy = { ...tx, id: tx.id === undefined ? this.id() : tx.id };
    if (this.transactions.some((t) => t.id === copy.id)) copy.id = this.id();
    this.transactions.push(copy);
    return copy;
  }

  private searchTransactions(search: Record<string, unknown>): FakeTransaction[] {
    const customer = (search.customer_id as { is?: string } | undefined)?.is;
    const ids = search.ids as string[] | { in?: string[] } | undefined;
    const idList = Array.isArray(ids) ? ids : ids?.in;
    return this.transactions.filter(
      (t) => (customer === undefined || t.customerId === customer) && (!idList || idList.includes(t.id)),
    );
  }

  // --- XML bodies ----------------------------------------------------------------------------

  private id(): string {
    this.seq += 1;
    return `${this.seq.toString(36)}${randomBytes(3).toString('hex')}`;
  }

  private customerXml(c: FakeCustomer): XmlValue {
    return {
      id: c.id,
      firstName: c.firstName ?? null,
      lastName: c.lastName ?? null,
      email: c.email ?? null,
      company: c.company ?? null,
      createdAt: c.createdAt,
      updatedAt: this.now(),
      creditCards: [...this.cards.values()]
        .filter((card) => card.customerId === c.id)
        .map((card) => this.cardXml(card)),
      addresses: [],
    };
  }

  private cardXml(card: FakeCard): { [key: string]: XmlValue } {
    return {
      token: card.token,
      customerId: card.customerId,
      cardType: card.cardType,
      last4: card.last4,
      bin: '411111',
      expirationMonth: '12',
      expirationYear: String(this.now().getUTCFullYear() + 3),
      default: true,
      subscriptions: [],
    };
  }

  private subscriptionXml(sub: FakeSubscription): { [key: string]: XmlValue } {
    return {
      id: sub.id,
      planId: sub.planId,
      status: sub.status,
      price: money(sub.priceCents),
      balance: money(sub.balanceCents),
      nextBillAmount: money(sub.priceCents + sub.balanceCents),
      paymentMethodToken: sub.paymentMethodToken,
      firstBillingDate: sub.firstBillingDate,
      nextBillingDate: sub.nextBillingDate,
      paidThroughDate: sub.paidThroughDate,
      billingPeriodStartDate: sub.paidThroughDate
        ? addDays(addMonths(sub.paidThroughDate, -(this.planMonths(sub.planId) ?? 1)), 1)
        : null,
      billingPeriodEndDate: sub.paidThroughDate,
      currentBillingCycle: sub.billingCycle,
      failureCount: sub.failureCount,
      daysPastDue: sub.status === 'Past Due' ? 1 : null,
      neverExpires: true,
      numberOfBillingCycles: null,
      trialPeriod: false,
      merchantAccountId: 'fake-eur',
      createdAt: sub.createdAt,
      updatedAt: this.now(),
      transactions: sub.transactionIds
        .map((id) => this.transactions.find((t) => t.id === id))
        .filter((t): t is FakeTransaction => !!t)
        .map((t) => this.transactionXml(t)),
      addOns: [],
      discounts: [],
    };
  }

  private transactionXml(t: FakeTransaction): { [key: string]: XmlValue } {
    const card = this.cards.get(t.paymentMethodToken);
    return {
      id: t.id,
      type: t.type,
      amount: money(t.amountCents),
      currencyIsoCode: 'EUR',
      status: t.status,
      customerId: t.customerId,
      subscriptionId: t.subscriptionId,
      processorResponseCode: t.processorResponseCode,
      processorResponseText: t.processorResponseText,
      processorResponseType: t.status === 'processor_declined' ? 'soft_declined' : 'approved',
      merchantAccountId: 'fake-eur',
      createdAt: t.createdAt,
      updatedAt: t.createdAt,
      customer: { id: t.customerId },
      creditCard: card ? { token: card.token, cardType: card.cardType, last4: card.last4 } : {},
    };
  }

  private errorXml(failure: ValidationFailure): string {
    // errors nest per attribute group in real answers; one flat group is enough for the SDK
    const errors = `<errors><errors type="array"/><base><errors type="array">${failure.errors
      .map((e) => toXml('error', { code: e.code, attribute: e.attribute, message: e.message }))
      .join('')}</errors></base></errors>`;
    const extra = Object.entries(failure.extra)
      .map(([k, v]) => toXml(k, v))
      .join('');
    return `<api-error-response>${errors}<message>${escapeXml(failure.message)}</message><params/>${extra}</api-error-response>`;
  }
}

class NotFound extends Error {}
