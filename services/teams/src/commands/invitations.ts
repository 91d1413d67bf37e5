/**
 * Invitations (spec §4 "Invitations are pending and can be cancelled", §5 no self-invitations,
 * no temporary addresses). POST /api/business/invitations takes several addresses and answers one
 * result per address: each is invited or refused with its own code (policies/invitationRules), so
 * one bad address does not stop the others. The mail (join-team link) is a BullMQ job queued after
 * the commit; when it cannot be queued the new invitations are cancelled again and the call fails
 * with ERR_TEMPORARY_PROBLEM, so an invitation is never pending without its mail on the way.
 */
import { withTransaction } from '@wb/platform';
import { AppError, DEFAULT_LOCALE, ERROR_CATALOGUE, LOCALES, TEAM_PENDING_INVITATIONS_MAX } from '@wb/proto';
import type { BusinessInfo, InvitationResult, InvitationsReply, Locale, RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { invitationRefusal, isValidEmail, normalizeEmail } from '../policies/invitationRules';
import { assertCan } from '../policies/teamAccess';
import { presentInvitation } from '../presenters/business';
import { findInvitation, insertInvitation, listPending, setInvitationStatus } from '../repositories/invitations';
import { findMembership, findMemberships, listMembers } from '../repositories/members';
import type { TeamsDeps } from './deps';
import { lockOwnTeam } from './team';
import { infoAfterChange } from './teamReader';

const asLocale = (v: string | null | undefined): Locale | null =>
  v && (LOCALES as readonly string[]).includes(v) ? (v as Locale) : null;

export async function createInvitations(
  deps: TeamsDeps,
  input: { emails: string[] },
  actor: RequestActor,
): Promise<InvitationsReply> {
  const userId = requireUserId(actor);
  const emails = [...new Set(input.emails.map(normalizeEmail))];
  // cheap refusals first: someone in no team, or a member, learns it without auth being asked
  assertCan(await findMembership(deps.pool, userId), 'manage');
  const owner = await deps.directory.userOf(userId);
  if (!owner) throw new AppError('ERR_UNAUTHORIZED');
  const accounts = await deps.directory.lookupEmails(emails.filter(isValidEmail));
  // the mail's language: the invitee's own setting, else the language the owner uses right now
  // (the web's x-locale / Accept-Language), else the owner's setting, else English
  const needsFallback = emails.some((e) => !accounts[e]?.locale);
  const fallback: Locale =
    asLocale(actor.locale) ?? (needsFallback ? await deps.directory.localeOf(userId) : null) ?? DEFAULT_LOCALE;

  const { results, created } = await withTransaction(deps.pool, async (client) => {
    const business = await lockOwnTeam(client, userId);
    const pending = await listPending(client, business.id);
    const pendingEmails = new Set(pending.map((i) => i.email));
    const memberEmails = new Set((await listMembers(client, business.id)).map((m) => m.email).filter(Boolean));
    const accountIds = Object.values(accounts).map((a) => a.id);
    const businessOf = new Map((await findMemberships(client, accountIds)).map((m) => [m.user_id, m.business_id]));
    let pendingCount = pending.length;
    const out: InvitationResult[] = [];
    const made: number[] = [];
    for (const email of emails) {
      const account = accounts[email];
      const code = invitationRefusal({
        email,
        isThrowaway: deps.throwaway.isThrowaway(email),
        ownerEmail: owner.email,
        ownerId: userId,
        accountId: account?.id ?? null,
        accountBusinessId: account ? (businessOf.get(account.id) ?? null) : null,
        businessId: business.id,
        memberHasEmail: memberEmails.has(email),
        alreadyInvited: pendingEmails.has(email),
        pendingCount,
        pendingMax: TEAM_PENDING_INVITATIONS_MAX,
      });
      if (code) {
        out.push({ email, invitation: null, code, message: ERROR_CATALOGUE[code].message });
        continue;
      }
      const row = await insertInvitation(client, {
        businessId: business.id,
        email,
        locale: account?.locale ?? fallback,
        invitedBy: userId,
        at: deps.now(),
      });
      pendingCount++;
      made.push(row.id);
      out.push({ email, invitation: presentInvitation(row), code: null, message: null });
    }
    return { results: out, created: made };
  });

  try {
    await deps.mail.enqueue(created.map((invitationId) => ({ kind: 'invitation' as const, invitationId })));
  } catch (err) {
    deps.log.error({ err, invitations: created }, 'invitation mails could not be queued; cancelling the invitations');
    await withTransaction(deps.pool, async (client) => {
      for (const id of created) await setInvitationStatus(client, id, 'cancelled', deps.now());
    });
    throw new AppError('ERR_TEMPORARY_PROBLEM');
  }
  if (created.length) deps.log.info({ userId, invitations: created }, 'team invitations sent');
  return { results, info: await infoAfterChange(deps, userId) };
}

/** DELETE /api/business/invitations/{id}: only a pending invitation of the owner's business */
export async function cancelInvitation(
  deps: TeamsDeps,
  input: { invitationId: number },
  actor: RequestActor,
): Promise<BusinessInfo> {
  const userId = requireUserId(actor);
  await withTransaction(deps.pool, async (client) => {
    const business = await lockOwnTeam(client, userId);
    const invitation = await findInvitation(client, input.invitationId, { forUpdate: true });
    if (!invitation || invitation.business_id !== business.id || invitation.status !== 'pending') {
      throw new AppError('ERR_INVITATION_MISSING');
    }
    await setInvitationStatus(client, invitation.id, 'cancelled', deps.now());
  });
  return infoAfterChange(deps, userId);
}
