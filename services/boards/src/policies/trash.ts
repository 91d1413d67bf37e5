/** Spec §4/§9: trashed boards are deleted for good after 1 month (TRASH_RETENTION_DAYS = 30 days). */
import { TRASH_RETENTION_DAYS } from '@wb/proto';

/** boards trashed at or before this instant are due for purging */
export function trashExpiryCutoff(now: Date, retentionDays: number = TRASH_RETENTION_DAYS): Date {
  return new Date(now.getTime() - retentionDays * 24 * 3600_000);
}
