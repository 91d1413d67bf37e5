/** What commands need, built once in main.ts (and by tests with fakes). */
import type { Logger, PlanSource, Pool, VersionedReplyCache } from '@wb/platform';
import type { DocumentDto, Locale, RequestActor } from '@wb/proto';
import type { CoursesEnv } from '../env';
import type { MailScheduler } from '../jobs/mailJobs';
import type { CoursesMetrics } from '../metrics';

export const SCHEMA = 'courses';

export interface DirectoryUser {
  id: number;
  name: string;
  email: string;
}

/** The auth service: who a user is, which accounts are behind addresses, names, languages. */
export interface Directory {
  /** ERR_TEMPORARY_PROBLEM when auth does not answer */
  userOf(userId: number): Promise<DirectoryUser | null>;
  /** address → account id (ERR_TEMPORARY_PROBLEM when auth does not answer) */
  lookupEmails(emails: string[]): Promise<Record<string, { id: number; locale: Locale | null }>>;
  /** id → name; null when names cannot be had right now (callers degrade) */
  namesOf(userIds: number[]): Promise<Record<string, string> | null>;
  localeOf(userId: number): Promise<Locale | null>;
}

/** The boards and files services, asked as the course's owner. */
export interface Library {
  /** the owner's board (access own) with its title, else null */
  ownBoard(ownerId: number, boardId: string): Promise<{ title: string } | null>;
  /** the file as the owner's library holds it (name, image id for its pages), else null */
  fileOf(ownerId: number, fileId: string): Promise<DocumentDto | null>;
  /** gives a participant view or edit access to the owner's board (an explicit grant) */
  grantBoard(ownerId: number, boardId: string, userId: number, permission: 'view' | 'edit'): Promise<void>;
  /** a new board of `ownerId` made from `sourceBoardId` (its content included) */
  duplicateBoard(sourceBoardId: string, ownerId: number, title: string, actor: RequestActor): Promise<string>;
}

export interface CoursesDeps {
  pool: Pool;
  env: Pick<CoursesEnv, 'APP_URL'>;
  log: Logger;
  plans: PlanSource;
  directory: Directory;
  library: Library;
  /** GET /api/courses answers, valid while the user's list_versions row is unchanged */
  lists: VersionedReplyCache;
  mail: MailScheduler;
  metrics: CoursesMetrics;
  now(): Date;
}
