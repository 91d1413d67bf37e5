/** Who is calling. The gateway already refuses guests on login-required routes; this is the service's own check. */
import { AppError } from '@wb/proto';
import type { RequestActor } from '@wb/proto';

/** the logged-in user's id, or ERR_UNAUTHORIZED for guests */
export function requireUserId(actor: RequestActor): number {
  if (!Number.isInteger(actor.userId) || actor.userId <= 0) throw new AppError('ERR_UNAUTHORIZED');
  return actor.userId;
}

export function isGuest(actor: Pick<RequestActor, 'userId'>): boolean {
  return !Number.isInteger(actor.userId) || actor.userId <= 0;
}
