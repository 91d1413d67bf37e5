import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { terminateAccount } from '../commands/accountTerminator';

export const userTerminateHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'user.terminate',
    ...authOperations['user.terminate'],
    async handler(input, ctx) {
      await terminateAccount(deps, input, ctx.actor);
      return { ok: true as const };
    },
  });
