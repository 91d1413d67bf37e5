import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { startEmailChange } from '../commands/emailChanger';

export const emailChangeHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'email.change',
    ...authOperations['email.change'],
    async handler(input, ctx) {
      await startEmailChange(deps, input, ctx.actor);
      ctx.notice('EMAIL_CHANGE_STARTED');
      return { ok: true as const };
    },
  });
