/** What commands need, built once in main.ts (and by tests with fakes). */
import type { Logger, PlanSource } from '@wb/platform';
import type { AccessCheckReply, RequestActor } from '@wb/proto';
import type { CallsEnv } from '../env';
import type { CallsMetrics } from '../metrics';
import type { Rooms } from './rooms';

/** The boards service's answer about the caller and a board (access.check with the caller as actor). */
export interface BoardAccessSource {
  accessOf(boardId: string, actor: RequestActor): Promise<AccessCheckReply>;
}

/** Account display names (auth users.names); undefined when not known. */
export interface NameSource {
  nameOf(actor: RequestActor): Promise<string | undefined>;
}

export interface CallsDeps {
  env: Pick<CallsEnv, 'JANUS_TOKEN_SECRET' | 'CALL_TOKEN_TTL_MS' | 'STUN_URLS' | 'TURN_URLS' | 'TURN_SECRET'>;
  log: Logger;
  plans: PlanSource;
  boards: BoardAccessSource;
  names: NameSource;
  rooms: Pick<Rooms, 'admit' | 'muteAll'>;
  metrics: CallsMetrics;
  now(): number;
}
