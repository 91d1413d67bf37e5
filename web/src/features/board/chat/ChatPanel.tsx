/**
 * The board chat panel: messages with author and time (newest at the bottom), "load earlier",
 * delete (own messages; the owner any), a textarea (Enter sends, Shift+Enter a new line) with the
 * length limit shown, and the node's errors. State lives in ChatModel.
 */
import { useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { X } from 'lucide-react';
import { RT_LIMITS } from '@wb/proto';
import type { ChatMessage } from '@wb/proto';
import { ICON_PROPS } from '../../../ui/icons';
import type { ChatModel } from './chatModel';
import { ChatText } from './ChatText';
import './chat.css';

export interface ChatPanelProps {
  model: ChatModel;
  /** the viewer's user id (0: guest) and whether they own the board (C6) */
  userId: number;
  guest: boolean;
  owner: boolean;
  onClose: () => void;
}

export function ChatPanel({ model, userId, guest, owner, onClose }: ChatPanelProps) {
  const { t, i18n } = useTranslation('board');
  const state = useSyncExternalStore(model.subscribe, model.getState);
  const [draft, setDraft] = useState('');
  const [local, setLocal] = useState<'empty' | 'tooLong' | 'offline' | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const time = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }),
    [i18n.language],
  );
  const chars = [...draft.trim()].length;

  // newest at the bottom: follow new messages unless older ones were just prepended
  const lastId = state.messages.at(-1)?.id;
  useLayoutEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lastId, state.pending.length]);

  const submit = (): void => {
    const r = model.send(draft);
    if (r === 'sent') {
      setDraft('');
      setLocal(null);
    } else setLocal(r);
  };
  const canDelete = (m: ChatMessage): boolean =>
    owner || (guest ? state.sentHere.has(m.id) : !m.guest && m.authorId === userId);
  const error = local
    ? t(`chat.error.${local}`, { max: RT_LIMITS.maxChatChars })
    : state.error
      ? t(`chat.error.${state.error.code}`, { defaultValue: state.error.message })
      : null;

  return (
    <aside className="chat-panel" aria-label={t('chat.title')} data-chat-panel="">
      <header className="chat-head">
        <h2>{t('chat.title')}</h2>
        <button type="button" className="icon-button" aria-label={t('chat.close')} onClick={onClose}>
          <X {...ICON_PROPS} size={18} />
        </button>
      </header>
      <ol className="chat-list" ref={list} aria-live="polite">
        {state.more ? (
          <li className="chat-earlier">
            <button type="button" disabled={state.loadingEarlier} onClick={() => model.loadEarlier()}>
              {t('chat.loadEarlier')}
            </button>
          </li>
        ) : null}
        {state.loaded && state.messages.length === 0 && state.pending.length === 0 ? (
          <li className="chat-empty">{t('chat.empty')}</li>
        ) : null}
        {state.messages.map((m) => (
          <li key={m.id} className="chat-msg" data-message-id={m.id}>
            <div className="chat-meta">
              <span className="chat-author">
                {m.guest ? t('chat.guestName', { name: m.authorName }) : m.authorName}
              </span>
              <time dateTime={m.createdAt}>{time.format(new Date(m.createdAt))}</time>
              {canDelete(m) ? (
                <button
                  type="button"
                  className="chat-delete"
                  aria-label={t('chat.delete')}
                  title={t('chat.delete')}
                  onClick={() => model.delete(m.id)}
                >
                  <X {...ICON_PROPS} size={14} />
                </button>
              ) : null}
            </div>
            <p className="chat-text">
              <ChatText text={m.text} />
            </p>
          </li>
        ))}
        {state.pending.map((p) => (
          <li key={p.clientId} className="chat-msg chat-pending" aria-busy="true">
            <div className="chat-meta">
              <span className="chat-author">{t('chat.sending')}</span>
            </div>
            <p className="chat-text">
              <ChatText text={p.text} />
            </p>
          </li>
        ))}
      </ol>
      {error ? (
        <p className="chat-error" role="alert">
          {error}
        </p>
      ) : null}
      <form
        className="chat-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <textarea
          value={draft}
          rows={2}
          aria-label={t('chat.placeholder')}
          placeholder={t('chat.placeholder')}
          onChange={(e) => {
            setDraft(e.target.value);
            setLocal(null);
            model.clearError();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
        />
        <div className="chat-form-row">
          <span className={`chat-count${chars > RT_LIMITS.maxChatChars ? ' chat-over' : ''}`}>
            {t('chat.count', { count: chars, max: RT_LIMITS.maxChatChars })}
          </span>
          <button type="submit" className="button primary" disabled={chars === 0}>
            {t('chat.send')}
          </button>
        </div>
      </form>
    </aside>
  );
}
