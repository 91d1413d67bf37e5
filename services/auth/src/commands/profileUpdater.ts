/** POST /api/user/profile: name, picture and role (the role lives in settings.role). */
import { withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { RequestActor, Role, UserDto } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { presentUser } from '../presenters/user';
import { findUserById, updateProfile, updateSettings } from '../repositories/users';
import { checkName } from './accountRules';
import type { AuthDeps } from './deps';
import { applyRole } from './roleChange';

export async function updateUserProfile(
  deps: AuthDeps,
  input: { name?: string; role?: Role; picture?: string | null },
  actor: RequestActor,
): Promise<UserDto> {
  const userId = requireUserId(actor);
  const name = input.name === undefined ? undefined : checkName(input.name);
  return withTransaction(deps.pool, async (client) => {
    const user = await findUserById(client, userId, { forUpdate: true });
    if (!user) throw new AppError('ERR_UNAUTHORIZED');
    if (name !== undefined || input.picture !== undefined)
      await updateProfile(client, userId, { name, picture: input.picture });
    if (input.role !== undefined) {
      const settings = await applyRole(client, userId, { ...user.settings }, input.role);
      await updateSettings(client, userId, settings);
    }
    const updated = await findUserById(client, userId);
    return presentUser(updated);
  });
}
