/**
 * One joined board: the realtime client (one per board id and identity), the canvas view, the
 * toolbar, presence, save state, read-only banner, error toasts and the lock screens.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { PresenceEntry } from '@wb/proto';
import { LocalLink } from '../../app/prefix';
import { useAppDispatch } from '../../app/store';
import { notify } from '../../ui/toastsSlice';
import { BoardView } from './canvas/boardView';
import { LockScreen } from './LockScreen';
import type { ToolId } from './canvas/tools';
import { BoardClient, type BoardSnapshot } from './realtime/boardClient';
import { getShape } from './realtime/boardDoc';
import { boardSocketUrl, WebSocketTransport } from './realtime/transport';

export interface BoardSessionProps {
  boardId: string;
  userId: number;
  name: string;
  guest: boolean;
  style: { strokeColor: number; strokeWidth: number };
}

/** what end-to-end tests (and a curious developer) can read of the page's board */
export interface BoardTestHook {
  state(): BoardSnapshot;
  shapes(): { id: string; kind: string; creator: number; x: number; y: number; z: string }[];
  remoteStrokes(): { id: string; peerId: number; points: number }[];
  cursors(): { peerId: number; x: number; y: number }[];
}
declare global {
  interface Window {
    __wbBoard?: BoardTestHook;
  }
}

export function BoardSession({ boardId, userId, name, guest, style }: BoardSessionProps) {
  const { t } = useTranslation('board');
  const dispatch = useAppDispatch();
  const client = useMemo(
    () =>
      new BoardClient({
        transport: new WebSocketTransport(boardSocketUrl(window.location, boardId)),
        userId,
        name,
      }),
    [boardId, userId, name],
  );
  const snap = useSyncExternalStore(client.subscribe, client.getSnapshot);
  const [tool, setToolState] = useState<ToolId>('select');
  const [selected, setSelected] = useState(0);
  const [zoom, setZoom] = useState(1);
  const [view, setView] = useState<BoardView | null>(null);
  const host = useRef<HTMLDivElement>(null);

  // the latest translate function, without restarting the connection on a language switch
  const tRef = useRef(t);
  tRef.current = t;
  useEffect(() => {
    client.start();
    const offError = client.onError((e) =>
      dispatch(notify({ type: 'error', message: tRef.current(`errors.${e.code}`) })),
    );
    const onVisibility = () => client.setHidden(document.visibilityState === 'hidden');
    document.addEventListener('visibilitychange', onVisibility);
    window.__wbBoard = {
      state: () => client.getSnapshot(),
      shapes: () =>
        [...allIds(client)].map((id) => {
          const s = getShape(client.doc, id)!;
          return { id, kind: s.kind, creator: s.creator, x: s.x, y: s.y, z: s.z };
        }),
      remoteStrokes: () =>
        [...client.remote.strokes.values()].map((s) => ({ id: s.id, peerId: s.peerId, points: s.points.length / 2 })),
      cursors: () => [...client.remote.cursors].map(([peerId, c]) => ({ peerId, x: c.x, y: c.y })),
    };
    return () => {
      offError();
      document.removeEventListener('visibilitychange', onVisibility);
      client.stop();
      delete window.__wbBoard;
    };
  }, [client, dispatch]);

  const locked = snap.status === 'locked';
  useEffect(() => {
    if (locked || !host.current) return;
    const v = new BoardView(host.current, client, {
      style,
      onSelectionChange: setSelected,
      onZoomChange: setZoom,
    });
    setView(v);
    return () => {
      v.destroy();
      setView(null);
    };
    // the style is read when a stroke starts; a new style does not need a new view
  }, [client, locked]);

  const readOnly = snap.readOnly;
  const setTool = useCallback(
    (id: ToolId) => {
      setToolState(id);
      view?.setTool(id);
    },
    [view],
  );
  useEffect(() => {
    if (readOnly && tool !== 'select') setTool('select');
  }, [readOnly, tool, setTool]);

  const deleteSelection = useCallback(() => {
    if (!view) return;
    const { refused } = view.deleteSelection();
    if (refused) dispatch(notify({ type: 'warning', message: t('errors.deleteOthers', { count: refused }) }));
  }, [view, dispatch, t]);

  // keyboard shortcuts (spec: V select, P pen, Delete; + − zoom, Shift+1 fit)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'v' || e.key === 'V') setTool('select');
      else if ((e.key === 'p' || e.key === 'P') && !readOnly) setTool('pen');
      else if ((e.key === 'Delete' || e.key === 'Backspace') && !readOnly) {
        e.preventDefault();
        deleteSelection();
      } else if (e.key === 'Escape') view?.setSelection([]);
      else if (e.key === '+' || e.key === '=') view?.zoomBy(1.25);
      else if (e.key === '-' || e.key === '−') view?.zoomBy(0.8);
      else if (e.key === '!' && e.shiftKey) view?.fit();
      else return;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setTool, deleteSelection, readOnly, view]);

  if (snap.lock) return <LockScreen reason={snap.lock} guest={guest} />;

  const saveLabel = !snap.ready && snap.status !== 'reconnecting' ? t('save.connecting') : t(`save.${snap.saveState}`);
  return (
    <main id="main" className="board-view" data-status={snap.status} data-save={snap.saveState}>
      <h1 className="sr-only">{t('translation:board.label', { id: boardId })}</h1>
      <header className="board-topbar">
        <LocalLink to={guest ? '/' : '/dashboard'} className="board-back" title={guest ? t('lock.toHome') : t('back')}>
          <span aria-hidden="true">←</span>{' '}
          <span className="board-back-text">{guest ? t('lock.toHome') : t('back')}</span>
        </LocalLink>
        <p
          className={`save-state save-${snap.ready ? snap.saveState : 'connecting'}`}
          role="status"
          aria-label={t('save.label')}
        >
          {saveLabel}
        </p>
        <Presence presence={snap.presence} self={snap.welcome?.peerId} />
      </header>
      {readOnly && snap.readOnlyCause ? (
        <p className="board-banner" role="note">
          {t(`readOnly.${snap.readOnlyCause}`)}
        </p>
      ) : null}
      <div className="board-toolbar" role="toolbar" aria-label={t('toolbar.label')} aria-orientation="vertical">
        <ToolButton
          label={t('toolbar.select')}
          keys="V"
          icon="↖"
          active={tool === 'select'}
          onClick={() => setTool('select')}
        />
        <ToolButton
          label={t('toolbar.pen')}
          keys="P"
          icon="✎"
          active={tool === 'pen'}
          disabled={readOnly || !snap.ready}
          onClick={() => setTool('pen')}
        />
        <ToolButton
          label={t('toolbar.delete')}
          keys="Delete"
          icon="✕"
          disabled={readOnly || selected === 0}
          onClick={deleteSelection}
        />
        <span className="toolbar-sep" aria-hidden="true" />
        <ToolButton label={t('toolbar.zoomIn')} keys="+" icon="+" onClick={() => view?.zoomBy(1.25)} />
        <ToolButton label={t('toolbar.zoomOut')} keys="-" icon="−" onClick={() => view?.zoomBy(0.8)} />
        <ToolButton label={t('toolbar.fit')} keys="Shift+1" icon="⤢" onClick={() => view?.fit()} />
        <output className="zoom-level" aria-label={t('toolbar.zoom', { percent: Math.round(zoom * 100) })}>
          {Math.round(zoom * 100)} %
        </output>
      </div>
      <div
        ref={host}
        className={`board-surface tool-${tool}`}
        role="img"
        aria-label={t('canvas', { count: view?.scene.size ?? 0 })}
        aria-busy={!snap.ready}
      />
      {!snap.ready ? <div className="board-loading">{saveLabel}</div> : null}
    </main>
  );
}

function allIds(client: BoardClient): string[] {
  return Object.values(client.doc.shapes ?? {}).flatMap((b) => Object.keys(b));
}

function ToolButton(props: {
  label: string;
  keys: string;
  icon: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={props.active ? 'tool active' : 'tool'}
      aria-label={props.label}
      aria-pressed={props.active === undefined ? undefined : props.active}
      aria-keyshortcuts={props.keys}
      title={`${props.label} (${props.keys})`}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      <span aria-hidden="true">{props.icon}</span>
    </button>
  );
}

function Presence({ presence, self }: { presence: readonly PresenceEntry[]; self: number | undefined }) {
  const { t } = useTranslation('board');
  return (
    <ul className="presence" aria-label={t('presence.label')}>
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
        </li>
      ))}
    </ul>
  );
}
