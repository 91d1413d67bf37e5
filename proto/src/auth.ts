/**
 * Auth service contracts: users, sessions, settings, plan and config lookups.
 * (Owned by the auth service; the gateway and web import these schemas.)
 */
import { z } from 'zod';
import { userIdSchema } from './input';
import { LOCALES, ROLES, settingsSchema, settingsPatchSchema } from './settings';
import { PLAN_NAMES, planSchema } from './plans';

/** Public view of a user (GET /api/user). id 0 = guest. */
export const userDtoSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  picture: z.string().nullable().optional(),
  email: z.string().optional(),
  email_status: z.enum(['unverified', 'verified', 'invalid']).optional(),
  hasInvalidEmail: z.boolean().optional(),
  role: z.enum(ROLES).nullable().optional(),
});
export type UserDto = z.infer<typeof userDtoSchema>;
export const GUEST_USER: UserDto = { id: 0, name: 'Guest' };

/**
 * A freshly issued session, returned by the auth service to the gateway only: the gateway turns
 * it into the session cookie and removes it from what the browser receives.
 */
export const sessionGrantSchema = z.object({
  token: z.string().min(32),
  /** epoch ms */
  expiresAt: z.number().int(),
});
export type SessionGrant = z.infer<typeof sessionGrantSchema>;

/** svc.auth.session.resolve: the gateway asks on a Redis miss; auth re-fills the cache. */
export const sessionResolveInputSchema = z.object({ sessionId: z.string().regex(/^[0-9a-f]{64}$/) });
export const cachedSessionSchema = z.object({
  sessionId: z.string(),
  userId: z.number().int().positive(),
  expiresAt: z.number().int(),
});
export const sessionResolveOutputSchema = cachedSessionSchema.nullable();

/** Broadcast <prefix>bc.auth.sessions.revoked: gateways drop these ids from their local cache. */
export const sessionsRevokedSchema = z.object({ sessionIds: z.array(z.string()) });
export const SESSIONS_REVOKED = 'sessions.revoked';

/** Notice codes a reply may carry (spec §8 "Notices"); the web translates them. */
export const NOTICE_CODES = [
  'EMAIL_CHANGE_STARTED',
  'PASSWORD_CHANGED',
  'ALREADY_VERIFIED',
  'VERIFICATION_EMAIL_SENT',
] as const;
export type NoticeCode = (typeof NOTICE_CODES)[number];

// ---------------------------------------------------------------------------------------------
// Operations of the auth service (subject <prefix>svc.auth.<operation>) and their schemas.
// Rules with their own error code (name length → ERR_NAME_TOO_SHORT, email format →
// ERR_EMAIL_INVALID, throwaway domains → ERR_THROWAWAY_NOT_ALLOWED) are checked by the service,
// not here, so the gateway's schema validation does not turn them into ERR_INVALID_INPUT.
// ---------------------------------------------------------------------------------------------

export const NAME_MIN_LENGTH = 2;
export const NAME_MAX_LENGTH = 100;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
/** Spec §4/§9: the verification mail can be sent again only after 5 minutes. */
export const VERIFICATION_RESEND_WAIT_MS = 5 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const PASSWORD_RECOVERY_TTL_MS = 60 * 60 * 1000;
export const FREE_TRIAL_DAYS = 7;
/** What the user must type to terminate the account (spec §5); anything else → ERR_CONFIRMATION_FAILED. */
export const TERMINATE_CONFIRMATION_PHRASE = 'TERMINATE';

/** Pages the browser is sent to after following a link from a mail (spec §2). */
export const AUTH_REDIRECTS = {
  emailVerified: '/email-verified',
  invalidVerificationLink: '/invalid-verification-link',
  changeEmailSuccess: '/change-email/success',
  changeEmailReverted: '/change-email/reverted',
  unsubscribed: '/unsubscribed',
  invalidUnsubscribeLink: '/invalid-unsubscribe-link',
} as const;

/** Paths (under APP_URL) of the links in mails. The recovery link opens a web page that posts the token. */
export const AUTH_LINK_PATHS = {
  verifyEmail: '/api/auth/verify-email',
  passwordRecovery: '/password-recovery/create-password',
  changeEmailConfirm: '/api/auth/change-email/confirm',
  changeEmailRevert: '/api/auth/change-email/revert',
  unsubscribe: '/api/auth/unsubscribe',
} as const;

const passwordSchema = z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH);
/** a password typed to prove identity: never longer than a valid one, any shorter one simply fails */
const currentPasswordSchema = z.string().max(PASSWORD_MAX_LENGTH);
const emailInputSchema = z.string().trim().max(EMAIL_MAX_LENGTH);
const nameInputSchema = z.string().trim().max(NAME_MAX_LENGTH);
/** token from a mailed link; missing or malformed tokens lead to the "invalid link" page, not a 400 */
const linkTokenSchema = z.string().max(512).optional();

export const emptyInputSchema = z.object({});
export const okReplySchema = z.object({ ok: z.literal(true) });
/** reply of the link operations; the gateway answers 302 to the redirect header */
export const linkReplySchema = z.object({ ok: z.boolean() });
export const linkInputSchema = z.object({ token: linkTokenSchema });

export const signupInputSchema = z.strictObject({
  name: nameInputSchema,
  email: emailInputSchema,
  password: passwordSchema,
});
export const loginInputSchema = z.strictObject({ email: emailInputSchema, password: currentPasswordSchema });
/** signup/login reply between auth and the gateway; the gateway strips `session` into the cookie */
export const authReplySchema = z.object({ user: userDtoSchema, session: sessionGrantSchema });
/** what the browser receives from signup/login */
export const authPublicReplySchema = z.object({ user: userDtoSchema });

export const recoveryRequestInputSchema = z.strictObject({ email: emailInputSchema });
export const recoveryCompleteInputSchema = z.strictObject({
  token: z.string().min(1).max(512),
  password: passwordSchema,
});
export const passwordChangeInputSchema = z.strictObject({
  currentPassword: currentPasswordSchema,
  newPassword: passwordSchema,
});
export const emailChangeInputSchema = z.strictObject({ email: emailInputSchema, password: currentPasswordSchema });
export const profileUpdateInputSchema = z.strictObject({
  name: nameInputSchema.optional(),
  role: z.enum(ROLES).optional(),
  picture: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional(),
});
export const terminateInputSchema = z.strictObject({ confirmation: z.string().max(100) });

export const configFlagsSchema = z.object({
  signupEnabled: z.boolean(),
  trialDays: z.number().int(),
  verificationResendWaitSeconds: z.number().int(),
  passwordMinLength: z.number().int(),
});
export const configSchema = z.object({
  plans: z.record(z.enum(PLAN_NAMES), planSchema),
  flags: configFlagsSchema,
  country: z.string().nullable(),
});
export type AppConfig = z.infer<typeof configSchema>;

/**
 * svc.auth.users.names (NATS only, for other services: never routed by the gateway): display
 * names of users, e.g. the owners of boards shared with someone. Unknown or terminated ids are
 * left out of the answer.
 */
export const USERS_NAMES_MAX = 500;
export const usersNamesInputSchema = z.object({ ids: z.array(userIdSchema).max(USERS_NAMES_MAX) });
export const usersNamesOutputSchema = z.record(z.string(), z.string());

/**
 * svc.auth.users.lookup (NATS only, for other services): the active accounts behind some email
 * addresses (compared case-insensitively), e.g. the teams service checking whom an owner invites
 * and in which language to write to them. Addresses without an active account are left out; the
 * keys are the addresses trimmed and lower-cased.
 */
export const USERS_LOOKUP_MAX = 50;
export const usersLookupInputSchema = z.strictObject({
  emails: z.array(z.string().max(EMAIL_MAX_LENGTH)).max(USERS_LOOKUP_MAX),
});
export const usersLookupOutputSchema = z.record(
  z.string(),
  z.object({ id: z.number().int(), name: z.string(), locale: z.enum(LOCALES).nullable() }),
);
export type UsersLookup = z.infer<typeof usersLookupOutputSchema>;

/**
 * Every auth operation with its request and reply schema: the service registers exactly these
 * and the gateway routes refer to them by name.
 */
export const authOperations = {
  signup: { input: signupInputSchema, output: authReplySchema },
  login: { input: loginInputSchema, output: authReplySchema },
  logout: { input: emptyInputSchema, output: okReplySchema },
  'session.resolve': { input: sessionResolveInputSchema, output: sessionResolveOutputSchema },
  'user.get': { input: emptyInputSchema, output: userDtoSchema },
  'settings.get': { input: emptyInputSchema, output: settingsSchema },
  'settings.update': { input: settingsPatchSchema, output: settingsSchema },
  'plan.get': { input: emptyInputSchema, output: planSchema },
  'users.names': { input: usersNamesInputSchema, output: usersNamesOutputSchema },
  'users.lookup': { input: usersLookupInputSchema, output: usersLookupOutputSchema },
  'config.get': { input: emptyInputSchema, output: configSchema },
  'verification.send': { input: emptyInputSchema, output: okReplySchema },
  'verification.confirm': { input: linkInputSchema, output: linkReplySchema },
  'recovery.request': { input: recoveryRequestInputSchema, output: okReplySchema },
  'recovery.complete': { input: recoveryCompleteInputSchema, output: okReplySchema },
  'password.change': { input: passwordChangeInputSchema, output: okReplySchema },
  'email.change': { input: emailChangeInputSchema, output: okReplySchema },
  'email.confirm': { input: linkInputSchema, output: linkReplySchema },
  'email.revert': { input: linkInputSchema, output: linkReplySchema },
  'profile.update': { input: profileUpdateInputSchema, output: userDtoSchema },
  'user.terminate': { input: terminateInputSchema, output: okReplySchema },
  unsubscribe: { input: linkInputSchema, output: linkReplySchema },
} as const;
export type AuthOperation = keyof typeof authOperations;
