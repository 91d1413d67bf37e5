import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { changePassword } from '../commands/passwordChanger';

export const passwordChangeHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'password.change',
    ...authOperations['password.change'],
    async handler(input, ctx) {
      await changePassword(deps, input, ctx.actor);
      ctx.notice('PASSWORD_CHANGED');
      return { ok: true as const };
    },
  });
