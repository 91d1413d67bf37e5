import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { completePasswordRecovery } from '../commands/passwordRecovery';

export const recoveryCompleteHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'recovery.complete',
    ...authOperations['recovery.complete'],
    async handler(input) {
      await completePasswordRecovery(deps, input);
      return { ok: true as const };
    },
  });
