/** Create an account: rules, user row + created event + first session in one transaction, then the verification mail. */
import { appendEvent, withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { RequestActor, SessionGrant, UserDto } from '@wb/proto';
import { presentUser } from '../presenters/user';
import { isUniqueViolation } from '../repositories/db';
import { revokeSessionsByIds } from '../repositories/sessions';
import { emailInUse, insertUser } from '../repositories/users';
import { checkName, checkNewEmail } from './accountRules';
import { SCHEMA } from './deps';
import type { AuthDeps } from './deps';

export interface SignupInput {
  name: string;
  email: string;
  password: string;
}

export async function signup(
  deps: AuthDeps,
  input: SignupInput,
  actor: RequestActor,
): Promise<{ user: UserDto; session: SessionGrant }> {
  try {
    const result = await createAccount(deps, input, actor);
    deps.metrics.signups.inc({ outcome: 'ok' });
    return result;
  } catch (err) {
    deps.metrics.signups.inc({ outcome: err instanceof AppError ? err.code : 'ERR_UNKNOWN' });
    throw err;
  }
}

async function createAccount(
  deps: AuthDeps,
  input: SignupInput,
  actor: RequestActor,
): Promise<{ user: UserDto; session: SessionGrant }> {
  if (!deps.env.SIGNUP_ENABLED) throw new AppError('ERR_FEATURE_NOT_ENABLED', 'Signing up is currently disabled');
  const name = checkName(input.name);
  const email = checkNewEmail(input.email, deps.throwaway);
  // cheap check first so a taken address does not cost a hash; the unique index decides races
  if (await emailInUse(deps.pool, email))
    throw new AppError('ERR_EMAIL_TAKEN', undefined, { email: 'already registered' });
  const passwordHash = await deps.hasher.hash(input.password);
  const now = deps.now();

  const { user, opened, revoked } = await withTransaction(deps.pool, async (client) => {
    let user;
    try {
      // new users go through role onboarding (the web sends them to setup)
      user = await insertUser(client, {
        name,
        email,
        passwordHash,
        settings: { roleOnboarding: true },
        verificationSentAt: now,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('ERR_EMAIL_TAKEN', undefined, { email: 'already registered' });
      throw err;
    }
    await appendEvent(client, SCHEMA, 'auth.user.created.v1', { userId: user.id, email: user.email, name: user.name });
    // a new login always gets a new session id
    const revoked = actor.sessionId ? await revokeSessionsByIds(client, [actor.sessionId]) : [];
    const opened = await deps.sessions.open(client, user.id, actor, now);
    return { user, opened, revoked };
  });

  await deps.sessions.forget(revoked);
  if (revoked.length) deps.metrics.revokedSessions.inc({ reason: 'login' }, revoked.length);
  await deps.sessions.cacheOpened(opened.cached);
  try {
    await deps.mail.enqueue({ kind: 'verify_email', userId: user.id, email: user.email });
  } catch (err) {
    // the account exists; the user can ask for the mail again from the app
    deps.log.error({ err, userId: user.id }, 'could not queue the verification mail after signup');
  }
  deps.log.info({ userId: user.id }, 'user signed up');
  return { user: presentUser(user), session: opened.grant };
}
