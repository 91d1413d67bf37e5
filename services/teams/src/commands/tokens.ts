/** Join-link tokens: 256 random bits in the mail, only their SHA-256 in the database. */
import { createHash, randomBytes } from 'node:crypto';

export function newJoinToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashJoinToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
