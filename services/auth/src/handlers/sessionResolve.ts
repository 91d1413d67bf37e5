import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { resolveSession } from '../commands/sessionResolver';

/** asked by the gateway on a session-cache miss */
export const sessionResolveHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'session.resolve',
    ...authOperations['session.resolve'],
    handler: (input) => resolveSession(deps, input.sessionId),
  });
