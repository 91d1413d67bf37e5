import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { lookupEmails } from '../commands/readers';

/** other services only (no gateway route): the accounts behind addresses, e.g. people a team owner invites */
export const usersLookupHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'users.lookup',
    ...authOperations['users.lookup'],
    handler: (input) => lookupEmails(deps, input.emails),
  });
