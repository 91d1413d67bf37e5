/**
 * POST /api/business/join {token}: the invitee, signed in, opens the join-team link. The token
 * must belong to a pending invitation of an open business (else ERR_INVITATION_MISSING), the
 * signed-in account's address must be the invited one (ERR_NO_EMAIL_MATCH), they must be in no
 * team (ERR_USER_IN_BUSINESS) and a licence must be free (ERR_NO_AVAILABLE_SEATS). Joining takes a
 * licence and announces the team's plan for them (teams.licence.changed.v1, same transaction);
 * the owner gets a mail.
 */
import { withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { BusinessInfo, RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { assertCan } from '../policies/teamAccess';
import { findBusiness } from '../repositories/businesses';
import { isUniqueViolation } from '../repositories/db';
import { findInvitation, findInvitationByTokenHash, setInvitationStatus } from '../repositories/invitations';
import { countActive, findMembership, insertMember } from '../repositories/members';
import type { TeamsDeps } from './deps';
import { announceLicence, loadTeam } from './team';
import { infoAfterChange } from './teamReader';
import { hashJoinToken } from './tokens';

export async function joinTeam(deps: TeamsDeps, input: { token: string }, actor: RequestActor): Promise<BusinessInfo> {
  const userId = requireUserId(actor);
  const me = await deps.directory.userOf(userId);
  if (!me) throw new AppError('ERR_UNAUTHORIZED');
  const businessId = await withTransaction(deps.pool, async (client) => {
    const found = await findInvitationByTokenHash(client, hashJoinToken(input.token));
    if (!found) throw new AppError('ERR_INVITATION_MISSING');
    // the team first, then the invitation (the lock order of every team change)
    const business = await findBusiness(client, found.business_id, { forUpdate: true });
    const invitation = await findInvitation(client, found.id, { forUpdate: true });
    if (!business || business.closed_at || invitation?.status !== 'pending')
      throw new AppError('ERR_INVITATION_MISSING');
    if (me.email !== invitation.email) throw new AppError('ERR_NO_EMAIL_MATCH');
    assertCan(await findMembership(client, userId, { forUpdate: true }), 'join');
    const team = await loadTeam(client, business);
    if ((await countActive(client, business.id)) >= team.licences) throw new AppError('ERR_NO_AVAILABLE_SEATS');
    try {
      await insertMember(client, {
        userId,
        businessId: business.id,
        role: 'member',
        email: invitation.email,
        at: deps.now(),
      });
    } catch (err) {
      // joined another team at this very moment (members.user_id is the key)
      if (isUniqueViolation(err)) throw new AppError('ERR_USER_IN_BUSINESS');
      throw err;
    }
    await setInvitationStatus(client, invitation.id, 'accepted', deps.now(), userId);
    await announceLicence(client, deps.metrics, { userId, businessId: business.id, plan: team.plan });
    return business.id;
  });
  deps.log.info({ userId, businessId }, 'joined a team');
  await deps.mail
    .enqueue([{ kind: 'member_joined', businessId, memberId: userId }])
    .catch((err: unknown) => deps.log.warn({ err, businessId, userId }, 'member-joined mail not queued'));
  return infoAfterChange(deps, userId);
}
