import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { login } from '../commands/login';

export const loginHandler = (deps: AuthDeps) =>
  endpoint({ operation: 'login', ...authOperations.login, handler: (input, ctx) => login(deps, input, ctx.actor) });
