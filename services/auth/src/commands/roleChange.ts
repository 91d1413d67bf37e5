/** The profile role and settings.role are one value (in settings); changing it emits role_changed. */
import { appendEvent } from '@wb/platform';
import type { PoolClient } from '@wb/platform';
import type { Role } from '@wb/proto';
import { SCHEMA } from './deps';

/**
 * Apply `role` to stored settings (mutates and returns them) and record the event when it
 * changes. Choosing a role is what role onboarding asks for, so it also ends onboarding unless
 * the same request sets roleOnboarding itself.
 */
export async function applyRole(
  client: PoolClient,
  userId: number,
  stored: Record<string, unknown>,
  role: Role,
  opts: { roleOnboardingSetByCaller?: boolean } = {},
): Promise<Record<string, unknown>> {
  const previous = typeof stored.role === 'string' ? (stored.role as Role) : null;
  stored.role = role;
  if (!opts.roleOnboardingSetByCaller) stored.roleOnboarding = false;
  if (previous !== role) {
    await appendEvent(client, SCHEMA, 'auth.user.role_changed.v1', { userId, role, previousRole: previous });
  }
  return stored;
}
