/**
 * Password hashing with node:crypto scrypt at OWASP's recommended cost (N=2^17, r=8, p=1), a
 * 32-byte salt, stored as a PHC-style self-describing string
 *   $scrypt$ln=17,r=8,p=1$<salt b64>$<key b64>
 * so the cost can rise later: `verify` reports `needsRehash` when a stored hash used other
 * parameters, and login then stores a fresh hash.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

export interface ScryptParams {
  /** log2 of the CPU/memory cost N */
  logN: number;
  r: number;
  p: number;
}
export const OWASP_SCRYPT_PARAMS: ScryptParams = { logN: 17, r: 8, p: 1 };
const SALT_BYTES = 32;
const KEY_BYTES = 32;
/** N=2^17, r=8 needs 128 MiB; node's default limit (32 MiB) would refuse it */
const MAXMEM = 256 * 1024 * 1024;
const PHC_RE = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function derive(password: string, salt: Buffer, keyLength: number, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** params.logN, r: params.r, p: params.p, maxmem: MAXMEM };
  return new Promise((resolve, reject) => {
    // NFKC: the same password typed on another keyboard/OS (composed vs decomposed) still matches
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

const b64 = (buf: Buffer): string => buf.toString('base64').replace(/=+$/, '');

export interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}
export function parsePasswordHash(stored: string): ParsedHash | null {
  const m = PHC_RE.exec(stored);
  if (!m) return null;
  const params = { logN: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  if (params.logN < 1 || params.logN > 24 || params.r < 1 || params.p < 1) return null;
  return { params, salt: Buffer.from(m[4]!, 'base64'), key: Buffer.from(m[5]!, 'base64') };
}

/** Counting semaphore: each scrypt at N=2^17 holds 128 MiB, so only a few may run at once. */
class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

export interface VerifyResult {
  ok: boolean;
  /** the hash was made with other parameters than the current ones: store a new one */
  needsRehash: boolean;
}

export class PasswordHasher {
  private readonly params: ScryptParams;
  private readonly limiter: Limiter;
  private dummy?: Promise<string>;

  constructor(opts: { params?: ScryptParams; maxConcurrent?: number } = {}) {
    this.params = opts.params ?? OWASP_SCRYPT_PARAMS;
    this.limiter = new Limiter(opts.maxConcurrent ?? 2);
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await this.limiter.run(() => derive(password, salt, KEY_BYTES, this.params));
    const { logN, r, p } = this.params;
    return `$scrypt$ln=${logN},r=${r},p=${p}$${b64(salt)}$${b64(key)}`;
  }

  async verify(password: string, stored: string): Promise<VerifyResult> {
    const parsed = parsePasswordHash(stored);
    if (!parsed || parsed.key.length < 16) return { ok: false, needsRehash: false };
    const key = await this.limiter.run(() => derive(password, parsed.salt, parsed.key.length, parsed.params));
    const ok = timingSafeEqual(key, parsed.key);
    const p = parsed.params;
    const current =
      p.logN === this.params.logN &&
      p.r === this.params.r &&
      p.p === this.params.p &&
      parsed.salt.length === SALT_BYTES &&
      parsed.key.length === KEY_BYTES;
    return { ok, needsRehash: ok && !current };
  }

  /**
   * Spend the time of one verification against a hash nobody owns, so that "unknown email"
   * answers as slowly as "wrong password" (no account enumeration by timing).
   */
  async verifyDummy(password: string): Promise<void> {
    await this.verify(password, await this.warmUp());
  }

  /** make the dummy hash ahead of the first unknown-email login (called at start) */
  warmUp(): Promise<string> {
    this.dummy ??= this.hash(randomBytes(16).toString('hex'));
    return this.dummy;
  }
}
