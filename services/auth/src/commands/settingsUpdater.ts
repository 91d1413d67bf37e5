/** POST /api/user/settings: validate the patch against the plan, merge it, return the whole settings object. */
import { withTransaction } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { RequestActor, Settings, SettingsPatch } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { assertPresetsWithinPlan } from '../policies/presets';
import { presentSettings } from '../presenters/settings';
import { presentPlan } from '../presenters/user';
import { findUserById, updateSettings } from '../repositories/users';
import type { AuthDeps } from './deps';
import { applyRole } from './roleChange';

export async function updateUserSettings(deps: AuthDeps, patch: SettingsPatch, actor: RequestActor): Promise<Settings> {
  const userId = requireUserId(actor);
  return withTransaction(deps.pool, async (client) => {
    const user = await findUserById(client, userId, { forUpdate: true });
    if (!user) throw new AppError('ERR_UNAUTHORIZED');
    assertPresetsWithinPlan(patch, presentPlan(user));
    const { role, ...rest } = patch;
    let stored: Record<string, unknown> = { ...user.settings, ...rest };
    if (role !== undefined)
      stored = await applyRole(client, userId, stored, role, {
        roleOnboardingSetByCaller: patch.roleOnboarding !== undefined,
      });
    await updateSettings(client, userId, stored);
    return presentSettings(stored);
  });
}
