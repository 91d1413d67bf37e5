import { randomBytes } from 'node:crypto';

/** 20 characters of A-Za-z0-9_- (120 bits): idempotency keys and card-less trial ids */
export function newKey(): string {
  return randomBytes(15).toString('base64url');
}
