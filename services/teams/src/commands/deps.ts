/** What commands need, built once in main.ts (and by tests with fakes where useful). */
import type { Logger, Pool } from '@wb/platform';
import type { Locale, ThrowawayDomains, UsersLookup } from '@wb/proto';
import type { TeamsEnv } from '../env';
import type { MailScheduler } from '../jobs/mailJobs';
import type { TeamsMetrics } from '../metrics';

export const SCHEMA = 'teams';

/** A user as the auth service knows them. */
export interface DirectoryUser {
  id: number;
  name: string;
  email: string;
}

/** What teams asks of the auth service (see directory.ts). */
export interface Directory {
  /** the active account `userId`; null when there is none; ERR_TEMPORARY_PROBLEM when auth does not answer */
  userOf(userId: number): Promise<DirectoryUser | null>;
  /** accounts behind addresses; ERR_TEMPORARY_PROBLEM when auth does not answer */
  lookupEmails(emails: string[]): Promise<UsersLookup>;
  /** display names; null when they cannot be had right now (callers degrade, not fail) */
  namesOf(userIds: number[]): Promise<Record<string, string> | null>;
  /** the user's interface language setting; null when unset or unknown right now */
  localeOf(userId: number): Promise<Locale | null>;
}

export interface TeamsDeps {
  pool: Pool;
  env: Pick<TeamsEnv, 'APP_URL'>;
  log: Logger;
  directory: Directory;
  mail: MailScheduler;
  throwaway: ThrowawayDomains;
  metrics: TeamsMetrics;
  now(): Date;
}
