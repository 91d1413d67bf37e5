import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { getUser } from '../commands/readers';

export const userGetHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'user.get',
    ...authOperations['user.get'],
    handler: (_input, ctx) => getUser(deps, ctx.actor),
  });
