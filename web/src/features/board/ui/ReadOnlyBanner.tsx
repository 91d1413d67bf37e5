/**
 * The banner of a read-only board (issue 26 #9). For a plan cause it says which limit (boards
 * over the plan's maximum, or this week's collaboration minutes used up, with the reset time,
 * Monday 00:00 UTC, in the person's locale and time zone) and what to do: the owner gets the app's
 * upgrade prompt (data-action="readonly-upgrade"); the others are told who can lift it (the
 * owner's name when they are on the board). Viewers and full boards keep their one line.
 */
import { useTranslation } from 'react-i18next';
import type { ReadOnlyReason } from '@wb/proto';

/** the next Monday 00:00 UTC after `now` (when the week's collaboration minutes start again) */
export function nextWeeklyReset(now: Date): Date {
  const day = now.getUTCDay(); // 0 Sunday … 6 Saturday
  const days = (8 - day) % 7 || 7;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
}

export interface ReadOnlyBannerProps {
  cause: 'viewer' | 'plan' | 'boardFull';
  /** why the plan makes it read-only (WELCOME's readOnlyReason) */
  reason: ReadOnlyReason | null;
  /** the person is the board's owner (the one who can upgrade) */
  isOwner: boolean;
  /** the owner's display name, when known (they are on the board) */
  ownerName: string | null;
  onUpgrade: () => void;
  /** for tests */
  now?: Date;
  /** for tests: the time zone the reset time is shown in (default: the person's) */
  timeZone?: string;
}

export function ReadOnlyBanner({ cause, reason, isOwner, ownerName, onUpgrade, now, timeZone }: ReadOnlyBannerProps) {
  const { t, i18n } = useTranslation('board');
  if (cause !== 'plan' || reason === null)
    return (
      <p className="board-banner" role="note" data-readonly={cause}>
        {t(`readOnly.${cause}`)}
      </p>
    );
  const reset = new Intl.DateTimeFormat(i18n.language, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
    ...(timeZone ? { timeZone } : {}),
  }).format(nextWeeklyReset(now ?? new Date()));
  return (
    <div className="board-banner board-readonly" role="note" data-readonly={reason}>
      <span>
        {reason === 'collaborationMinutes' ? t('readOnly.collaborationMinutes', { reset }) : t('readOnly.planLimits')}{' '}
        {isOwner
          ? t('readOnly.ownerCan')
          : ownerName
            ? t('readOnly.askOwner', { name: ownerName })
            : t('readOnly.askTheOwner')}
      </span>
      {isOwner ? (
        <button type="button" className="button primary" data-action="readonly-upgrade" onClick={onUpgrade}>
          {t('readOnly.upgrade')}
        </button>
      ) : null}
    </div>
  );
}
