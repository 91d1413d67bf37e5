/** Every endpoint of the auth service, one per operation in `authOperations` (proto). */
import type { Endpoint } from '@wb/platform';
import type { AuthOperation } from '@wb/proto';
import type { AuthDeps } from '../commands/deps';
import { configGetHandler } from './configGet';
import { emailChangeHandler } from './emailChange';
import { emailConfirmHandler } from './emailConfirm';
import { emailRevertHandler } from './emailRevert';
import { loginHandler } from './login';
import { logoutHandler } from './logout';
import { passwordChangeHandler } from './passwordChange';
import { planGetHandler } from './planGet';
import { profileUpdateHandler } from './profileUpdate';
import { recoveryCompleteHandler } from './recoveryComplete';
import { recoveryRequestHandler } from './recoveryRequest';
import { sessionResolveHandler } from './sessionResolve';
import { settingsGetHandler } from './settingsGet';
import { settingsUpdateHandler } from './settingsUpdate';
import { signupHandler } from './signup';
import { unsubscribeHandler } from './unsubscribe';
import { userGetHandler } from './userGet';
import { userTerminateHandler } from './userTerminate';
import { usersLookupHandler } from './usersLookup';
import { usersNamesHandler } from './usersNames';
import { verificationConfirmHandler } from './verificationConfirm';
import { verificationSendHandler } from './verificationSend';

/** keyed by operation so the compiler says when one is missing */
const HANDLERS: Record<AuthOperation, (deps: AuthDeps) => Endpoint> = {
  signup: signupHandler,
  login: loginHandler,
  logout: logoutHandler,
  'session.resolve': sessionResolveHandler,
  'user.get': userGetHandler,
  'settings.get': settingsGetHandler,
  'settings.update': settingsUpdateHandler,
  'plan.get': planGetHandler,
  'users.names': usersNamesHandler,
  'users.lookup': usersLookupHandler,
  'config.get': configGetHandler,
  'verification.send': verificationSendHandler,
  'verification.confirm': verificationConfirmHandler,
  'recovery.request': recoveryRequestHandler,
  'recovery.complete': recoveryCompleteHandler,
  'password.change': passwordChangeHandler,
  'email.change': emailChangeHandler,
  'email.confirm': emailConfirmHandler,
  'email.revert': emailRevertHandler,
  'profile.update': profileUpdateHandler,
  'user.terminate': userTerminateHandler,
  unsubscribe: unsubscribeHandler,
};

/** the operations that only read users: everything else may change a user row */
const READS = new Set<AuthOperation>([
  'session.resolve',
  'user.get',
  'settings.get',
  'plan.get',
  'config.get',
  'users.names',
  'users.lookup',
]);

export function buildEndpoints(deps: AuthDeps): Endpoint[] {
  return (Object.entries(HANDLERS) as [AuthOperation, (deps: AuthDeps) => Endpoint][]).map(([operation, make]) => {
    const ep = make(deps);
    if (READS.has(operation)) return ep;
    // Read-your-writes on this replica: its user cache is emptied as soon as a write finishes,
    // without waiting for the NOTIFY that tells every replica (see commands/userCache.ts).
    return {
      ...ep,
      handler: async (input, ctx) => {
        try {
          return await ep.handler(input, ctx);
        } finally {
          deps.users.clear();
        }
      },
    };
  });
}
