/**
 * The header's call button (data-action="call"), part of the board's main chunk; the call itself
 * (CallPanel, Janus client, WebRTC) loads on first click. On a board whose owner's plan lacks
 * `call` it is the upgrade variant: same place and name, marked `data-upgrade`, opening the prompt.
 */
import { Video } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ICON_PROPS } from '../../../ui/icons';
import type { CallStatus } from './callSession';

export function CallButton({
  status,
  upgrade,
  open,
  onClick,
}: {
  status: CallStatus;
  /** the board's owner's plan has no `call` (as far as this page knows) */
  upgrade: boolean;
  open: boolean;
  onClick: () => void;
}) {
  const { t } = useTranslation('board');
  const live = status === 'in-call' || status === 'connecting';
  const label = upgrade ? t('call.upgradeButton') : live ? t(`call.status.${status}`) : t('call.button');
  return (
    <button
      type="button"
      className={`board-chip compact call-button${live ? ' call-live' : ''}`}
      data-action="call"
      data-upgrade={upgrade ? 'true' : undefined}
      data-call-status={status}
      aria-pressed={upgrade ? undefined : open}
      aria-label={label}
      title={label}
      onClick={onClick}
    >
      <Video {...ICON_PROPS} size={16} />
      <span className="chip-text">{upgrade ? t('call.button') : label}</span>
    </button>
  );
}
