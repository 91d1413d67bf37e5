/** Every endpoint of the calls service, one per operation in `callsOperations` (proto). */
import { countOutcomes } from '@wb/platform';
import type { Endpoint } from '@wb/platform';
import type { CallsOperation } from '@wb/proto';
import type { CallsDeps } from '../commands/deps';
import { joinHandler } from './join';
import { muteAllHandler } from './muteAll';

/** keyed by operation so the compiler says when one is missing */
const HANDLERS: Record<CallsOperation, (deps: CallsDeps) => Endpoint> = {
  join: joinHandler,
  muteAll: muteAllHandler,
};

export function buildEndpoints(deps: CallsDeps): Endpoint[] {
  return Object.values(HANDLERS).map((make) => countOutcomes(make(deps), deps.metrics.commands));
}
