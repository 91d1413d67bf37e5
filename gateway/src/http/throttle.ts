/**
 * Login throttling in Redis (routes with `throttle: 'credentials'`). Sliding 15-minute windows:
 *   (account, address)  5 failures → 429 until the oldest counted failure leaves the window
 *   address             30 failures across accounts → 429 (skipped for trusted devices)
 *   account             from 10 failures, one attempt per 30 s, doubling every further 10
 *                       failures, capped at 15 min (skipped for trusted devices)
 * A trusted device is a browser holding the signed `dev` cookie issued at a successful login to
 * that account, so an attacker elsewhere can slow strangers down but never lock the real user
 * out. Attempts are recorded *before* forwarding (a burst of parallel guesses counts in full)
 * and withdrawn when the answer is not ERR_LOGIN_FAILED; a success clears (account, address).
 * Accounts are keyed by a hash of the lower-cased email: no addresses in Redis keys.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '@wb/platform';
import { HttpAppError } from './errors';

export interface ThrottleLimits {
  windowMs: number;
  perPair: number;
  perAddress: number;
  /** account failures from which the progressive delay applies */
  accountThreshold: number;
  accountDelayMs: number;
  accountDelayCapMs: number;
  /** how long a device stays trusted after its last successful login */
  deviceTtlMs: number;
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = {
  windowMs: 15 * 60_000,
  perPair: 5,
  perAddress: 30,
  accountThreshold: 10,
  accountDelayMs: 30_000,
  accountDelayCapMs: 15 * 60_000,
  deviceTtlMs: 180 * 24 * 3600_000,
};

/** Check all limits and record the attempt atomically (one round trip). */
const BEGIN_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
for i = 1, 3 do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window) end
local function retryAfter(key, max)
  local n = redis.call('ZCARD', key)
  if n < max then return nil end
  local e = redis.call('ZRANGE', key, n - max, n - max, 'WITHSCORES')
  return math.max(1, tonumber(e[2]) + window - now)
end
local trusted = ARGV[7] ~= '' and redis.call('SISMEMBER', KEYS[5], ARGV[7]) == 1
local r = retryAfter(KEYS[1], tonumber(ARGV[3]))
if r then return {1, r} end
if not trusted then
  r = retryAfter(KEYS[2], tonumber(ARGV[4]))
  if r then return {2, r} end
  local f = redis.call('ZCARD', KEYS[3])
  local threshold = tonumber(ARGV[5])
  if f >= threshold then
    local delay = math.floor(math.min(tonumber(ARGV[8]) * 2 ^ math.floor((f - threshold) / threshold), tonumber(ARGV[9])))
    if not redis.call('SET', KEYS[4], '1', 'NX', 'PX', delay) then
      return {3, math.max(1, redis.call('PTTL', KEYS[4]))}
    end
  end
end
for i = 1, 3 do
  redis.call('ZADD', KEYS[i], now, ARGV[6])
  redis.call('PEXPIRE', KEYS[i], window)
end
return {0, 0}
`;

export interface LoginAttempt {
  /** the login worked: clear (account, address), trust this device; returns a new device cookie value if one should be set */
  succeeded(): Promise<string | undefined>;
  /** ERR_LOGIN_FAILED: the recorded attempt stays counted */
  failed(): Promise<void>;
  /** any other outcome (validation, outage): withdraw the attempt */
  abandoned(): Promise<void>;
}

function waitText(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 90) return `${s} second${s === 1 ? '' : 's'}`;
  return `${Math.ceil(s / 60)} minutes`;
}

const REASONS: Record<number, (wait: string) => string> = {
  1: (w) => `Too many failed login attempts. Please wait ${w} before trying again.`,
  2: (w) => `Too many failed login attempts from your network. Please wait ${w} before trying again.`,
  3: (w) => `This account is protected after many failed login attempts. Please wait ${w} before trying again.`,
};

export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly secret: string,
    private readonly log: Logger,
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 (with Retry-After) when a limit is reached; otherwise records the attempt. */
  async begin(email: string, address: string, deviceCookie: string | undefined): Promise<LoginAttempt> {
    const account = createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
    const base = `${this.prefix}gw:login:`;
    const keys = [
      `${base}pair:${account}:${address}`,
      `${base}addr:${address}`,
      `${base}acct:${account}`,
      `${base}gate:${account}`,
      `${base}dev:${account}`,
    ];
    const device = this.deviceIdOf(deviceCookie);
    const member = `${this.now()}:${randomBytes(6).toString('base64url')}`;
    const l = this.limits;
    let verdict: [number, number];
    try {
      verdict = (await this.redis.eval(
        BEGIN_SCRIPT,
        5,
        ...keys,
        this.now(),
        l.windowMs,
        l.perPair,
        l.perAddress,
        l.accountThreshold,
        member,
        device ?? '',
        l.accountDelayMs,
        l.accountDelayCapMs,
      )) as [number, number];
    } catch (err) {
      // Fail open: a Redis outage must not stop every login (documented in the README).
      this.log.error({ err }, 'login throttle unavailable');
      return { succeeded: async () => undefined, failed: async () => {}, abandoned: async () => {} };
    }
    const [reason, retryMs] = verdict;
    if (reason !== 0) {
      const wait = waitText(retryMs);
      throw new HttpAppError('ERR_TOO_MANY_REQUESTS', REASONS[reason]!(wait), {
        'Retry-After': String(Math.ceil(retryMs / 1000)),
      });
    }
    const quietly = (p: Promise<unknown>): Promise<void> =>
      p.then(
        () => undefined,
        (err: unknown) => this.log.warn({ err }, 'login throttle update failed'),
      );
    return {
      succeeded: async () => {
        const newDevice = device ? undefined : randomBytes(16).toString('base64url');
        const multi = this.redis
          .multi()
          .del(keys[0]!)
          .zrem(keys[1]!, member)
          .zrem(keys[2]!, member)
          .sadd(keys[4]!, device ?? newDevice!)
          .pexpire(keys[4]!, l.deviceTtlMs);
        await quietly(multi.exec());
        return newDevice ? this.signDevice(newDevice) : undefined;
      },
      failed: async () => {},
      abandoned: () =>
        quietly(this.redis.multi().zrem(keys[0]!, member).zrem(keys[1]!, member).zrem(keys[2]!, member).exec()),
    };
  }

  private signDevice(id: string): string {
    return `${id}.${createHmac('sha256', this.secret).update(`device.${id}`).digest('base64url')}`;
  }

  /** The device id of a well-signed device cookie, else undefined. */
  private deviceIdOf(cookie: string | undefined): string | undefined {
    if (!cookie) return undefined;
    const dot = cookie.indexOf('.');
    if (dot <= 0) return undefined;
    const id = cookie.slice(0, dot);
    const expected = Buffer.from(this.signDevice(id));
    const given = Buffer.from(cookie);
    return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
  }
}
