import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { getNames } from '../commands/readers';

/** other services only (no gateway route): names of users, e.g. owners of shared boards */
export const usersNamesHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'users.names',
    ...authOperations['users.names'],
    handler: (input) => getNames(deps, input.ids),
  });
