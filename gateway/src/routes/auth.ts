/**
 * Auth routes (spec §7 and the auth issue). Paths are the web's; operations and schemas come from
 * `authOperations` in proto. Guests may read user/settings/plan (they get the guest defaults, so
 * the web's initial loads never answer 401). Routes that hash a password get a longer timeout:
 * scrypt at OWASP cost is ~0.3 s per hash and the service runs only a few at once.
 */
import { z } from 'zod';
import { authOperations, authPublicReplySchema, linkInputSchema } from '@wb/proto';
import type { AuthOperation, ErrorCode } from '@wb/proto';
import { defineRoutes } from './types';
import type { HttpMethod, RouteDef } from './types';

const HASHING_TIMEOUT_MS = 15_000;
/** the 302 itself is the answer of a link route; the JSON body is not shown to anyone */
const redirectResponse = z.object({ ok: z.boolean() });

function route(
  method: HttpMethod,
  path: string,
  operation: AuthOperation,
  summary: string,
  extra: Partial<RouteDef> & Pick<RouteDef, 'auth'>,
): RouteDef {
  const op = authOperations[operation];
  return {
    method,
    path,
    summary,
    tag: 'auth',
    service: 'auth',
    operation,
    ...(method === 'get' ? {} : { body: op.input }),
    response: op.output,
    ...extra,
  };
}

const link = (path: string, operation: AuthOperation, summary: string, errors: ErrorCode[] = []): RouteDef =>
  route('get', path, operation, summary, {
    auth: 'optional',
    query: linkInputSchema,
    reply: 'redirect',
    response: redirectResponse,
    errors,
  });

const signupErrors: ErrorCode[] = [
  'ERR_NAME_TOO_SHORT',
  'ERR_EMAIL_INVALID',
  'ERR_THROWAWAY_NOT_ALLOWED',
  'ERR_EMAIL_TAKEN',
  'ERR_INVALID_INPUT',
  'ERR_FEATURE_NOT_ENABLED',
];

export const authRoutes = defineRoutes([
  route('post', '/api/auth/signup', 'signup', 'Create an account and log in', {
    auth: 'optional',
    session: 'issue',
    response: authPublicReplySchema,
    timeoutMs: HASHING_TIMEOUT_MS,
    errors: signupErrors,
  }),
  route('post', '/api/auth/login', 'login', 'Log in with email and password', {
    auth: 'optional',
    session: 'issue',
    throttle: 'credentials',
    response: authPublicReplySchema,
    timeoutMs: HASHING_TIMEOUT_MS,
    errors: ['ERR_LOGIN_FAILED', 'ERR_TOO_MANY_REQUESTS', 'ERR_INVALID_INPUT'],
  }),
  // spec §7: no /api prefix; the web does a full page load to the site root afterwards
  route('post', '/auth/logout', 'logout', 'Log out (ends the current session)', { auth: 'optional', session: 'end' }),

  route('get', '/api/user', 'user.get', 'The current user (id 0 = guest)', { auth: 'optional' }),
  route('get', '/api/user/settings', 'settings.get', 'The current user’s settings (defaults for guests)', {
    auth: 'optional',
  }),
  route('post', '/api/user/settings', 'settings.update', 'Change some settings; answers the whole settings object', {
    auth: 'required',
    errors: ['ERR_INVALID_INPUT', 'ERR_FEATURE_NOT_ENABLED'],
  }),
  route('get', '/api/plan', 'plan.get', 'The current user’s plan (starter for guests)', { auth: 'optional' }),
  route('get', '/api/config', 'config.get', 'Plans, feature flags and the caller’s country', { auth: 'optional' }),

  route('post', '/api/user/send-verification', 'verification.send', 'Send the verification mail again', {
    auth: 'required',
    errors: ['ERR_VERIFICATION_WAIT'],
  }),
  link(
    '/api/auth/verify-email',
    'verification.confirm',
    'Verification link: 302 to /email-verified or /invalid-verification-link',
  ),

  route(
    'post',
    '/api/auth/password-recovery/request',
    'recovery.request',
    'Mail a password recovery link (always OK)',
    { auth: 'optional' },
  ),
  route(
    'post',
    '/api/auth/password-recovery/complete',
    'recovery.complete',
    'Set a new password with the mailed token; ends every session',
    {
      auth: 'optional',
      timeoutMs: HASHING_TIMEOUT_MS,
      errors: ['ERR_INVALID_TOKEN', 'ERR_INVALID_INPUT'],
    },
  ),
  route('post', '/api/user/password', 'password.change', 'Change the password; ends the other sessions', {
    auth: 'required',
    timeoutMs: HASHING_TIMEOUT_MS,
    errors: ['ERR_INVALID_CREDENTIALS', 'ERR_INVALID_INPUT'],
  }),
  route(
    'post',
    '/api/user/email',
    'email.change',
    'Start a change of email address (links to the new and old address)',
    {
      auth: 'required',
      timeoutMs: HASHING_TIMEOUT_MS,
      errors: [
        'ERR_INVALID_CREDENTIALS',
        'ERR_EMAIL_INVALID',
        'ERR_THROWAWAY_NOT_ALLOWED',
        'ERR_EMAIL_TAKEN',
        'ERR_INVALID_INPUT',
      ],
    },
  ),
  link(
    '/api/auth/change-email/confirm',
    'email.confirm',
    'Link to the new address: 302 to /change-email/success or /invalid-verification-link',
  ),
  link(
    '/api/auth/change-email/revert',
    'email.revert',
    'Link to the old address: 302 to /change-email/reverted or /invalid-verification-link',
  ),
  route('post', '/api/user/profile', 'profile.update', 'Change name, role or picture', {
    auth: 'required',
    errors: ['ERR_NAME_TOO_SHORT', 'ERR_INVALID_INPUT'],
  }),
  route('post', '/api/user/terminate', 'user.terminate', 'Terminate the account (type the confirmation phrase)', {
    auth: 'required',
    session: 'end',
    errors: ['ERR_CONFIRMATION_FAILED'],
  }),
  link('/api/auth/unsubscribe', 'unsubscribe', 'Unsubscribe link: 302 to /unsubscribed or /invalid-unsubscribe-link'),
]);
