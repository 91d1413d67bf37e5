/** The header's chat button (data-action="chat") with the unread count badge. */
import { MessageSquare } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ICON_PROPS } from '../../../ui/icons';

export function ChatButton({ open, unread, onToggle }: { open: boolean; unread: number; onToggle: () => void }) {
  const { t } = useTranslation('board');
  const label = unread > 0 ? t('chat.openUnread', { count: unread }) : t('chat.open');
  return (
    <button
      type="button"
      className="board-chip compact chat-button"
      data-action="chat"
      aria-pressed={open}
      aria-label={label}
      title={label}
      onClick={onToggle}
    >
      <MessageSquare {...ICON_PROPS} size={16} />
      <span className="chip-text">{t('chat.title')}</span>
      {unread > 0 ? (
        <span className="chat-unread" data-unread={unread} aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </button>
  );
}
