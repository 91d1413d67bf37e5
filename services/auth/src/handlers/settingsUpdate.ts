import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { updateUserSettings } from '../commands/settingsUpdater';

export const settingsUpdateHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'settings.update',
    ...authOperations['settings.update'],
    handler: (input, ctx) => updateUserSettings(deps, input, ctx.actor),
  });
