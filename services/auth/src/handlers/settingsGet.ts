import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { getSettings } from '../commands/readers';

export const settingsGetHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'settings.get',
    ...authOperations['settings.get'],
    handler: (_input, ctx) => getSettings(deps, ctx.actor),
  });
