/**
 * One joined board: the realtime client (one per board id and identity), the editor (BoardView,
 * seen through EditorApi only), the page's chrome around it (header, tool bar, style panel,
 * selection bar, zoom, minimap, scroll bars, shortcuts panel), error toasts and the lock screens.
 * The page owns the panels' visibility; the editor asks for them through `panel()`.
 */
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useTranslation } from 'react-i18next';
import { shallowEqual } from 'react-redux';
import { useSyncExternalStoreWithSelector } from 'use-sync-external-store/with-selector';
import type { BoardBackground, Plan, Settings } from '@wb/proto';
import { useAppDispatch } from '../../app/store';
import { notify } from '../../ui/toastsSlice';
import { useUpdateSettingsMutation } from '../session/sessionApi';
import { BoardView, type BoardTimings, type BoardViewOptions } from './canvas/boardView';
import type { EditorApi, EditorOptions } from './canvas/editorApi';
import type { ToolStyles } from './canvas/toolStyles';
import { useGetBoardQuery } from './guestAccess';
import { LockScreen } from './LockScreen';
import type { BoardClient, BoardSnapshot } from './realtime/boardClient';
import { getShape } from './realtime/boardDoc';
import { BoardFiles } from './files/BoardFiles';
import { ChatPanel } from './chat/ChatPanel';
import { CallButton } from './call/CallButton';
import type { CallStatus } from './call/callSession';
import { useBoardChat } from './chat/useBoardChat';
import { BoardHeader } from './ui/BoardHeader';
import { LessonButtons, LessonPresentation, LessonTimer, useLesson } from './lesson/Lesson';
import { BoardUpgradeDialog, type BoardUpgradeReason } from './ui/BoardUpgrade';
import { ReadOnlyBanner } from './ui/ReadOnlyBanner';
import { accessOf, fromRgb, isPhone, useEditorState } from './ui/editorHooks';
import { Minimap } from './ui/Minimap';
import { Scrollbars } from './ui/Scrollbars';
import { SelectionBar } from './ui/SelectionBar';
import { ShapeEditorHost } from './ui/ShapeEditorHost';
import { ShortcutsPanel } from '../../ui/ShortcutsPanel';
import { StylePanel, styleSections, type PenPreset } from './ui/StylePanel';
import { storeStyles, styleSettingsPatch } from './ui/styleSettings';
import { Toolbar } from './ui/Toolbar';
import { ZoomControls } from './ui/ZoomControls';

// the export dialog and its exporters load from the board menu, not with the board
const BoardExport = lazy(() => import('./ui/BoardExport'));
// the call (Janus client, WebRTC, tiles) loads on the first click of the call button
const CallPanel = lazy(() => import('./call/CallPanel'));

export interface BoardSessionProps {
  boardId: string;
  /** the realtime client, created and started by the page (it joins before this mounts) */
  client: BoardClient;
  name: string;
  guest: boolean;
  /** each tool group's style to start with (ui/styleSettings.ts initialStyles: settings and this device's copy) */
  style: ToolStyles;
  settings: Settings;
  plan: Plan;
}

/** what end-to-end tests (and a curious developer) can read of the page's board */
export interface BoardTestHook {
  state(): BoardSnapshot;
  /** every shape as plain values; byte fields (points, pressures) as their length */
  shapes(): ({ id: string; kind: string; creator: number; x: number; y: number; z: string } & Record<
    string,
    unknown
  >)[];
  remoteStrokes(): { id: string; peerId: number; points: number }[];
  cursors(): { peerId: number; x: number; y: number }[];
  /** the editor once mounted (benchmarks drive its camera, scene and commands) */
  editor?: BoardView;
  /** performance.now() of WELCOME, the render snapshot shown, SYNCED and the first full paint */
  timings(): BoardTimings;
}
declare global {
  interface Window {
    __wbBoard?: BoardTestHook;
  }
}

const SAVE_STYLE_MS = 600;

function currentTheme(): 'light' | 'dark' {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

type PageCallbacks = Pick<
  BoardViewOptions,
  'notify' | 'powerTools' | 'upgradeNeeded' | 'penPreset' | 'panel' | 'pastedImage'
>;

/**
 * ADAPTER: the one place that knows how BoardView is built. Everything else on this page talks
 * to the editor through EditorApi only (and the chrome's tests use a fake of it).
 */
function createEditor(
  host: HTMLElement,
  client: BoardClient,
  init: { style: ToolStyles; options: EditorOptions } & PageCallbacks,
): BoardView {
  return new BoardView(host, client, init);
}

export function BoardSession({ boardId, client, name, guest, style, settings, plan }: BoardSessionProps) {
  const { t } = useTranslation('board');
  const dispatch = useAppDispatch();
  // what the page shows; the save state (changes at every edit) re-renders its own component only
  const snap = useSyncExternalStoreWithSelector(
    client.subscribe,
    client.getSnapshot,
    client.getSnapshot,
    pageSnapshot,
    shallowEqual,
  );
  const board = useGetBoardQuery(boardId);
  const [editor, setEditor] = useState<EditorApi | null>(null);
  const host = useRef<HTMLDivElement>(null);

  const collapsible = settings.boardCollapsibleToolbar === 1;
  const [collapsed, setCollapsed] = useState(() => collapsible && isPhone());
  const [minimap, setMinimap] = useState(settings.boardMinimap === 1);
  const [shortcuts, setShortcuts] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [upgrade, setUpgrade] = useState<BoardUpgradeReason | null>(null);
  const [picked, setPicked] = useState<{ bg: BoardBackground; over: BoardBackground } | null>(null);
  const [filesOpen, setFilesOpen] = useState(false);
  const chat = useBoardChat(client);
  // an image pasted from another app: BoardFiles uploads it for this board and places it
  const pasteImage = useRef<((blob: Blob, at: { x: number; y: number }) => void) | null>(null);

  // live for everyone through BOARD_INFO; the owner's own pick shows at once, until the server's
  // value moves on (the echo of the pick, or someone else's change)
  const serverBackground: BoardBackground = snap.board?.background ?? board.data?.background ?? 'empty';
  const boardBackground = picked && picked.over === serverBackground ? picked.bg : serverBackground;
  const locked = snap.status === 'locked';

  // the latest values for callbacks the editor holds for its whole life, and the style and
  // background it starts with (later changes reach it through setStyle/setOptions)
  const latest = useRef({ t, settings, plan, style, boardBackground });
  useLayoutEffect(() => {
    latest.current = { t, settings, plan, style, boardBackground };
  });

  useEffect(() => {
    const offError = client.onError((e) => {
      if (e.code.startsWith('chat_')) return; // the chat panel shows its own errors
      // the node refused the timer or presenting for the owner's plan: the upgrade prompt, not a toast
      if (e.code === 'lesson_upgrade') return setUpgrade('lesson');
      dispatch(notify({ type: 'error', message: latest.current.t(`errors.${e.code}`) }));
    });
    const onVisibility = () => client.setHidden(document.visibilityState === 'hidden');
    document.addEventListener('visibilitychange', onVisibility);
    window.__wbBoard = {
      state: () => client.getSnapshot(),
      shapes: () =>
        [...allIds(client)].map((id) => {
          const s = getShape(client.doc, id)!;
          const plain: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(s)) plain[k] = v instanceof Uint8Array ? v.length : v;
          return plain as ReturnType<BoardTestHook['shapes']>[number];
        }),
      remoteStrokes: () =>
        [...client.remote.strokes.values()].map((s) => ({ id: s.id, peerId: s.peerId, points: s.points.length / 2 })),
      cursors: () => [...client.remote.cursors].map(([peerId, c]) => ({ peerId, x: c.x, y: c.y })),
      timings: () =>
        window.__wbBoard?.editor?.timings ?? { welcomeAt: null, renderedAt: null, syncedAt: null, paintedAt: null },
    };
    return () => {
      offError();
      document.removeEventListener('visibilitychange', onVisibility);
      delete window.__wbBoard;
    };
  }, [client, dispatch]);

  useEffect(() => {
    if (locked || !host.current) return;
    const { settings: s, style, boardBackground } = latest.current;
    const v = createEditor(host.current, client, {
      style,
      options: {
        theme: currentTheme(),
        background: boardBackground,
        snapping: s.boardSnapping === 1,
        inertialPanning: s.boardInertialPanning === 1,
        showParticipantNames: s.showParticipantNames === 1,
      },
      notify: (kind, code, values) =>
        dispatch(notify({ type: kind, message: latest.current.t(`errors.${code}`, values) })),
      powerTools: () => latest.current.plan.features.powerTools,
      upgradeNeeded: () => setUpgrade('powerTools'),
      penPreset: (n) => {
        const p = latest.current.settings.penPresets[n - 1];
        return p ? { strokeColor: fromRgb(p.color), strokeWidth: p.width, linePattern: p.pattern } : null;
      },
      panel: (action) => {
        if (action === 'toggleToolbar') setCollapsed((c) => !c);
        else if (action === 'toggleMinimap') setMinimap((m) => !m);
        else setShortcuts(true);
      },
      pastedImage: (blob, at) => pasteImage.current?.(blob, at),
    });
    setEditor(v);
    if (window.__wbBoard) window.__wbBoard.editor = v;
    return () => {
      if (window.__wbBoard?.editor === v) delete window.__wbBoard.editor;
      v.destroy();
      setEditor(null);
    };
  }, [client, locked, dispatch]);

  // preferences and board facts the editor shows, live
  useEffect(() => {
    editor?.setOptions({ background: boardBackground });
  }, [editor, boardBackground]);
  useEffect(() => {
    editor?.setOptions({
      snapping: settings.boardSnapping === 1,
      inertialPanning: settings.boardInertialPanning === 1,
      showParticipantNames: settings.showParticipantNames === 1,
    });
  }, [editor, settings.boardSnapping, settings.boardInertialPanning, settings.showParticipantNames]);
  useEffect(() => {
    if (!editor) return;
    const mo = new MutationObserver(() => editor.setOptions({ theme: currentTheme() }));
    mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => mo.disconnect();
  }, [editor]);

  useStyleSaving(editor, guest);

  // "?" opens this board's panel, not the app's general one (App listens on the document)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (e.key !== '?' || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable) return;
      e.preventDefault();
      e.stopPropagation();
      setShortcuts(true);
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, []);

  const [updateSettings] = useUpdateSettingsMutation();
  const savePresets = useCallback((penPresets: PenPreset[]) => void updateSettings({ penPresets }), [updateSettings]);

  // live lesson (timer, presentation, follow): lesson/
  const lesson = useLesson(client, editor);
  const [callOpen, setCallOpen] = useState(false);
  const [callStatus, setCallStatus] = useState<CallStatus>('idle');
  // the owner's plan: known exactly to the owner; others go by the node's paid flag (same paid plans)
  const lessonPaid = useSyncExternalStore(lesson.model.subscribe, lesson.model.getView).state.paid;

  const peerColors = useMemo(() => new Map(snap.presence.map((p) => [p.peerId, p.color])), [snap.presence]);

  if (snap.lock) return <LockScreen reason={snap.lock} guest={guest} />;

  const readOnly = snap.readOnly;
  const access = accessOf(snap.welcome?.access, readOnly);
  const owner = snap.welcome?.role === 'owner' || board.data?.access === 'own';
  const title = snap.board?.title ?? board.data?.title;
  const callUpgrade = owner && !guest ? !plan.features.call : lessonPaid === false;
  return (
    <main id="main" className="board-view" data-status={snap.status}>
      <h1 className="sr-only">{title ?? t('translation:board.label', { id: boardId })}</h1>
      <BoardHeader
        boardId={boardId}
        title={title}
        owner={owner}
        guest={guest}
        plan={plan}
        background={boardBackground}
        onBackground={(bg) => setPicked({ bg, over: serverBackground })}
        presence={snap.presence}
        selfPeerId={snap.welcome?.peerId}
        follow={{ following: lesson.following, onFollow: lesson.follow }}
        lesson={
          <LessonButtons
            lesson={lesson}
            canControl={snap.welcome?.role === 'owner' || snap.welcome?.role === 'editor'}
            owner={snap.welcome?.role === 'owner'}
            editor={editor}
            onUpgrade={() => setUpgrade('lesson')}
          />
        }
        save={<SaveState client={client} />}
        onExport={() => setExporting(true)}
        files={{
          open: filesOpen,
          // spec §2: the drawer needs fileUpload, else the upgrade prompt (pastes and drops still work)
          onToggle: () => (plan.features.fileUpload ? setFilesOpen((o) => !o) : setUpgrade('fileUpload')),
        }}
        chat={{ open: chat.open, unread: chat.unread, onToggle: chat.toggle }}
        call={
          <CallButton
            status={callStatus}
            upgrade={callUpgrade}
            open={callOpen}
            // during a call the panel stays (Leave ends it); otherwise the button opens and closes it
            onClick={() => setCallOpen((o) => (callStatus === 'in-call' || callStatus === 'connecting' ? true : !o))}
          />
        }
      />
      {readOnly && snap.readOnlyCause ? (
        <ReadOnlyBanner
          cause={snap.readOnlyCause}
          reason={snap.welcome?.readOnlyReason ?? null}
          isOwner={snap.welcome?.role === 'owner'}
          ownerName={snap.presence.find((p) => !p.guest && p.userId === snap.welcome?.ownerId)?.name ?? null}
          onUpgrade={() => setUpgrade('readOnly')}
        />
      ) : null}
      <LessonTimer model={lesson.model} />
      <LessonPresentation lesson={lesson} editor={editor} />
      <div
        ref={host}
        className="board-surface"
        data-background={boardBackground}
        role="img"
        aria-label={t('canvas', { count: editor?.scene.size ?? 0 })}
        aria-busy={!snap.ready}
      />
      {editor ? (
        <>
          <Scrollbars editor={editor} />
          <Toolbar
            editor={editor}
            readOnly={readOnly || !snap.ready}
            collapsible={collapsible}
            collapsed={collapsed}
            onCollapsedChange={setCollapsed}
            onShortcuts={() => setShortcuts(true)}
          />
          {readOnly ? null : (
            <>
              <SelectionBar
                editor={editor}
                powerTools={plan.features.powerTools}
                onUpgrade={() => setUpgrade('powerTools')}
              />
              <ShapeEditorHost
                editor={editor}
                advancedGraphs={plan.features.advancedGraphs}
                onUpgrade={() => setUpgrade('advancedGraphs')}
              />
              <StyleSheet
                editor={editor}
                presets={settings.penPresets}
                maxPresets={plan.limits.maxPresets}
                onSavePresets={guest ? null : savePresets}
                onUpgrade={() => setUpgrade('presets')}
              />
            </>
          )}
          <div className="board-corner">
            {minimap ? <Minimap editor={editor} colors={peerColors} /> : null}
            <ZoomControls editor={editor} minimapOpen={minimap} onToggleMinimap={() => setMinimap((m) => !m)} />
          </div>
        </>
      ) : null}
      {chat.open ? (
        <ChatPanel model={chat.model} userId={client.userId} guest={guest} owner={owner} onClose={chat.close} />
      ) : null}
      {callOpen ? (
        <Suspense fallback={null}>
          <CallPanel
            boardId={boardId}
            guestName={guest ? name : null}
            large={settings.largeVideo === 1}
            upgrade={callUpgrade}
            besideChat={chat.open}
            onStatus={setCallStatus}
            onClose={() => {
              setCallOpen(false);
              setCallStatus('idle');
            }}
          />
        </Suspense>
      ) : null}
      <BoardFiles
        editor={editor}
        boardId={boardId}
        host={host}
        canPlace={snap.ready && access !== 'view'}
        open={filesOpen && plan.features.fileUpload}
        onClose={() => setFilesOpen(false)}
        settings={settings}
        guest={guest}
        pasteRef={pasteImage}
        onUpgrade={() => setUpgrade('fileUpload')}
      />
      {!snap.ready ? (
        <div className="board-loading">
          {t(snap.status === 'reconnecting' ? 'save.reconnecting' : 'save.connecting')}
        </div>
      ) : null}
      {exporting && editor ? (
        <Suspense fallback={null}>
          <BoardExport
            editor={editor}
            title={title || t('untitled')}
            background={boardBackground}
            theme={currentTheme()}
            onClose={() => setExporting(false)}
          />
        </Suspense>
      ) : null}
      {shortcuts ? <ShortcutsPanel access={access} onClose={() => setShortcuts(false)} /> : null}
      {upgrade ? (
        <BoardUpgradeDialog reason={upgrade} maxPresets={plan.limits.maxPresets} onClose={() => setUpgrade(null)} />
      ) : null}
    </main>
  );
}

const pageSnapshot = (s: BoardSnapshot) => ({
  status: s.status,
  lock: s.lock,
  board: s.board,
  presence: s.presence,
  ready: s.ready,
  readOnly: s.readOnly,
  readOnlyCause: s.readOnlyCause,
  welcome: s.welcome,
});
const saveSnapshot = (s: BoardSnapshot) => ({ ready: s.ready, status: s.status, saveState: s.saveState });

/** Saved, saving, reconnecting or connecting, in the header. */
function SaveState({ client }: { client: BoardClient }) {
  const { t } = useTranslation('board');
  const snap = useSyncExternalStoreWithSelector(
    client.subscribe,
    client.getSnapshot,
    client.getSnapshot,
    saveSnapshot,
    shallowEqual,
  );
  const state = snap.ready ? snap.saveState : 'connecting';
  const label = !snap.ready && snap.status !== 'reconnecting' ? t('save.connecting') : t(`save.${snap.saveState}`);
  return (
    <p className={`save-state save-${state}`} role="status" aria-label={t('save.label')}>
      {label}
    </p>
  );
}

/** The style panel, closable on phones (a bottom sheet there) until the tool or selection changes. */
function StyleSheet(props: Omit<React.ComponentProps<typeof StylePanel>, 'onClose'>) {
  const state = useEditorState(props.editor, (s) => ({ tool: s.tool, selection: s.selection }));
  const sections = styleSections(state);
  const context = `${state.tool}:${state.selection.count}`;
  const [closedFor, setClosedFor] = useState<string | null>(null);
  if (closedFor === context || !Object.values(sections).some(Boolean)) return null;
  return <StylePanel {...props} onClose={() => setClosedFor(context)} />;
}

/**
 * Saves every tool group's style a moment after it last changed: on this device always (guests
 * have nothing else, and the shapes' style is no setting), and the pen, text and formula settings
 * fields through the settings page's mutation for people with an account (ui/styleSettings.ts).
 */
function useStyleSaving(editor: EditorApi | null, guest: boolean): void {
  const [updateSettings] = useUpdateSettingsMutation();
  useEffect(() => {
    if (!editor) return;
    let saved = editor.getState().styles;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const now = editor.getState().styles;
      const patch = styleSettingsPatch(saved, now);
      saved = now;
      storeStyles(now);
      if (patch && !guest) void updateSettings(patch);
    };
    const off = editor.subscribe(() => {
      if (editor.getState().styles === saved) return;
      clearTimeout(timer);
      timer = setTimeout(flush, SAVE_STYLE_MS);
    });
    return () => {
      off();
      if (timer !== undefined) {
        clearTimeout(timer);
        flush();
      }
    };
  }, [editor, guest, updateSettings]);
}

function allIds(client: BoardClient): string[] {
  return Object.values(client.doc.shapes ?? {}).flatMap((b) => Object.keys(b));
}
