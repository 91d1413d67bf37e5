import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { requestPasswordRecovery } from '../commands/passwordRecovery';

export const recoveryRequestHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'recovery.request',
    ...authOperations['recovery.request'],
    async handler(input) {
      await requestPasswordRecovery(deps, input.email);
      return { ok: true as const };
    },
  });
