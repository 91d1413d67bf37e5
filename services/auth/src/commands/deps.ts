/** What commands need, built once in main.ts (and by tests with fakes where useful). */
import type { Logger, Pool } from '@wb/platform';
import type { PasswordHasher } from '../domain/password';
import type { ThrowawayDomains } from '@wb/proto';
import type { AuthEnv } from '../env';
import type { MailScheduler } from '../jobs/mailJobs';
import type { AuthMetrics } from '../metrics';
import type { SessionKeeper } from './sessions';
import type { TeamOwnership } from './teamOwnership';
import type { UserCache } from './userCache';

export const SCHEMA = 'auth';

export interface AuthDeps {
  pool: Pool;
  env: AuthEnv;
  log: Logger;
  hasher: PasswordHasher;
  throwaway: ThrowawayDomains;
  sessions: SessionKeeper;
  mail: MailScheduler;
  metrics: AuthMetrics;
  /** page-load reads of user rows */
  users: UserCache;
  /** asked before an account is terminated (the owner of an open business may not be) */
  teams: TeamOwnership;
  now(): Date;
}
