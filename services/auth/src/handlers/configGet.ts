import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { getConfig } from '../commands/readers';

export const configGetHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'config.get',
    ...authOperations['config.get'],
    handler: async (_input, ctx) => getConfig(deps, ctx.actor),
  });
