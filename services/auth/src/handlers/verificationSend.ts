import { endpoint } from '@wb/platform';
import { authOperations } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { sendVerification } from '../commands/verification';

export const verificationSendHandler = (deps: AuthDeps) =>
  endpoint({
    operation: 'verification.send',
    ...authOperations['verification.send'],
    async handler(_input, ctx) {
      ctx.notice(await sendVerification(deps, ctx.actor));
      return { ok: true as const };
    },
  });
