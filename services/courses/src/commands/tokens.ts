/** Join-link tokens: 256 random bits in the mail, only their SHA-256 in the database. */
import { createHash, randomBytes } from 'node:crypto';

export const newJoinToken = (): string => randomBytes(32).toString('base64url');
export const hashJoinToken = (token: string): string => createHash('sha256').update(token).digest('hex');
