import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { signup } from '../commands/signup';

export const signupHandler = (deps: AuthDeps) =>
  endpoint({ operation: 'signup', ...authOperations.signup, handler: (input, ctx) => signup(deps, input, ctx.actor) });
