import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { confirmVerification } from '../commands/verification';
import { redirectTo } from '../presenters/redirect';

/** GET /api/auth/verify-email?token=… (link in the verification mail) */
export const verificationConfirmHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'verification.confirm',
    ...authOperations['verification.confirm'],
    handler: async (input, ctx) => redirectTo(ctx, await confirmVerification(deps, input.token)),
  });
