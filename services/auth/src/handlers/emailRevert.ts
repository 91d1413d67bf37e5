import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { revertEmailChange } from '../commands/emailChanger';
import { redirectTo } from '../presenters/redirect';

/** GET /api/auth/change-email/revert?token=… (link mailed to the old address) */
export const emailRevertHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'email.revert',
    ...authOperations['email.revert'],
    handler: async (input, ctx) => redirectTo(ctx, await revertEmailChange(deps, input.token)),
  });
