/**
 * The call panel (its own chunk, loaded on the first click of the header's call button): the join
 * choice (camera and/or microphone), then video tiles docked beside the board (right side on
 * desktop, a strip on phones; `largeVideo` makes them large) with the controls: microphone,
 * camera, leave, and for the host screen sharing and "mute everyone". Speaking, muted and
 * camera-off states show on the tiles; student videos are paged (tiles.ts).
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronLeft, ChevronRight, Mic, MicOff, MonitorUp, PhoneOff, Video, VideoOff, VolumeX, X } from 'lucide-react';
import { useAppDispatch } from '../../../app/store';
import { ICON_PROPS } from '../../../ui/icons';
import { UpgradeDialog } from '../../../ui/UpgradePrompt';
import { useUpgradeVariant } from '../../billing/useBilling';
import { callApi } from './callApi';
import { CallSession, type CallStatus, type CallView } from './callSession';
import type { Feed } from './tiles';
import './call.css';

export interface CallPanelProps {
  boardId: string;
  /** guests send their chosen name (signed-in people join under their account's name) */
  guestName: string | null;
  /** the user setting `largeVideo` */
  large: boolean;
  /** start as the upgrade prompt (the header knows the owner's plan lacks `call`) */
  upgrade: boolean;
  /** the chat panel is open on the right: the dock moves beside it */
  besideChat: boolean;
  onStatus: (status: CallStatus) => void;
  onClose: () => void;
}

declare global {
  interface Window {
    /** end-to-end tests and the bench read the call through this */
    __wbCall?: { view(): CallView; session: CallSession };
  }
}

function useCallSession(boardId: string, guestName: string | null): CallSession {
  const dispatch = useAppDispatch();
  const session = useMemo(
    () =>
      new CallSession({
        join: () => dispatch(callApi.endpoints.callJoin.initiate({ boardId, name: guestName ?? undefined })).unwrap(),
        muteAll: async (keep, mute) => {
          await dispatch(callApi.endpoints.callMuteAll.initiate({ boardId, keep, mute })).unwrap();
        },
        getUserMedia: (c) => navigator.mediaDevices.getUserMedia(c),
        getDisplayMedia: () =>
          navigator.mediaDevices.getDisplayMedia({ video: { frameRate: { ideal: 10 } }, audio: false }),
        peer: (config) => new RTCPeerConnection(config),
        origin: window.location.origin,
      }),
    [boardId, guestName, dispatch],
  );
  useEffect(() => {
    window.__wbCall = { view: session.getView, session };
    return () => {
      if (window.__wbCall?.session === session) delete window.__wbCall;
      void session.leave();
    };
  }, [session]);
  return session;
}

export default function CallPanel(props: CallPanelProps) {
  const { t } = useTranslation('board');
  const session = useCallSession(props.boardId, props.guestName);
  const view = useSyncExternalStore(session.subscribe, session.getView);
  const { onStatus } = props;
  useEffect(() => onStatus(view.status), [view.status, onStatus]);

  if (props.upgrade || view.error === 'upgrade') return <CallUpgrade onClose={props.onClose} />;

  const live = view.status === 'in-call';
  const classes = ['call-panel', props.large ? 'call-large' : '', props.besideChat ? 'call-beside-chat' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <section className={classes} data-call-status={view.status} aria-label={t('call.title')}>
      <header className="call-head">
        <h2>{t('call.title')}</h2>
        <p className="call-state" role="status">
          {t(`call.status.${view.status}`)}
        </p>
        {live || view.status === 'connecting' ? null : (
          <button
            type="button"
            className="icon-button"
            data-action="call-close"
            aria-label={t('call.close')}
            title={t('call.close')}
            onClick={props.onClose}
          >
            <X {...ICON_PROPS} size={16} />
          </button>
        )}
      </header>
      {view.error ? (
        <p className="call-error" role="alert" data-error={view.error}>
          <span>{t(`call.error.${view.error}`)}</span>
          <button type="button" className="link-button" onClick={() => session.clearError()}>
            {t('call.dismiss')}
          </button>
        </p>
      ) : null}
      {view.mutedByHost ? (
        <p className="call-note" role="note" data-muted-by-host="true">
          {t('call.mutedByHost')}
        </p>
      ) : null}
      {view.status === 'idle' || view.status === 'left' ? (
        <JoinForm session={session} again={view.status === 'left'} />
      ) : (
        <>
          <Tiles view={view} session={session} />
          <Controls view={view} session={session} />
        </>
      )}
      <RemoteAudio view={view} />
    </section>
  );
}

function JoinForm({ session, again }: { session: CallSession; again: boolean }) {
  const { t } = useTranslation('board');
  const [camera, setCamera] = useState(true);
  const [mic, setMic] = useState(true);
  return (
    <form
      className="call-join"
      onSubmit={(e) => {
        e.preventDefault();
        void session.join({ camera, mic });
      }}
    >
      <p>{t('call.joinHint')}</p>
      <label>
        <input type="checkbox" checked={camera} onChange={(e) => setCamera(e.target.checked)} />
        {t('call.joinCamera')}
      </label>
      <label>
        <input type="checkbox" checked={mic} onChange={(e) => setMic(e.target.checked)} />
        {t('call.joinMic')}
      </label>
      <button type="submit" className="primary" data-action="call-join">
        {again ? t('call.rejoin') : t('call.join')}
      </button>
    </form>
  );
}

function Controls({ view, session }: { view: CallView; session: CallSession }) {
  const { t } = useTranslation('board');
  const host = view.role === 'host';
  const hasMic = !!view.local?.getAudioTracks().length;
  const busy = view.status !== 'in-call';
  const micLabel = view.micOn ? t('call.micOff') : t('call.micOn');
  const camLabel = view.camOn ? t('call.cameraOff') : t('call.cameraOn');
  const shareLabel = view.sharing ? t('call.stopShare') : t('call.share');
  const muteAllLabel = view.allMuted ? t('call.unmuteAll') : t('call.muteAll');
  return (
    <div className="call-controls" role="toolbar" aria-label={t('call.controls')}>
      <button
        type="button"
        className="call-control"
        data-action="call-mic"
        aria-pressed={!view.micOn}
        aria-label={micLabel}
        title={micLabel}
        disabled={busy || !hasMic}
        onClick={() => void session.setMic(!view.micOn)}
      >
        {view.micOn ? <Mic {...ICON_PROPS} size={18} /> : <MicOff {...ICON_PROPS} size={18} />}
      </button>
      <button
        type="button"
        className="call-control"
        data-action="call-camera"
        aria-pressed={!view.camOn}
        aria-label={camLabel}
        title={camLabel}
        disabled={busy}
        onClick={() => void session.setCamera(!view.camOn)}
      >
        {view.camOn ? <Video {...ICON_PROPS} size={18} /> : <VideoOff {...ICON_PROPS} size={18} />}
      </button>
      {host ? (
        <>
          <button
            type="button"
            className="call-control"
            data-action="call-screen"
            aria-pressed={view.sharing}
            aria-label={shareLabel}
            title={shareLabel}
            disabled={busy || typeof navigator.mediaDevices?.getDisplayMedia !== 'function'}
            onClick={() => void session.shareScreen(!view.sharing)}
          >
            <MonitorUp {...ICON_PROPS} size={18} />
          </button>
          <button
            type="button"
            className="call-control"
            data-action="call-mute-all"
            aria-pressed={view.allMuted}
            aria-label={muteAllLabel}
            title={muteAllLabel}
            disabled={busy}
            onClick={() => void session.muteAll(!view.allMuted)}
          >
            <VolumeX {...ICON_PROPS} size={18} />
          </button>
        </>
      ) : null}
      <button
        type="button"
        className="call-control call-leave"
        data-action="call-leave"
        aria-label={t('call.leave')}
        title={t('call.leave')}
        onClick={() => void session.leave()}
      >
        <PhoneOff {...ICON_PROPS} size={18} />
      </button>
    </div>
  );
}

function Tiles({ view, session }: { view: CallView; session: CallSession }) {
  const { t } = useTranslation('board');
  const { pinned, page, pageIndex, pages } = view.layout;
  const selfName = view.display;
  return (
    <div className="call-tiles-box">
      <ul className="call-tiles" aria-label={t('call.tiles')}>
        {view.screen ? (
          <Tile
            stream={view.screen}
            name={t('call.screenOf', { name: selfName })}
            kind="screen"
            self
            audioOff
            videoOff={false}
            talking={false}
          />
        ) : null}
        <Tile
          stream={view.local}
          name={t('call.you', { name: selfName })}
          kind={view.role === 'host' ? 'host' : 'member'}
          self
          audioOff={!view.micOn}
          videoOff={!view.camOn}
          talking={view.selfTalking}
        />
        {[...pinned, ...page].map((f) => (
          <FeedTile key={f.id} feed={f} stream={view.remote.get(f.id) ?? null} />
        ))}
      </ul>
      {pages > 1 ? (
        <nav className="call-pager" aria-label={t('call.pages')}>
          <button
            type="button"
            className="icon-button"
            data-action="call-page-prev"
            aria-label={t('call.prev')}
            disabled={pageIndex === 0}
            onClick={() => session.setPage(pageIndex - 1)}
          >
            <ChevronLeft {...ICON_PROPS} size={16} />
          </button>
          <span>{t('call.page', { page: pageIndex + 1, pages })}</span>
          <button
            type="button"
            className="icon-button"
            data-action="call-page-next"
            aria-label={t('call.next')}
            disabled={pageIndex >= pages - 1}
            onClick={() => session.setPage(pageIndex + 1)}
          >
            <ChevronRight {...ICON_PROPS} size={16} />
          </button>
        </nav>
      ) : null}
    </div>
  );
}

function FeedTile({ feed, stream }: { feed: Feed; stream: MediaStream | null }) {
  const { t } = useTranslation('board');
  const name = feed.kind === 'screen' ? t('call.screenOf', { name: feed.display }) : feed.display;
  return (
    <Tile
      stream={stream}
      name={name}
      kind={feed.kind}
      feedId={feed.id}
      self={false}
      audioOff={feed.audioOff || feed.moderated}
      videoOff={feed.videoOff}
      talking={feed.talking}
    />
  );
}

function Tile(props: {
  stream: MediaStream | null;
  name: string;
  kind: Feed['kind'];
  feedId?: number;
  self: boolean;
  audioOff: boolean;
  videoOff: boolean;
  talking: boolean;
}) {
  const { t } = useTranslation('board');
  const video = useRef<HTMLVideoElement>(null);
  const hasVideo = !!props.stream?.getVideoTracks().length && !props.videoOff;
  // a screen share has no sound of its own: no "microphone off" on it
  const micOff = props.audioOff && props.kind !== 'screen';
  useEffect(() => {
    const el = video.current;
    if (!el) return;
    // video only: sound plays through RemoteAudio, also for people whose tile is on another page
    const tracks = props.stream?.getVideoTracks() ?? [];
    el.srcObject = tracks.length ? new MediaStream(tracks) : null;
    if (tracks.length) void el.play().catch(() => undefined);
  }, [props.stream]);
  const states = [
    props.kind === 'host' ? t('call.host') : null,
    micOff ? t('call.muted') : null,
    props.videoOff ? t('call.cameraIsOff') : null,
    props.talking ? t('call.talking') : null,
  ].filter(Boolean);
  return (
    <li
      className="call-tile"
      data-feed={props.feedId}
      data-kind={props.kind}
      data-self={props.self ? 'true' : undefined}
      data-muted={micOff ? 'true' : 'false'}
      data-camera-off={props.videoOff ? 'true' : 'false'}
      data-talking={props.talking ? 'true' : 'false'}
      aria-label={[props.name, ...states].join(', ')}
    >
      <video ref={video} muted playsInline autoPlay aria-hidden="true" hidden={!hasVideo} />
      {hasVideo ? null : (
        <span className="call-avatar" aria-hidden="true">
          {props.name.slice(0, 1).toUpperCase()}
        </span>
      )}
      <span className="call-name" aria-hidden="true">
        {micOff ? <MicOff {...ICON_PROPS} size={12} /> : null}
        {props.name}
      </span>
    </li>
  );
}

/** every received audio plays, whichever page of tiles is in view */
function RemoteAudio({ view }: { view: CallView }) {
  return (
    <div hidden>
      {[...view.remote].map(([id, stream]) => (
        <FeedAudio key={id} stream={stream} />
      ))}
    </div>
  );
}

function FeedAudio({ stream }: { stream: MediaStream }) {
  const el = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    const a = el.current;
    if (!a) return;
    const tracks = stream.getAudioTracks();
    a.srcObject = tracks.length ? new MediaStream(tracks) : null;
    if (tracks.length) void a.play().catch(() => undefined);
  }, [stream]);
  // a live call's remote voice, played without controls: there is no caption track to give
  // eslint-disable-next-line jsx-a11y/media-has-caption
  return <audio ref={el} autoPlay />;
}

function CallUpgrade({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('board');
  const variant = useUpgradeVariant();
  return (
    <UpgradeDialog
      variant={variant}
      title={t('call.upgradeTitle')}
      text={<span data-call-upgrade="true">{t('call.upgradeText')}</span>}
      onClose={onClose}
    />
  );
}
