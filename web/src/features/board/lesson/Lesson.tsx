/**
 * The live-lesson chrome (services/realtime SPEC LS*): the timer control and display, the
 * presentation button, banner and presenter outline, following a person, and the owner's
 * "bring everyone to me". Mounted by BoardSession; talks to the editor through EditorApi only.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { LocateFixed, Presentation, Timer as TimerIcon } from 'lucide-react';
import type { ViewportPayload } from '@wb/proto';
import { ICON_PROPS } from '../../../ui/icons';
import type { EditorApi } from '../canvas/editorApi';
import type { Rect } from '../canvas/camera';
import { toScreen } from '../canvas/camera';
import type { BoardClient } from '../realtime/boardClient';
import { Follower } from './follow';
import { formatTimer, LessonModel } from './lessonModel';
import './lesson.css';

const rectOf = (v: ViewportPayload): Rect => ({ minX: v.x, minY: v.y, maxX: v.x + v.width, maxY: v.y + v.height });

export interface LessonState {
  model: LessonModel;
  /** the peer id I follow (free follow), or null */
  following: number | null;
  follow: (peerId: number | null) => void;
  /** the rectangle being followed now (live VIEWPORTs), null when none */
  followedRect: () => Rect | null;
}

/** one LessonModel per client + the follow state (follow: data-action="follow-<userId>") */
export function useLesson(client: BoardClient, editor: EditorApi | null): LessonState {
  const model = useMemo(() => new LessonModel(client), [client]);
  useEffect(() => {
    model.start();
    return () => model.stop();
  }, [model]);
  const view = useSyncExternalStore(model.subscribe, model.getView);
  const [following, setFollowing] = useState<number | null>(null);
  const follower = useRef<Follower | null>(null);
  const presenter = view.state.presenter;
  const presentedByOther = presenter !== null && presenter.peerId !== client.getSnapshot().welcome?.peerId;
  const target = presentedByOther ? presenter.peerId : following;

  useEffect(() => {
    if (!editor) return;
    const f = new Follower(editor, () => setFollowing(null));
    follower.current = f;
    return () => {
      f.destroy();
      follower.current = null;
    };
  }, [editor]);

  // the followed person's latest viewport (presenter: also the one in LESSON_STATE, LS7)
  useEffect(() => {
    const f = follower.current;
    if (!f || target === null) {
      f?.stop();
      return;
    }
    if (presentedByOther && presenter.viewport) f.moveTo(rectOf(presenter.viewport));
    else {
      const v = client.remote.viewports.get(target);
      if (v) f.moveTo(rectOf(v));
    }
    let last: ViewportPayload | undefined;
    const off = client.onEphemeral(() => {
      const v = client.remote.viewports.get(target);
      if (v && v !== last) {
        last = v;
        f.moveTo(rectOf(v));
        window.__wbLessonApplied?.(performance.now());
      }
    });
    return () => off();
  }, [client, target, presentedByOther, presenter?.viewport, editor]);

  // the owner's "bring everyone to me"
  useEffect(() => model.onGather((g) => follower.current?.moveTo(rectOf(g))), [model]);

  return { model, following, follow: setFollowing, followedRect: () => follower.current?.target ?? null };
}

declare global {
  interface Window {
    /** e2e and bench: called with performance.now() when a followed viewport is applied */
    __wbLessonApplied?: (at: number) => void;
  }
}

/** header buttons: timer (data-action="timer") and present (data-action="present") */
export function LessonButtons({
  lesson,
  canControl,
  owner,
  editor,
  onUpgrade,
}: {
  lesson: LessonState;
  canControl: boolean;
  owner: boolean;
  editor: EditorApi | null;
  onUpgrade: () => void;
}) {
  const { t } = useTranslation('board');
  const { model } = lesson;
  const view = useSyncExternalStore(model.subscribe, model.getView);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const paid = view.state.paid !== false;
  const presenting = model.presenting();
  const someoneElse = view.state.presenter !== null && !presenting;
  return (
    <>
      {canControl ? (
        <div className="lesson-timer-box">
          <button
            type="button"
            className="board-chip compact"
            data-action="timer"
            aria-expanded={open}
            title={t('lesson.timer')}
            onClick={() => (paid ? setOpen((o) => !o) : onUpgrade())}
          >
            <TimerIcon {...ICON_PROPS} size={16} />
            <span className="chip-text">{t('lesson.timer')}</span>
          </button>
          {open ? <TimerControl model={model} onClose={close} /> : null}
        </div>
      ) : null}
      {canControl || presenting ? (
        <button
          type="button"
          className="board-chip compact"
          data-action="present"
          aria-pressed={presenting}
          title={presenting ? t('lesson.stopPresenting') : t('lesson.present')}
          disabled={someoneElse && !owner}
          onClick={() => {
            if (!paid && !presenting) return onUpgrade();
            if (presenting || (someoneElse && owner)) model.present('stop');
            else {
              // my area first, so followers have it even if the node starts the presentation at once
              sendViewportNow(editor);
              model.present('start');
              sendViewportNow(editor);
            }
          }}
        >
          <Presentation {...ICON_PROPS} size={16} />
          <span className="chip-text">{presenting ? t('lesson.stopPresenting') : t('lesson.present')}</span>
        </button>
      ) : null}
      {owner && editor ? (
        <button
          type="button"
          className="board-chip compact lesson-gather"
          data-action="gather"
          title={t('lesson.gather')}
          onClick={() => {
            const v = editor.getState().view;
            model.gather({ x: v.minX, y: v.minY, width: v.maxX - v.minX, height: v.maxY - v.minY });
          }}
        >
          <LocateFixed {...ICON_PROPS} size={16} />
          <span className="chip-text">{t('lesson.gather')}</span>
        </button>
      ) : null}
    </>
  );
}

/** LS7: the presenter's viewport goes out at once when presenting starts (not on the next move) */
function sendViewportNow(editor: EditorApi | null): void {
  if (!editor) return;
  const c = editor.getState().camera;
  editor.setCamera({ ...c, x: c.x + 1e-6 });
  editor.setCamera(c);
}

function TimerControl({ model, onClose }: { model: LessonModel; onClose: () => void }) {
  const { t } = useTranslation('board');
  const [minutes, setMinutes] = useState(5);
  const view = useSyncExternalStore(model.subscribe, model.getView);
  const running = view.state.timer.state === 'running';
  const shown = !(view.state.timer.state === 'idle' && view.state.timer.durationMs === 0);
  const box = useRef<HTMLDivElement>(null);
  // a popover: it closes when anything else is pressed (another panel, menu or the board) and on Escape
  useEffect(() => {
    const onDown = (e: PointerEvent): void => {
      const t = e.target as Node | null;
      if (t && !box.current?.parentElement?.contains(t)) onClose();
    };
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('pointerdown', onDown, true);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown, true);
      document.removeEventListener('keydown', onKey);
    };
  }, [onClose]);
  return (
    <div ref={box} className="lesson-timer-control" role="dialog" aria-label={t('lesson.timer')}>
      <label>
        {t('lesson.minutes')}
        <input
          type="number"
          min={1}
          max={1440}
          value={minutes}
          onChange={(e) => setMinutes(Math.max(1, Math.min(1440, Number(e.target.value) || 1)))}
        />
      </label>
      <div className="lesson-timer-actions">
        <button
          type="button"
          data-action="timer-set"
          onClick={() => model.timer({ action: 'set', durationMs: minutes * 60_000 })}
        >
          {t('lesson.set')}
        </button>
        {running ? (
          <button type="button" data-action="timer-pause" onClick={() => model.timer({ action: 'pause' })}>
            {t('lesson.pause')}
          </button>
        ) : (
          <button
            type="button"
            data-action="timer-start"
            onClick={() =>
              model.timer(
                view.state.timer.durationMs > 0
                  ? { action: 'start' }
                  : { action: 'start', durationMs: minutes * 60_000 },
              )
            }
          >
            {t('lesson.start')}
          </button>
        )}
        <button type="button" data-action="timer-reset" onClick={() => model.timer({ action: 'reset' })}>
          {t('lesson.reset')}
        </button>
        <button type="button" data-action="timer-add" onClick={() => model.timer({ action: 'addMinute' })}>
          {t('lesson.addMinute')}
        </button>
        {shown ? (
          <button
            type="button"
            data-action="timer-stop"
            onClick={() => {
              // LS2 stop: the timer goes away for everyone
              model.timer({ action: 'stop' });
              onClose();
            }}
          >
            {t('lesson.stop')}
          </button>
        ) : null}
        <button type="button" onClick={onClose}>
          {t('lesson.close')}
        </button>
      </div>
    </div>
  );
}

/** the running timer for everyone (data-timer, mm:ss), a beep and a flash at the end */
export function LessonTimer({ model }: { model: LessonModel }) {
  const { t } = useTranslation('board');
  const view = useSyncExternalStore(model.subscribe, model.getView);
  const [, setTick] = useState(0);
  const [flash, setFlash] = useState(false);
  const wasRunning = useRef(false);
  const timer = view.state.timer;
  const remaining = model.remaining();
  useEffect(() => {
    if (timer.state !== 'running') return;
    const id = setInterval(() => setTick((n) => n + 1), 250);
    return () => clearInterval(id);
  }, [timer.state, view]);
  const ended =
    (timer.state === 'running' && remaining <= 0) ||
    (timer.state === 'idle' && timer.durationMs > 0 && timer.remainingMs === 0);
  useEffect(() => {
    if (timer.state === 'running' && remaining > 0) wasRunning.current = true;
    else if (ended && wasRunning.current) {
      // only a timer seen running ends with a sound (not a late joiner's finished one)
      wasRunning.current = false;
      beep();
      setFlash(true);
      const id = setTimeout(() => setFlash(false), 2000);
      return () => clearTimeout(id);
    }
    return undefined;
  }, [timer.state, remaining, ended]);
  if (timer.state === 'idle' && timer.durationMs === 0) return null;
  return (
    <div
      className={`lesson-timer${flash ? ' lesson-flash' : ''}${view.state.presenter && !model.presenting() ? ' below-banner' : ''}`}
      data-timer={timer.state}
      role="timer"
      aria-label={t('lesson.timerLabel')}
    >
      {formatTimer(remaining)}
    </div>
  );
}

/** a short WebAudio beep (no asset); silent where audio is not allowed yet */
function beep(): void {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.2, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.6);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.6);
    osc.onended = () => void ctx.close();
  } catch {
    // no audio: the flash still shows
  }
}

/** "X is presenting" and the presenter's visible area when my screen shows more */
export function LessonPresentation({ lesson, editor }: { lesson: LessonState; editor: EditorApi | null }) {
  const { t } = useTranslation('board');
  const { model } = lesson;
  const view = useSyncExternalStore(model.subscribe, model.getView);
  const p = view.state.presenter;
  const [, setN] = useState(0);
  useEffect(() => (editor ? editor.subscribe(() => setN((n) => n + 1)) : undefined), [editor]);
  if (!p || model.presenting()) return null;
  let outline: React.CSSProperties | null = null;
  // the presenter's live area (their VIEWPORTs as followed), else the one LESSON_STATE carried
  const area = lesson.followedRect() ?? (p.viewport ? rectOf(p.viewport) : null);
  if (editor && area) {
    const cam = editor.getState().camera;
    const a = toScreen(cam, area.minX, area.minY);
    const b = toScreen(cam, area.maxX, area.maxY);
    const { width, height } = editor.getState().screen;
    if (b.x - a.x < width - 4 || b.y - a.y < height - 4)
      outline = { left: a.x, top: a.y, width: b.x - a.x, height: b.y - a.y };
  }
  return (
    <>
      <p className="board-banner lesson-banner" role="status" data-presenting={p.userId}>
        {t('lesson.presenting', { name: p.name })}
      </p>
      {outline ? <div className="lesson-outline" style={outline} aria-hidden="true" /> : null}
    </>
  );
}
