import type { Plan, Settings, UserDto } from '@wb/proto';
import { FALLBACK_STARTER_PLAN } from '@wb/proto';
import type { Session } from '../../app/routes';
import { isLoggedIn, useGetPlanQuery, useGetSettingsQuery, useGetUserQuery, withDefaults } from './sessionApi';

export interface SessionState {
  session: Session;
  user: UserDto | null;
  settings: Settings;
  plan: Plan;
}

/** User, settings and plan, and the `Session` the route rules read. */
export function useSession(): SessionState {
  const userQuery = useGetUserQuery();
  const user = userQuery.data ?? null;
  const loggedIn = isLoggedIn(user);
  const settingsQuery = useGetSettingsQuery(undefined, { skip: !loggedIn });
  const planQuery = useGetPlanQuery(undefined, { skip: !loggedIn });
  const settings = withDefaults(settingsQuery.data);
  let session: Session;
  if (userQuery.isLoading || (userQuery.isUninitialized && !userQuery.data)) session = { status: 'loading' };
  else if (!loggedIn) session = { status: 'guest' };
  else if (settingsQuery.data === undefined) session = { status: 'loading' };
  else
    session = {
      status: 'user',
      role: settings.role ?? user.role ?? null,
      roleOnboarding: settings.roleOnboarding,
      team: null,
    };
  return { session, user: loggedIn ? user : null, settings, plan: planQuery.data ?? FALLBACK_STARTER_PLAN };
}
