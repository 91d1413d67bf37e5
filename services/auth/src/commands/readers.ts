/** Read-only lookups. Guests (userId 0) and unknown users get the guest defaults, never an error. */
import {
  DEFAULT_SETTINGS,
  LOCALES,
  FREE_TRIAL_DAYS,
  GUEST_USER,
  PASSWORD_MIN_LENGTH,
  PLANS,
  VERIFICATION_RESEND_WAIT_MS,
} from '@wb/proto';
import type { AppConfig, Locale, Plan, RequestActor, Settings, UserDto, UsersLookup } from '@wb/proto';
import { presentSettings } from '../presenters/settings';
import { presentPlan, presentUser } from '../presenters/user';
import { findNames, findUserById, findUsersByEmails } from '../repositories/users';
import type { UserRow } from '../repositories/users';
import type { AuthDeps } from './deps';

async function actorUser(deps: AuthDeps, actor: RequestActor): Promise<UserRow | null> {
  if (!Number.isInteger(actor.userId) || actor.userId <= 0) return null;
  const cached = deps.users.get(actor.userId);
  if (cached) return cached;
  const generation = deps.users.beginRead();
  const row = await findUserById(deps.pool, actor.userId);
  if (row) deps.users.set(row.id, row, generation);
  return row;
}

export async function getUser(deps: AuthDeps, actor: RequestActor): Promise<UserDto> {
  const user = await actorUser(deps, actor);
  return user ? presentUser(user) : GUEST_USER;
}

export async function getSettings(deps: AuthDeps, actor: RequestActor): Promise<Settings> {
  const user = await actorUser(deps, actor);
  return user ? presentSettings(user.settings) : { ...DEFAULT_SETTINGS };
}

export async function getNames(deps: AuthDeps, ids: number[]): Promise<Record<string, string>> {
  if (ids.length === 0) return {};
  const rows = await findNames(deps.pool, [...new Set(ids)]);
  return Object.fromEntries(rows.map((r) => [String(r.id), r.name]));
}

/** accounts behind addresses (other services: teams invitations); unknown addresses are left out */
export async function lookupEmails(deps: AuthDeps, emails: string[]): Promise<UsersLookup> {
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))];
  if (wanted.length === 0) return {};
  const rows = await findUsersByEmails(deps.pool, wanted);
  const out: UsersLookup = {};
  for (const r of rows) {
    const locale = (LOCALES as readonly unknown[]).includes(r.locale) ? (r.locale as Locale) : null;
    out[r.email] = { id: r.id, name: r.name, locale };
  }
  return out;
}

export async function getPlan(deps: AuthDeps, actor: RequestActor): Promise<Plan> {
  return presentPlan(await actorUser(deps, actor));
}

export function getConfig(deps: AuthDeps, actor: RequestActor): AppConfig {
  return {
    plans: PLANS,
    flags: {
      signupEnabled: deps.env.SIGNUP_ENABLED,
      trialDays: FREE_TRIAL_DAYS,
      verificationResendWaitSeconds: VERIFICATION_RESEND_WAIT_MS / 1000,
      passwordMinLength: PASSWORD_MIN_LENGTH,
    },
    country: actor.country ?? null,
  };
}
