/**
 * The board's top bar: back link, title (the owner renames it in place), share and background
 * (owner), the people on the board and the save state. Rename and background go through the same
 * boards PUT the dashboard uses; the share dialog is the dashboard's.
 */
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Check, Download, Ellipsis, FolderOpen, Image, Share2, Users } from 'lucide-react';
import {
  BOARD_BACKGROUNDS,
  BOARD_TITLE_MAX_LENGTH,
  type BoardBackground,
  type Plan,
  type PresenceEntry,
} from '@wb/proto';
import { LocalLink } from '../../../app/prefix';
import { useAppDispatch } from '../../../app/store';
import { useNamespace } from '../../../i18n/useNamespace';
import { ICON_PROPS } from '../../../ui/icons';
import { Popover } from '../../../ui/kit/Popover';
import { ChatButton } from '../chat/ChatButton';
import { reportError } from '../../../ui/reportError';
import { notify } from '../../../ui/toastsSlice';
import { useCodeText } from '../../../ui/useCodeText';
import { ShareDialog } from '../../boards/BoardDialogs';
import { useUpdateBoardMutation } from '../../boards/boardsApi';

export interface BoardHeaderProps {
  boardId: string;
  /** undefined while the board's details load */
  title: string | undefined;
  /** only the owner renames, shares and changes the background */
  owner: boolean;
  guest: boolean;
  plan: Plan;
  background: BoardBackground;
  /** the background was saved (the page shows it at once) */
  onBackground: (bg: BoardBackground) => void;
  presence: readonly PresenceEntry[];
  selfPeerId: number | undefined;
  /** the board menu's Export… (the page opens the export dialog) */
  onExport: () => void;
  /** the save state (SaveState): its own component, re-rendered alone at every change */
  save: React.ReactNode;
  /** the file drawer's button (the page opens the drawer or the upgrade prompt) */
  files?: { open: boolean; onToggle: () => void };
  /** the chat panel's button with its unread count (chat/ChatButton) */
  chat?: { open: boolean; unread: number; onToggle: () => void };
  /** lesson/: the timer, present and gather buttons */
  lesson?: React.ReactNode;
  /** call/: the call button (CallButton, data-action="call") */
  call?: React.ReactNode;
  /** lesson/: follow a participant (data-action="follow-<userId>") */
  follow?: { following: number | null; onFollow: (peerId: number | null) => void };
}

export function BoardHeader(props: BoardHeaderProps) {
  const { t } = useTranslation('board');
  const { boardId, owner, guest } = props;
  const [title, setTitle] = useState(props.title);
  useEffect(() => setTitle(props.title), [props.title]);
  const [share, setShare] = useState(false);
  const pickBackground = useSaveBackground(boardId, props.background, props.onBackground);
  const sharing = owner && !guest;
  const shown = title || t('untitled');
  return (
    <header className="board-topbar">
      <LocalLink
        to={guest ? '/' : '/dashboard'}
        className="board-back"
        aria-label={guest ? t('lock.toHome') : t('back')}
      >
        <ArrowLeft {...ICON_PROPS} size={18} />
        <span className="board-back-text">{guest ? t('lock.toHome') : t('back')}</span>
      </LocalLink>
      <div className="board-title-box">
        {owner && title !== undefined ? (
          <TitleEditor boardId={boardId} title={title} onSaved={setTitle} />
        ) : (
          <span className="board-title" title={shown}>
            {shown}
          </span>
        )}
      </div>
      {sharing ? (
        <>
          <button
            type="button"
            className="board-chip wide-only"
            data-action="share"
            title={t('header.share')}
            onClick={() => setShare(true)}
          >
            <Share2 {...ICON_PROPS} size={16} />
            <span className="chip-text">{t('header.share')}</span>
          </button>
          <BackgroundPicker value={props.background} onPick={pickBackground} />
        </>
      ) : null}
      {props.files ? (
        <button
          type="button"
          className="board-chip compact wide-only"
          data-action="files"
          aria-pressed={props.files.open}
          aria-label={t('drawer.open')}
          title={t('drawer.open')}
          onClick={props.files.onToggle}
        >
          <FolderOpen {...ICON_PROPS} size={16} />
          <span className="chip-text">{t('drawer.open')}</span>
        </button>
      ) : null}
      {props.chat ? <ChatButton {...props.chat} /> : null}
      {props.call}
      {props.lesson}
      {props.save}
      <Presence presence={props.presence} self={props.selfPeerId} follow={props.follow} />
      <BoardMenu
        onExport={props.onExport}
        phone={{
          onShare: sharing ? () => setShare(true) : undefined,
          background: sharing ? { value: props.background, onPick: pickBackground } : undefined,
          files: props.files,
        }}
      />
      {share
        ? // out of the top bar's stacking context, so the backdrop covers the tool bar and panels too
          createPortal(
            <ShareFromBoard boardId={boardId} title={shown} plan={props.plan} onClose={() => setShare(false)} />,
            document.body,
          )
        : null}
    </header>
  );
}

/** Click → input; Enter or leaving saves, Escape cancels; a refusal is toasted and the old title stays. */
export function TitleEditor({
  boardId,
  title,
  onSaved,
}: {
  boardId: string;
  title: string;
  onSaved: (title: string) => void;
}) {
  const { t } = useTranslation('board');
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const [update, { isLoading }] = useUpdateBoardMutation();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(title);
  const input = useRef<HTMLInputElement>(null);
  // Enter saves and then the input's blur fires too: save once
  const done = useRef(false);
  useEffect(() => {
    // the input replaces the button just pressed: the focus moves on to it
    input.current?.focus();
    input.current?.select();
  }, [editing]);

  const finish = async (save: boolean) => {
    if (done.current) return;
    done.current = true;
    setEditing(false);
    const next = value.trim();
    if (!save || !next || next === title) {
      setValue(title);
      return;
    }
    const result = await update({ boardId, title: next });
    if ('error' in result) {
      setValue(title);
      reportError(dispatch, result.error, codeText);
    } else {
      onSaved(next);
      dispatch(notify({ type: 'info', message: t('header.renamed') }));
    }
  };

  if (!editing)
    return (
      <button
        type="button"
        className="board-title editable"
        data-action="rename"
        aria-label={t('header.rename', { title })}
        title={t('header.renameHint')}
        disabled={isLoading}
        onClick={() => {
          done.current = false;
          setValue(title);
          setEditing(true);
        }}
      >
        {title || t('untitled')}
      </button>
    );
  return (
    <input
      ref={input}
      className="board-title-input"
      aria-label={t('header.titleLabel')}
      value={value}
      maxLength={BOARD_TITLE_MAX_LENGTH}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        // the editor's shortcuts must not see typing
        e.stopPropagation();
        if (e.key === 'Enter') void finish(true);
        else if (e.key === 'Escape') void finish(false);
      }}
      onBlur={() => void finish(true)}
    />
  );
}

/** The dashboard's share dialog; its strings live in the `boards` namespace. */
function ShareFromBoard({
  boardId,
  title,
  plan,
  onClose,
}: {
  boardId: string;
  title: string;
  plan: Plan;
  onClose: () => void;
}) {
  const ready = useNamespace('boards');
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  if (!ready) return null;
  return (
    <ShareDialog
      boardId={boardId}
      boardTitle={title}
      plan={plan}
      onClose={onClose}
      onError={(error) => reportError(dispatch, error, codeText)}
    />
  );
}

/** Save a picked background through the boards PUT; a refusal is toasted and the old one stays. */
function useSaveBackground(boardId: string, value: BoardBackground, onSaved: (bg: BoardBackground) => void) {
  const dispatch = useAppDispatch();
  const codeText = useCodeText();
  const [update] = useUpdateBoardMutation();
  const save = async (bg: BoardBackground) => {
    const result = await update({ boardId, background: bg });
    if ('error' in result) reportError(dispatch, result.error, codeText);
    else onSaved(bg);
  };
  return (bg: BoardBackground) => {
    if (bg !== value) void save(bg);
  };
}

/** The board backgrounds with small previews (board.css `.bg-preview.bg-<name>`). */
function BackgroundOptions({ value, onPick }: { value: BoardBackground; onPick: (bg: BoardBackground) => void }) {
  const { t } = useTranslation('board');
  const { t: tc } = useTranslation();
  return (
    <div className="bg-options" role="group" aria-label={t('header.background')}>
      {BOARD_BACKGROUNDS.map((bg) => (
        <button
          key={bg}
          type="button"
          className="bg-option"
          data-background={bg}
          aria-pressed={bg === value}
          onClick={() => onPick(bg)}
        >
          <span className={`bg-preview bg-${bg}`} aria-hidden="true" />
          <span>{tc(`prefs.bg_${bg}`)}</span>
          {bg === value ? <Check {...ICON_PROPS} size={14} /> : null}
        </button>
      ))}
    </div>
  );
}

/** The background chip and its popover of options (wide screens; phones pick in the board menu). */
function BackgroundPicker({ value, onPick }: { value: BoardBackground; onPick: (bg: BoardBackground) => void }) {
  const { t } = useTranslation('board');
  return (
    <div className="bg-picker wide-only">
      <Popover
        label={t('header.background')}
        className="bg-popover"
        trigger={
          <button
            type="button"
            className="board-chip"
            data-action="background"
            title={t('header.background')}
            aria-haspopup="dialog"
          >
            <Image {...ICON_PROPS} size={16} />
            <span className="chip-text">{t('header.background')}</span>
          </button>
        }
      >
        {(close) => (
          <BackgroundOptions
            value={value}
            onPick={(bg) => {
              close();
              onPick(bg);
            }}
          />
        )}
      </Popover>
    </div>
  );
}

/** What the top bar holds on wide screens and a phone's board menu holds instead (board.css). */
interface PhoneMenuItems {
  onShare?: () => void;
  background?: { value: BoardBackground; onPick: (bg: BoardBackground) => void };
  files?: BoardHeaderProps['files'];
}

/**
 * The board menu (everyone, viewers too): export; on phones also share, files and the background.
 * A kit Popover rather than a Menu: the backgrounds are a grid of previews.
 */
function BoardMenu({ onExport, phone }: { onExport: () => void; phone: PhoneMenuItems }) {
  const { t } = useTranslation('board');
  const background = phone.background;
  return (
    <Popover
      label={t('header.menu')}
      placement="bottom end"
      className="board-menu-items"
      trigger={
        <button
          type="button"
          className="board-chip"
          data-action="board-menu"
          aria-label={t('header.menu')}
          title={t('header.menu')}
          aria-haspopup="dialog"
        >
          <Ellipsis {...ICON_PROPS} size={16} />
        </button>
      }
    >
      {(close) => {
        const item = (action: string, icon: React.ReactNode, label: string, run: () => void, phoneOnly = false) => (
          <button
            type="button"
            className={phoneOnly ? 'menu-item phone-only' : 'menu-item'}
            data-action={action}
            onClick={() => {
              close();
              run();
            }}
          >
            {icon}
            <span>{label}</span>
          </button>
        );
        return (
          <div className="board-menu-list">
            {phone.onShare
              ? item('menu-share', <Share2 {...ICON_PROPS} size={16} />, t('header.share'), phone.onShare, true)
              : null}
            {phone.files
              ? item(
                  'menu-files',
                  <FolderOpen {...ICON_PROPS} size={16} />,
                  t('drawer.open'),
                  phone.files.onToggle,
                  true,
                )
              : null}
            {item('export', <Download {...ICON_PROPS} size={16} />, t('header.export'), onExport)}
            {background ? (
              <div className="phone-only menu-backgrounds">
                <span className="menu-heading">{t('header.background')}</span>
                <BackgroundOptions
                  value={background.value}
                  onPick={(bg) => {
                    close();
                    background.onPick(bg);
                  }}
                />
              </div>
            ) : null}
          </div>
        );
      }}
    </Popover>
  );
}

/** Who is here: a count and each person's colour (the same as their cursor's). */
export function Presence({
  presence,
  self,
  follow,
}: {
  presence: readonly PresenceEntry[];
  self: number | undefined;
  follow?: BoardHeaderProps['follow'];
}) {
  const { t } = useTranslation('board');
  return (
    <div className="presence-box">
      <span className="presence-count" title={t('presence.count', { count: presence.length })}>
        <Users {...ICON_PROPS} size={14} />
        <span className="sr-only">{t('presence.count', { count: presence.length })}</span>
        <span aria-hidden="true">{presence.length}</span>
      </span>
      {/* focusable: a long class scrolls sideways, and keyboard users must reach every name */}
      <div className="presence" role="region" aria-label={t('presence.label')} tabIndex={0}>
        <ul aria-label={t('presence.label')}>
          {presence.map((p) => (
            <li key={p.peerId} style={{ ['--peer' as string]: p.color }} title={p.name}>
              <span className="presence-dot" aria-hidden="true">
                {p.name.slice(0, 1).toUpperCase()}
              </span>
              <span className="presence-name">
                {p.peerId === self ? t('presence.you', { name: p.name }) : p.name}
                {p.guest ? ` · ${t('presence.guest')}` : ''}
                {p.role === 'viewer' ? ` · ${t('presence.viewer')}` : ''}
              </span>
              {follow && p.peerId !== self ? (
                <button
                  type="button"
                  className="presence-follow"
                  data-action={`follow-${p.userId}`}
                  aria-pressed={follow.following === p.peerId}
                  onClick={() => follow.onFollow(follow.following === p.peerId ? null : p.peerId)}
                >
                  {follow.following === p.peerId ? t('lesson.unfollow') : t('lesson.follow')}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
