import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { getPlan } from '../commands/readers';

export const planGetHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'plan.get',
    ...authOperations['plan.get'],
    handler: (_input, ctx) => getPlan(deps, ctx.actor),
  });
