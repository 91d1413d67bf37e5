/**
 * Teams service contracts (issue 12): business accounts with licences. A person whose own
 * subscription's plan has the `team` feature owns a business with as many licences as the
 * subscription pays seats for (the owner holds one); they invite people by email, who join from
 * the mailed link and get the business's plan while their licence is active.
 * (Owned by the teams service; the gateway, the web, auth and billing import these.)
 */
import { z } from 'zod';
import { emptyInputSchema, EMAIL_MAX_LENGTH, okReplySchema } from './auth';
import { countryCodeSchema, MAX_SEATS } from './billing';
import { ERROR_CODES } from './errors';
import { DB_INT_MAX, userIdSchema } from './input';
import { PLAN_NAMES } from './plans';

/** What a member types to leave the team (spec §5); anything else → ERR_CONFIRMATION_FAILED. */
export const LEAVE_BUSINESS_CONFIRMATION_PHRASE = 'LEAVE';
/** What the owner types to close the business (spec §5); anything else → ERR_CONFIRMATION_FAILED. */
export const CLOSE_BUSINESS_CONFIRMATION_PHRASE = 'CLOSE';

/** Most addresses one invitation call may carry. */
export const TEAM_INVITE_BATCH_MAX = 50;
/** Most invitations one business may have pending at once (bounds the mails an owner can cause). */
export const TEAM_PENDING_INVITATIONS_MAX = 200;
/** Licences one business may ask for (the subscription's own bound). */
export const TEAM_SEATS_MAX = MAX_SEATS;

/**
 * Pages of the web app the teams mails link to (spec §2): the invitation's APP_URL/join-team?token=…
 * and, in the "member joined" mail to the owner, the settings page where licences are managed.
 */
export const TEAM_LINK_PATHS = { joinTeam: '/join-team', manageTeam: '/settings/users' } as const;

const idParam = (what: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,9}$/, `not ${what}`)
    .transform(Number)
    .pipe(z.number().int().positive().max(DB_INT_MAX));

/** a member's user id in a path */
export const memberIdParamSchema = idParam('a user id');
/** an invitation id in a path */
export const invitationIdParamSchema = idParam('an invitation id');
export const invitationIdSchema = z.number().int().positive().max(DB_INT_MAX);

const active01 = z.union([z.literal(0), z.literal(1)]);

// ---------------------------------------------------------------------------------------------
// Business details (spec §3): the paying organisation's address and contacts. "Promo is possible
// only when business details id is 0" (spec §4): id 0 = nothing saved yet.

const detailText = (max: number) => z.string().trim().max(max);

export const BUSINESS_DETAIL_FIELDS = [
  'company',
  'first_name',
  'last_name',
  'email',
  'phone',
  'website',
  'country_code',
  'city_region',
  'street_address',
  'extended_address',
  'postal_code',
  'vat_nr',
] as const;
export type BusinessDetailField = (typeof BUSINESS_DETAIL_FIELDS)[number];

export const businessDetailsSchema = z.object({
  /** 0 when nothing was saved yet */
  id: z.number().int(),
  company: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string(),
  website: z.string(),
  /** ISO time the details were first saved, null when id is 0 */
  created: z.string().nullable(),
  country_code: z.string(),
  city_region: z.string(),
  street_address: z.string(),
  extended_address: z.string(),
  postal_code: z.string(),
  vat_nr: z.string(),
  /** 1 while the caller owns an open business whose licences give a plan */
  active: active01,
});
export type BusinessDetails = z.infer<typeof businessDetailsSchema>;

/**
 * PUT /api/business: the whole set (a field left out is saved empty). Format rules with their own
 * code are the service's: an email that is not an address → ERR_EMAIL_INVALID, a VAT number that
 * does not fit the country → ERR_INVALID_VAT.
 */
export const businessDetailsInputSchema = z.strictObject({
  company: detailText(200).optional(),
  first_name: detailText(100).optional(),
  last_name: detailText(100).optional(),
  email: detailText(EMAIL_MAX_LENGTH).optional(),
  phone: detailText(40).optional(),
  website: detailText(200).optional(),
  /** ISO 3166-1 alpha-2, or empty */
  country_code: z.union([z.literal(''), countryCodeSchema]).optional(),
  city_region: detailText(100).optional(),
  street_address: detailText(200).optional(),
  extended_address: detailText(200).optional(),
  postal_code: detailText(20).optional(),
  vat_nr: detailText(20).optional(),
});
export type BusinessDetailsInput = z.infer<typeof businessDetailsInputSchema>;

// ---------------------------------------------------------------------------------------------
// Business info (spec §3 "Business info (team)"): what GET /api/business/info answers, or null
// when the caller is in no team. The owner sees everything; a member sees the team's name, owner
// and their own status (spec §4: "license expired" = in a team and status.active is not 1).

export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const teamMemberSchema = z.object({
  /** the member's user id */
  id: z.number().int(),
  /** display name; null when it cannot be looked up right now */
  name: z.string().nullable(),
  /** the address the member was invited at (null for the owner) */
  email: z.string().nullable(),
  role: z.enum(TEAM_ROLES),
  /** active: holds a licence; deactivated: keeps the place in the team (and their data), no plan features */
  status: z.enum(['active', 'deactivated']),
  /** ISO time they joined */
  joined: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamInvitationSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  /** ISO time it was sent */
  created: z.string(),
});
export type TeamInvitation = z.infer<typeof teamInvitationSchema>;

export const businessInfoSchema = z.object({
  id: z.number().int(),
  /** the company of the business details, else the owner's name */
  name: z.string(),
  owner: z.object({ id: z.number().int(), name: z.string() }),
  /** 1: the caller's licence is active and gives the team's plan; 0: deactivated or the plan ended */
  status: z.object({ active: active01 }),
  role: z.enum(TEAM_ROLES),
  /** the plan the team's licences give (the owner's subscription plan), null while it gives none */
  plan: z.enum(PLAN_NAMES).nullable(),
  /** owner only: licences in use (active members, the owner included) of the paid total */
  licences: z
    .object({
      used: z.number().int(),
      total: z.number().int(),
      /** the count asked for with PUT /api/business/seats until billing's subscription says so */
      requested: z.number().int().nullable(),
    })
    .optional(),
  /** owner only: members holding a licence (the owner first) */
  members: z.array(teamMemberSchema).optional(),
  /** owner only: members whose licence is deactivated */
  deactivated: z.array(teamMemberSchema).optional(),
  /** owner only: invitations not yet accepted or cancelled, newest first */
  invitations: z.array(teamInvitationSchema).optional(),
});
export type BusinessInfo = z.infer<typeof businessInfoSchema>;

// ---------------------------------------------------------------------------------------------
// Inputs and replies

/**
 * POST /api/business/invitations. Addresses are checked one by one (the service trims and
 * lower-cases them; duplicates count once) and each gets its own result, so a form with several
 * addresses learns which ones failed and why.
 */
export const invitationsInputSchema = z.strictObject({
  emails: z.array(z.string().max(EMAIL_MAX_LENGTH)).min(1).max(TEAM_INVITE_BATCH_MAX),
});
const errorCodeSchema = z.enum(ERROR_CODES as [string, ...string[]]);
export const invitationResultSchema = z.object({
  /** the address as it was checked (trimmed, lower-case) */
  email: z.string(),
  /** the invitation sent to it, or null when refused */
  invitation: teamInvitationSchema.nullable(),
  /**
   * null when invited; else why not: ERR_EMAIL_INVALID, ERR_THROWAWAY_NOT_ALLOWED,
   * ERR_CANT_INVITE_YOURSELF, ERR_USER_IN_YOUR_BUSINESS, ERR_USER_IN_BUSINESS (in another team),
   * ERR_USER_ALREADY_INVITED, ERR_TOO_MANY_REQUESTS (too many pending invitations)
   */
  code: errorCodeSchema.nullable(),
  message: z.string().nullable(),
});
export type InvitationResult = z.infer<typeof invitationResultSchema>;
export const invitationsReplySchema = z.object({
  results: z.array(invitationResultSchema),
  /** the team after the call (owner view) */
  info: businessInfoSchema,
});
export type InvitationsReply = z.infer<typeof invitationsReplySchema>;

export const invitationRefSchema = z.strictObject({ invitationId: invitationIdSchema });
/** POST /api/business/join: the token of the join-team link */
export const joinInputSchema = z.strictObject({ token: z.string().min(1).max(512) });
export const memberRefSchema = z.strictObject({ userId: userIdSchema });
/** the member routes take the user id from the path; the body is empty */
export const emptyBodySchema = z.strictObject({});
export const seatsInputSchema = z.strictObject({ seats: z.number().int().min(1).max(TEAM_SEATS_MAX) });
export const confirmationInputSchema = z.strictObject({ confirmation: z.string().max(100) });

/** svc.teams.owner.check (auth, before terminating an account): does the user own an open business? */
export const ownerCheckInputSchema = z.strictObject({ userId: userIdSchema });
export const ownerCheckReplySchema = z.object({ owner: z.boolean(), businessId: z.number().int().nullable() });
export type OwnerCheckReply = z.infer<typeof ownerCheckReplySchema>;

/**
 * svc.teams.seats.check (billing, before changing a subscription's seats; actor = the owner):
 * ERR_SEAT_COUNT_TOO_LOW when `seats` is below the business's active users.
 */
export const seatsCheckInputSchema = z.strictObject({ seats: z.number().int().min(0).max(TEAM_SEATS_MAX) });
export const seatsCheckReplySchema = z.object({
  ok: z.literal(true),
  /** active users (the owner included); 0 when the actor owns no business */
  activeUsers: z.number().int(),
});

/**
 * Every teams operation with its request and reply schema: the service registers exactly these
 * and the gateway routes refer to them by name (owner.check and seats.check are NATS only).
 */
export const teamsOperations = {
  'details.get': { input: emptyInputSchema, output: businessDetailsSchema },
  'details.update': { input: businessDetailsInputSchema, output: businessDetailsSchema },
  'info.get': { input: emptyInputSchema, output: businessInfoSchema.nullable() },
  'invitations.create': { input: invitationsInputSchema, output: invitationsReplySchema },
  'invitation.cancel': { input: invitationRefSchema, output: businessInfoSchema },
  join: { input: joinInputSchema, output: businessInfoSchema },
  'member.deactivate': { input: memberRefSchema, output: businessInfoSchema },
  'member.activate': { input: memberRefSchema, output: businessInfoSchema },
  'member.remove': { input: memberRefSchema, output: businessInfoSchema },
  'seats.update': { input: seatsInputSchema, output: businessInfoSchema },
  leave: { input: confirmationInputSchema, output: okReplySchema },
  close: { input: confirmationInputSchema, output: okReplySchema },
  'owner.check': { input: ownerCheckInputSchema, output: ownerCheckReplySchema },
  'seats.check': { input: seatsCheckInputSchema, output: seatsCheckReplySchema },
} as const;
export type TeamsOperation = keyof typeof teamsOperations;
