import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { logout } from '../commands/logout';

export const logoutHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'logout',
    ...authOperations.logout,
    async handler(_input, ctx) {
      await logout(deps, ctx.actor);
      return { ok: true as const };
    },
  });
