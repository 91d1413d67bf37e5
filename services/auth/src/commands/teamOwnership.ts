/**
 * Whether a user owns an open business account, asked of the teams service
 * (svc.teams.owner.check): spec §6 "The owner cannot terminate their own account until the
 * business is closed". Fails closed: when teams does not answer, the caller gets
 * ERR_TEMPORARY_PROBLEM rather than an account terminated under a live business.
 */
import type { Bus, Logger } from '@wb/platform';
import { AppError, ownerCheckReplySchema } from '@wb/proto';

export interface TeamOwnership {
  /** true while `userId` owns an open business; rejects with ERR_TEMPORARY_PROBLEM when unknown */
  ownsBusiness(userId: number): Promise<boolean>;
}

export class TeamsOwnerCheck implements TeamOwnership {
  constructor(
    private readonly bus: Pick<Bus, 'request'>,
    private readonly log: Logger,
  ) {}

  async ownsBusiness(userId: number): Promise<boolean> {
    try {
      const reply = await this.bus.request('teams', 'owner.check', { userId }, { userId });
      return ownerCheckReplySchema.parse(reply.data).owner;
    } catch (err) {
      this.log.warn({ err, userId }, 'teams did not say whether the user owns a business; not terminating');
      throw new AppError('ERR_TEMPORARY_PROBLEM');
    }
  }
}
