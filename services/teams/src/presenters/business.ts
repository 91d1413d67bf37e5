/** teams rows → what leaves the service. */
import { BUSINESS_DETAIL_FIELDS } from '@wb/proto';
import type { BusinessDetails, BusinessInfo, TeamInvitation, TeamMember } from '@wb/proto';
import type { Team } from '../commands/team';
import type { DetailsRow } from '../repositories/details';
import type { InvitationRow } from '../repositories/invitations';
import type { MemberRow } from '../repositories/members';

/** spec §4: "Promo is possible only when business details id is 0" — nothing saved yet */
export function presentDetails(row: DetailsRow | null, active: boolean): BusinessDetails {
  const out = {
    id: row?.id ?? 0,
    created: row ? row.created_at.toISOString() : null,
    active: active ? 1 : 0,
  } as BusinessDetails;
  for (const f of BUSINESS_DETAIL_FIELDS) out[f] = row?.[f] ?? '';
  return out;
}

export function presentMember(
  row: MemberRow,
  names: Record<string, string> | null,
  ownerEmail: string | null = null,
): TeamMember {
  return {
    id: row.user_id,
    name: names?.[String(row.user_id)] ?? null,
    email: row.email ?? (row.role === 'owner' ? ownerEmail : null),
    role: row.role,
    status: row.active ? 'active' : 'deactivated',
    joined: row.joined_at.toISOString(),
  };
}

export function presentInvitation(row: InvitationRow): TeamInvitation {
  return { id: row.id, email: row.email, created: row.created_at.toISOString() };
}

export interface InfoParts {
  team: Team;
  /** the caller's row */
  me: MemberRow;
  /** the company of the owner's business details ('' when none) */
  company: string;
  names: Record<string, string> | null;
  /** the owner's account address (owner view; their member row has none) */
  ownerEmail?: string | null;
  /** owner view only */
  members?: MemberRow[];
  invitations?: InvitationRow[];
}

export function presentInfo(p: InfoParts): BusinessInfo {
  const ownerId = p.team.business.owner_id;
  const ownerName = p.names?.[String(ownerId)] ?? '';
  const info: BusinessInfo = {
    id: p.team.business.id,
    name: p.company || ownerName,
    owner: { id: ownerId, name: ownerName },
    status: { active: p.me.active && p.team.plan !== null ? 1 : 0 },
    role: p.me.role,
    plan: p.team.plan,
  };
  if (p.me.role === 'owner' && p.members && p.invitations) {
    const active = p.members.filter((m) => m.active);
    info.licences = { used: active.length, total: p.team.licences, requested: p.team.business.requested_seats };
    info.members = active.map((m) => presentMember(m, p.names, p.ownerEmail ?? null));
    info.deactivated = p.members.filter((m) => !m.active).map((m) => presentMember(m, p.names));
    info.invitations = p.invitations.map(presentInvitation);
  }
  return info;
}
