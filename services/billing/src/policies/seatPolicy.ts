/**
 * THE SEAM between billing and the teams service (which owns memberships): "the licence count
 * cannot go below the number of active users" (spec §5). Billing asks a SeatPolicy before it
 * lowers a subscription's seats; the policy says ERR_SEAT_COUNT_TOO_LOW when the owner's team has
 * more active users than that.
 *
 * - `TeamsSeatPolicy` asks `svc.teams.seats.check` with `{ seats }` and the owner as actor (the
 *   contract in proto/src/teams.ts: `{ ok: true, activeUsers }`, or ERR_SEAT_COUNT_TOO_LOW).
 *   With SEAT_POLICY=auto (the default while the teams service is being built) a deployment
 *   without a teams service (no responders) counts only the owner; with SEAT_POLICY=teams it
 *   answers ERR_TEMPORARY_PROBLEM instead, so seats are never lowered unchecked.
 * - `FixedSeatPolicy` is the test double: a fixed number of active users per owner.
 */
import type { Bus, Logger } from '@wb/platform';
import { AppError } from '@wb/proto';

export interface SeatPolicy {
  /** resolves when `seats` covers the owner's active users; ERR_SEAT_COUNT_TOO_LOW otherwise */
  check(ownerId: number, seats: number): Promise<void>;
}

function tooLow(activeUsers: number): AppError {
  return new AppError(
    'ERR_SEAT_COUNT_TOO_LOW',
    `The number of licences cannot be lower than the number of active users (${activeUsers})`,
    { seats: `at least ${activeUsers}` },
  );
}

export class TeamsSeatPolicy implements SeatPolicy {
  constructor(
    private readonly bus: Pick<Bus, 'request'>,
    private readonly mode: 'teams' | 'auto',
    private readonly log: Logger,
  ) {}

  async check(ownerId: number, seats: number): Promise<void> {
    try {
      const reply = await this.bus.request<{ ok?: unknown; activeUsers?: unknown }>(
        'teams',
        'seats.check',
        { seats },
        { userId: ownerId },
      );
      // defensive: a reply that counts more users than seats is a refusal too
      const active = typeof reply.data?.activeUsers === 'number' ? reply.data.activeUsers : 0;
      if (active > seats) throw tooLow(active);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === 'ERR_SEAT_COUNT_TOO_LOW') throw err;
      if (err.code === 'ERR_SERVICE_UNAVAILABLE' && this.mode === 'auto') {
        // no teams service deployed: the owner is the only active user, and seats ≥ 1 by schema
        this.log.debug({ ownerId }, 'no teams service answers seats.check: only the owner counts');
        return;
      }
      this.log.warn({ ownerId, code: err.code }, 'teams seats.check failed');
      throw new AppError('ERR_TEMPORARY_PROBLEM', 'The licences in use cannot be counted right now, please try again');
    }
  }
}

/** Test double: `activeUsers(ownerId)` active users in every owner's team. */
export class FixedSeatPolicy implements SeatPolicy {
  constructor(private readonly activeUsers: (ownerId: number) => number) {}

  async check(ownerId: number, seats: number): Promise<void> {
    const active = this.activeUsers(ownerId);
    if (seats < active) throw tooLow(active);
  }
}
