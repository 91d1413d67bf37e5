/**
 * Licence count (spec §5: it cannot go below the number of active users). The paid seat count
 * is billing's: a subscription change (and its payment) is billing's job, and the licences follow
 * billing.subscription.changed.v1. So PUT /api/business/seats only checks and records the count
 * the owner asks for (shown as licences.requested until billing's event brings it), and billing
 * asks svc.teams.seats.check before it changes a subscription's seats.
 */
import { withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { BusinessInfo, RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { findOpenBusinessOfOwner, setRequestedSeats } from '../repositories/businesses';
import { countActive } from '../repositories/members';
import type { TeamsDeps } from './deps';
import { loadTeam, lockOwnTeam } from './team';
import { infoAfterChange } from './teamReader';

function assertEnough(seats: number, active: number): void {
  if (seats < active) {
    throw new AppError('ERR_SEAT_COUNT_TOO_LOW', `${active} users are active: at least ${active} licences are needed`, {
      seats: `at least ${active}`,
    });
  }
}

export async function requestSeats(
  deps: TeamsDeps,
  input: { seats: number },
  actor: RequestActor,
): Promise<BusinessInfo> {
  const userId = requireUserId(actor);
  await withTransaction(deps.pool, async (client) => {
    const business = await lockOwnTeam(client, userId);
    assertEnough(input.seats, await countActive(client, business.id));
    const team = await loadTeam(client, business);
    await setRequestedSeats(client, business.id, input.seats === team.licences ? null : input.seats);
  });
  deps.log.info({ userId, seats: input.seats }, 'licence count requested');
  return infoAfterChange(deps, userId);
}

/** svc.teams.seats.check (billing; actor = the subscription's owner) */
export async function checkSeats(
  deps: TeamsDeps,
  input: { seats: number },
  actor: RequestActor,
): Promise<{ ok: true; activeUsers: number }> {
  const userId = requireUserId(actor);
  const business = await findOpenBusinessOfOwner(deps.pool, userId);
  const active = business ? await countActive(deps.pool, business.id) : 0;
  assertEnough(input.seats, active);
  return { ok: true, activeUsers: active };
}
