import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { unsubscribe } from '../commands/unsubscriber';
import { redirectTo } from '../presenters/redirect';

/** GET /api/auth/unsubscribe?token=… (footer link of every mail) */
export const unsubscribeHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'unsubscribe',
    ...authOperations.unsubscribe,
    handler: async (input, ctx) => redirectTo(ctx, await unsubscribe(deps, input.token)),
  });
