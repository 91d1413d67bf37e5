import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { updateUserProfile } from '../commands/profileUpdater';

export const profileUpdateHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'profile.update',
    ...authOperations['profile.update'],
    handler: (input, ctx) => updateUserProfile(deps, input, ctx.actor),
  });
