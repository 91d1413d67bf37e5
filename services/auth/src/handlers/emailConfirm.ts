import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { confirmEmailChange } from '../commands/emailChanger';
import { redirectTo } from '../presenters/redirect';

/** GET /api/auth/change-email/confirm?token=… (link mailed to the new address) */
export const emailConfirmHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'email.confirm',
    ...authOperations['email.confirm'],
    handler: async (input, ctx) => redirectTo(ctx, await confirmEmailChange(deps, input.token)),
  });
