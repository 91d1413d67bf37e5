/**
 * One person's call on one board (spec §4 Call: connecting → in call → left): POST call/join for
 * a token, a Janus session over the gateway's `/janus` socket, a VideoRoom publisher handle (my
 * camera and microphone; the host's screen share is a second publisher handle), and one
 * multistream subscriber handle whose streams follow tiles.ts (every audio, the host's video and
 * the visible page of student videos). No React here: the panel reads `getView()`.
 */
import type { CallJoinReply, CallRole } from '@wb/proto';
import { CALL_JANUS_PLUGIN } from '@wb/proto';
import { JanusError, JanusSession, type JanusHandle, type Jsep, type SocketLike } from './janusClient';
import {
  diffStreams,
  layout,
  PAGE_SIZE,
  toFeed,
  wantedStreams,
  type Feed,
  describe,
  type FeedKind,
  type JanusPublisher,
  type Layout,
  type StreamRef,
} from './tiles';

export type CallStatus = 'idle' | 'connecting' | 'in-call' | 'left';
/** readable failures (call.error.<code> in the board strings) */
export type CallErrorCode = 'forbidden' | 'upgrade' | 'unavailable' | 'permission' | 'noDevice' | 'failed' | 'lost';

export interface CallView {
  status: CallStatus;
  error: CallErrorCode | null;
  role: CallRole | null;
  display: string;
  micOn: boolean;
  camOn: boolean;
  /** my audio was muted by the host (VideoRoom moderation: Janus drops it until lifted) */
  mutedByHost: boolean;
  /** host: "mute everyone" is in force (the button lifts it next) */
  allMuted: boolean;
  sharing: boolean;
  /** my own microphone level is above the speaking threshold */
  selfTalking: boolean;
  local: MediaStream | null;
  screen: MediaStream | null;
  feeds: readonly Feed[];
  layout: Layout;
  /** the received tracks of each feed, one stream per feed */
  remote: ReadonlyMap<number, MediaStream>;
}

/** what the session needs of the page (the panel passes the real ones; tests could pass fakes) */
export interface CallDeps {
  join(): Promise<CallJoinReply>;
  /** keep: my own publisher ids; mute false lifts the host's mute */
  muteAll(keep: number[], mute: boolean): Promise<void>;
  getUserMedia(c: MediaStreamConstraints): Promise<MediaStream>;
  getDisplayMedia(): Promise<MediaStream>;
  peer(config: RTCConfiguration): RTCPeerConnection;
  socket?: (url: string) => SocketLike;
  /** the page's location, to turn `janusUrl` into a ws(s): URL on the same origin */
  origin: string;
}

/** an API refusal as the app's client reports it */
interface ApiFailure {
  status?: number;
  code?: string;
}

export function errorCodeOf(err: unknown): CallErrorCode {
  if (
    err instanceof DOMException ||
    (err instanceof Error && /^(NotAllowed|NotFound|NotReadable|Overconstrained)/.test(err.name))
  ) {
    const name = (err as Error).name;
    return name === 'NotAllowedError' || name === 'SecurityError' ? 'permission' : 'noDevice';
  }
  if (err instanceof JanusError) return 'unavailable';
  const f = (err ?? {}) as ApiFailure;
  if (f.code === 'ERR_FEATURE_NOT_ENABLED') return 'upgrade';
  if (f.code === 'ERR_FORBIDDEN' || f.code === 'ERR_BOARD_NOT_FOUND' || f.status === 403 || f.status === 404)
    return 'forbidden';
  if (f.code === 'ERR_SERVICE_UNAVAILABLE' || f.status === 503 || f.status === 502 || f.status === 0)
    return 'unavailable';
  return 'failed';
}

/** refresh the token at 80 % of its life (the service issues 10-minute tokens) */
export function refreshDelay(expiresAt: string, now: number): number {
  const left = Date.parse(expiresAt) - now;
  return Math.max(5_000, Math.floor(left * 0.8));
}

/** a ws(s): URL on the page's origin for the join reply's path */
export function socketUrl(janusUrl: string, origin: string): string {
  const u = new URL(janusUrl, origin);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  return u.toString();
}

const SPEAKING_LEVEL = 0.04;
/** JANUS_VIDEOROOM_ERROR_NO_SUCH_ROOM */
const NO_SUCH_ROOM = 426;

interface Publisher {
  handle: JanusHandle;
  pc: RTCPeerConnection;
  stream: MediaStream;
  id: number;
  kind: FeedKind;
}

export class CallSession {
  private view: CallView = {
    status: 'idle',
    error: null,
    role: null,
    display: '',
    micOn: false,
    camOn: false,
    mutedByHost: false,
    allMuted: false,
    sharing: false,
    selfTalking: false,
    local: null,
    screen: null,
    feeds: [],
    layout: { pinned: [], page: [], pageIndex: 0, pages: 1 },
    remote: new Map(),
  };
  private listeners = new Set<() => void>();
  private janus: JanusSession | null = null;
  private reply: CallJoinReply | null = null;
  private main: Publisher | null = null;
  /** my VideoRoom handle before/without publishing (joined as a publisher that may not send) */
  private mainHandle: JanusHandle | null = null;
  private myId = 0;
  private privateId = 0;
  private screenPub: Publisher | null = null;
  private feeds = new Map<number, Feed>();
  private page = 0;
  private sub: { handle: JanusHandle; pc: RTCPeerConnection; streams: StreamRef[]; mids: Map<string, number> } | null =
    null;
  private subQueue: Promise<void> = Promise.resolve();
  private refreshTimer: ReturnType<typeof setTimeout> | null = null;
  private level: { ctx: AudioContext; timer: ReturnType<typeof setInterval> } | null = null;
  private ended = false;

  constructor(private readonly deps: CallDeps) {}

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  getView = (): CallView => this.view;

  private set(patch: Partial<CallView>): void {
    this.view = { ...this.view, ...patch };
    for (const fn of this.listeners) fn();
  }

  /** join with camera and/or microphone (neither: listen and watch only) */
  async join(want: { camera: boolean; mic: boolean }): Promise<void> {
    if (this.view.status === 'connecting' || this.view.status === 'in-call') return;
    this.ended = false;
    this.set({ status: 'connecting', error: null, mutedByHost: false });
    let local: MediaStream | null = null;
    let mediaError: CallErrorCode | null = null;
    try {
      this.reply = await this.deps.join();
      this.set({ role: this.reply.role, display: this.reply.display });
      if (want.camera || want.mic) {
        try {
          local = await this.deps.getUserMedia({
            audio: want.mic ? { echoCancellation: true, noiseSuppression: true } : false,
            video: want.camera ? { width: { ideal: 640 }, height: { ideal: 360 }, frameRate: { ideal: 24 } } : false,
          });
        } catch (err) {
          // without the devices one still hears and sees the lesson: join receive-only and say why
          mediaError = errorCodeOf(err);
        }
      }
      if (this.ended) return local?.getTracks().forEach((t) => t.stop());
      this.janus = await JanusSession.connect({
        url: socketUrl(this.reply.janusUrl, this.deps.origin),
        token: this.reply.token,
        socket: this.deps.socket,
      });
      this.janus.onClosed(() => void this.fail('lost'));
      const handle = await this.janus.attach(CALL_JANUS_PLUGIN);
      this.mainHandle = handle;
      handle.on((e) => {
        if (e.kind === 'event') this.onRoomEvent(e.data);
      });
      const joined = await this.joinRoom(handle);
      this.myId = Number(joined.data.id);
      this.privateId = Number(joined.data.private_id ?? 0);
      this.addPublishers(joined.data.publishers);
      if (local) {
        this.main = await this.publish(handle, local, this.reply.role === 'host' ? 'host' : 'member', this.myId);
        this.watchLevel(local);
      }
      this.scheduleRefresh();
      this.set({
        status: 'in-call',
        error: mediaError,
        local,
        micOn: !!local?.getAudioTracks().length,
        camOn: !!local?.getVideoTracks().length,
      });
      this.sync();
    } catch (err) {
      local?.getTracks().forEach((t) => t.stop());
      if (!this.ended) await this.fail(errorCodeOf(err));
    }
  }

  /** mic on/off: the track stops sending and the others see it through the stream's state */
  async setMic(on: boolean): Promise<void> {
    const track = this.view.local?.getAudioTracks()[0];
    if (!track || !this.main) return;
    track.enabled = on;
    this.set({ micOn: on });
    await this.announce(this.main, 'audio', on);
  }

  /** camera on/off (a camera left out at join is asked for now and added by renegotiating) */
  async setCamera(on: boolean): Promise<void> {
    const local = this.view.local;
    const track = local?.getVideoTracks()[0];
    if (track && this.main) {
      track.enabled = on;
      this.set({ camOn: on });
      await this.announce(this.main, 'video', on);
      return;
    }
    if (!on || !this.mainHandle || !this.reply) return;
    try {
      const cam = await this.deps.getUserMedia({
        video: { width: { ideal: 640 }, height: { ideal: 360 }, frameRate: { ideal: 24 } },
      });
      const stream = local ?? new MediaStream();
      for (const t of cam.getVideoTracks()) stream.addTrack(t);
      if (this.main) {
        const t = cam.getVideoTracks()[0]!;
        this.main.pc.addTransceiver(t, { direction: 'sendonly', streams: [stream] });
        await this.negotiate(this.main, 'configure');
      } else {
        this.main = await this.publish(
          this.mainHandle,
          stream,
          this.reply.role === 'host' ? 'host' : 'member',
          this.myId,
        );
      }
      this.set({ local: stream, camOn: true });
    } catch (err) {
      this.set({ error: errorCodeOf(err) });
    }
  }

  /** the host's screen share: a second publisher in the room, shown pinned to everyone */
  async shareScreen(on: boolean): Promise<void> {
    if (!on) return this.stopScreen();
    if (this.screenPub || !this.janus || !this.reply || this.view.role !== 'host') return;
    try {
      const stream = await this.deps.getDisplayMedia();
      const handle = await this.janus.attach(CALL_JANUS_PLUGIN);
      const joined = await this.joinRoom(handle);
      this.screenPub = await this.publish(handle, stream, 'screen', Number(joined.data.id));
      // the browser's own "stop sharing" ends it too
      stream.getVideoTracks()[0]?.addEventListener('ended', () => void this.stopScreen());
      this.set({ sharing: true, screen: stream });
      this.sync();
    } catch (err) {
      this.set({ error: errorCodeOf(err) });
    }
  }

  /** host: mute everyone else (Janus drops their audio), or lift it */
  async muteAll(mute: boolean): Promise<void> {
    try {
      await this.deps.muteAll([...this.mine()], mute);
      this.set({ allMuted: mute });
    } catch (err) {
      this.set({ error: errorCodeOf(err) });
    }
  }

  /**
   * VideoRoom join as a publisher (everyone is one, so the room counts them). A room swept at the
   * wrong moment (426 no such room) is created again by one more call/join.
   */
  private async joinRoom(handle: JanusHandle): Promise<{ data: Record<string, unknown> }> {
    const join = () =>
      handle.message({
        request: 'join',
        ptype: 'publisher',
        room: this.reply!.room,
        display: this.reply!.display,
        token: this.reply!.token,
      });
    try {
      return await join();
    } catch (err) {
      if (!(err instanceof JanusError) || err.code !== NO_SUCH_ROOM) throw err;
      this.reply = await this.deps.join();
      this.janus?.setToken(this.reply.token);
      return join();
    }
  }

  /** student videos page (tiles.ts): only the page in view receives video */
  setPage(page: number): void {
    this.page = page;
    this.sync();
  }

  clearError(): void {
    this.set({ error: null });
  }

  /** leave the call: hang up, detach, destroy the session, stop the devices */
  async leave(): Promise<void> {
    if (this.view.status === 'idle' || this.view.status === 'left') return;
    await this.teardown();
    this.set({ status: 'left' });
  }

  private async fail(code: CallErrorCode): Promise<void> {
    await this.teardown();
    this.set({ status: 'left', error: code });
  }

  private async teardown(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = null;
    if (this.level) {
      clearInterval(this.level.timer);
      void this.level.ctx.close().catch(() => undefined);
      this.level = null;
    }
    for (const p of [this.main, this.screenPub]) {
      p?.pc.close();
      p?.stream.getTracks().forEach((t) => t.stop());
    }
    this.view.local?.getTracks().forEach((t) => t.stop());
    this.sub?.pc.close();
    const janus = this.janus;
    this.janus = null;
    this.main = this.screenPub = this.sub = this.mainHandle = null;
    this.feeds.clear();
    // destroying the session makes Janus leave the room and detach every handle
    await janus?.destroy();
    this.set({
      local: null,
      screen: null,
      sharing: false,
      micOn: false,
      camOn: false,
      selfTalking: false,
      feeds: [],
      remote: new Map(),
      layout: { pinned: [], page: [], pageIndex: 0, pages: 1 },
    });
  }

  private scheduleRefresh(): void {
    if (!this.reply || this.ended) return;
    this.refreshTimer = setTimeout(
      () => {
        this.deps.join().then(
          (next) => {
            if (this.ended) return;
            this.reply = next;
            this.janus?.setToken(next.token);
            this.scheduleRefresh();
          },
          // access lost (removed, plan downgraded) or the service is down: the call ends readably
          (err: unknown) => void this.fail(errorCodeOf(err)),
        );
      },
      refreshDelay(this.reply.expiresAt, Date.now()),
    );
  }

  /** a PeerConnection that sends `stream`, published under `kind` (the streams' description) */
  private async publish(handle: JanusHandle, stream: MediaStream, kind: FeedKind, id: number): Promise<Publisher> {
    const pc = this.deps.peer({ iceServers: this.reply!.iceServers, bundlePolicy: 'max-bundle' });
    for (const track of stream.getTracks()) pc.addTransceiver(track, { direction: 'sendonly', streams: [stream] });
    this.trickle(handle, pc);
    const pub = { handle, pc, stream, id, kind };
    await this.negotiate(pub, 'publish');
    return pub;
  }

  private async negotiate(pub: Publisher, request: 'publish' | 'configure'): Promise<void> {
    const offer = await pub.pc.createOffer();
    await pub.pc.setLocalDescription(offer);
    const answer = await pub.handle.message(
      { request, descriptions: this.descriptions(pub) },
      { type: 'offer', sdp: offer.sdp ?? '' },
    );
    if (answer.jsep) await pub.pc.setRemoteDescription(answer.jsep);
  }

  /** each sending stream's description: kind and on/off (tiles.ts `describe`) */
  private descriptions(pub: Publisher): { mid: string; description: string }[] {
    return pub.pc
      .getTransceivers()
      .filter((t) => t.mid !== null && t.sender.track)
      .map((t) => ({ mid: t.mid!, description: describe(pub.kind, t.sender.track!.enabled) }));
  }

  /**
   * A stream of mine stopped or started: Janus stops relaying it (`send`, so a muted microphone
   * reaches nobody) and the new descriptions tell everyone's tiles.
   */
  private async announce(pub: Publisher, kind: 'audio' | 'video', on: boolean): Promise<void> {
    const mid = pub.pc.getTransceivers().find((t) => t.sender.track?.kind === kind)?.mid;
    if (!mid) return;
    await pub.handle
      .message({ request: 'configure', streams: [{ mid, send: on }], descriptions: this.descriptions(pub) })
      .catch(() => undefined);
  }

  private trickle(handle: JanusHandle, pc: RTCPeerConnection): void {
    pc.addEventListener('icecandidate', (e) => {
      const c = e.candidate;
      void handle
        .trickle(c ? { candidate: c.candidate, sdpMid: c.sdpMid, sdpMLineIndex: c.sdpMLineIndex } : null)
        .catch(() => undefined);
    });
  }

  /** VideoRoom events on my publisher handle: who publishes, leaves, talks, is moderated */
  private onRoomEvent(data: Record<string, unknown>): void {
    const kind = data.videoroom;
    if (kind === 'talking' || kind === 'stopped-talking') {
      const f = this.feeds.get(Number(data.id));
      if (f) this.putFeed({ ...f, talking: kind === 'talking' });
      return;
    }
    if (kind !== 'event') return;
    if (Array.isArray(data.publishers)) this.addPublishers(data.publishers);
    for (const gone of [data.unpublished, data.leaving]) {
      if (gone === undefined || gone === 'ok') continue;
      this.feeds.delete(Number(gone));
      this.sync();
    }
    if (typeof data.moderation === 'string') {
      const id = Number(data.id);
      const muted = data.moderation === 'muted';
      const f = this.feeds.get(id);
      if (f) this.putFeed({ ...f, moderated: muted });
      if (id === this.myId) this.set({ mutedByHost: muted });
    }
  }

  private addPublishers(list: unknown): void {
    if (!Array.isArray(list)) return;
    for (const p of list as JanusPublisher[]) this.feeds.set(p.id, toFeed(p, this.feeds.get(p.id)));
    this.sync();
  }

  private putFeed(f: Feed): void {
    this.feeds.set(f.id, f);
    this.set({ feeds: [...this.feeds.values()] });
  }

  private mine(): Set<number> {
    const ids = new Set<number>();
    if (this.myId) ids.add(this.myId);
    if (this.screenPub) ids.add(this.screenPub.id);
    return ids;
  }

  /** recompute the layout and bring the subscription in line with it (queued: one renegotiation at a time) */
  private sync(): void {
    if (this.ended) return;
    const mine = this.mine();
    const shown = layout(this.feeds.values(), mine, this.page);
    this.page = shown.pageIndex;
    const remote = new Map([...this.view.remote].filter(([id]) => this.feeds.has(id)));
    this.set({ feeds: [...this.feeds.values()], layout: shown, remote });
    if (!this.janus) return;
    const wanted = wantedStreams(this.feeds.values(), mine, shown);
    this.subQueue = this.subQueue
      .then(() => this.updateSubscription(wanted))
      .catch((err: unknown) => {
        if (!this.ended) console.error('call: subscription update failed', err);
      });
  }

  private async updateSubscription(wanted: StreamRef[]): Promise<void> {
    if (this.ended || !this.janus || !this.reply) return;
    // feeds that left are dropped by Janus itself; only ask for what still exists
    wanted = wanted.filter((s) => this.feeds.has(s.feed));
    if (!this.sub) {
      if (!wanted.length) return;
      const handle = await this.janus.attach(CALL_JANUS_PLUGIN);
      const pc = this.deps.peer({ iceServers: this.reply.iceServers, bundlePolicy: 'max-bundle' });
      const sub = { handle, pc, streams: wanted, mids: new Map<string, number>() };
      this.sub = sub;
      this.trickle(handle, pc);
      pc.addEventListener('track', (e) => this.onTrack(e));
      // Janus renegotiates on its own when a feed I receive goes away ("updated" with an offer)
      handle.on((e) => {
        if (e.kind === 'event' && e.jsep && e.data.videoroom === 'updated')
          this.subQueue = this.subQueue.then(() => this.answer(e.data, e.jsep!)).catch(() => undefined);
      });
      const r = await handle.message({
        request: 'join',
        ptype: 'subscriber',
        room: this.reply.room,
        streams: wanted,
        private_id: this.privateId || undefined,
        token: this.reply.token,
      });
      if (r.jsep) await this.answer(r.data, r.jsep);
      return;
    }
    const { subscribe, unsubscribe } = diffStreams(this.sub.streams, wanted);
    if (!subscribe.length && !unsubscribe.length) return;
    const body: Record<string, unknown> = { request: 'update' };
    if (subscribe.length) body.subscribe = subscribe;
    if (unsubscribe.length) body.unsubscribe = unsubscribe;
    this.sub.streams = wanted;
    const r = await this.sub.handle.message(body);
    if (r.jsep) await this.answer(r.data, r.jsep);
  }

  /** Janus's offer for the subscription → my answer and `start` */
  private async answer(data: Record<string, unknown>, jsep: Jsep): Promise<void> {
    const sub = this.sub;
    if (!sub || this.ended) return;
    if (Array.isArray(data.streams))
      for (const s of data.streams as { mid: string; feed_id?: number; active?: boolean }[])
        if (s.feed_id !== undefined) sub.mids.set(s.mid, s.feed_id);
    await sub.pc.setRemoteDescription(jsep);
    const answer = await sub.pc.createAnswer();
    await sub.pc.setLocalDescription(answer);
    await sub.handle.message({ request: 'start' }, { type: 'answer', sdp: answer.sdp ?? '' });
  }

  private onTrack(e: RTCTrackEvent): void {
    const mid = e.transceiver.mid;
    const feed = mid !== null ? this.sub?.mids.get(mid) : undefined;
    if (feed === undefined) return;
    const remote = new Map(this.view.remote);
    const before = remote.get(feed);
    // one stream per feed, rebuilt so the tile's <video> sees a new object when tracks change
    const stream = new MediaStream([...(before?.getTracks() ?? []).filter((t) => t.kind !== e.track.kind), e.track]);
    remote.set(feed, stream);
    e.track.addEventListener('ended', () => {
      const now = this.view.remote.get(feed);
      if (now?.getTracks().includes(e.track)) {
        const next = new Map(this.view.remote);
        next.set(feed, new MediaStream(now.getTracks().filter((t) => t !== e.track)));
        this.set({ remote: next });
      }
    });
    this.set({ remote });
  }

  /** my own speaking indicator from the microphone's level (VideoRoom does not talk-event me to myself) */
  private watchLevel(stream: MediaStream): void {
    const track = stream.getAudioTracks()[0];
    if (!track || typeof AudioContext === 'undefined') return;
    try {
      const ctx = new AudioContext();
      const analyser = ctx.createAnalyser();
      analyser.fftSize = 512;
      ctx.createMediaStreamSource(new MediaStream([track])).connect(analyser);
      const buf = new Float32Array(analyser.fftSize);
      const timer = setInterval(() => {
        analyser.getFloatTimeDomainData(buf);
        let sum = 0;
        for (const v of buf) sum += v * v;
        const talking = track.enabled && Math.sqrt(sum / buf.length) > SPEAKING_LEVEL;
        if (talking !== this.view.selfTalking) this.set({ selfTalking: talking });
      }, 200);
      this.level = { ctx, timer };
    } catch {
      // no WebAudio: my tile simply shows no speaking ring
    }
  }

  private async stopScreen(): Promise<void> {
    const pub = this.screenPub;
    if (!pub) return;
    this.screenPub = null;
    pub.pc.close();
    pub.stream.getTracks().forEach((t) => t.stop());
    await pub.handle.message({ request: 'leave' }).catch(() => undefined);
    await pub.handle.detach();
    this.set({ sharing: false, screen: null });
    this.sync();
  }
}

export { PAGE_SIZE };
