/**
 * Who is shown and what is subscribed in a call, free of WebRTC so it is unit tested. A lesson is
 * 1 teacher + up to 30 students: everyone receives every audio (people must hear who speaks), the
 * host's camera and screen share always, and student cameras only for the page of tiles in view
 * (PAGE_SIZE at a time), so a student's downlink and the SFU's work stay bounded.
 */

/** what a publisher's streams are for (the `description` of its published streams) */
export type FeedKind = 'host' | 'member' | 'screen';

/**
 * A published stream's VideoRoom description: `<kind>` while sending, `<kind>;off` when muted or
 * the camera is off. Janus tells every participant when a description changes (a `publishers`
 * event), and late joiners get the current ones, so this carries mute and camera-off states.
 */
export function describe(kind: FeedKind, on: boolean): string {
  return on ? kind : `${kind};off`;
}
function parseDescription(d: string | undefined): { kind: FeedKind | null; off: boolean } {
  const [kind, flag] = (d ?? '').split(';');
  return {
    kind: kind === 'host' || kind === 'member' || kind === 'screen' ? kind : null,
    off: flag === 'off',
  };
}

/** one VideoRoom publisher as the call sees it */
export interface Feed {
  id: number;
  display: string;
  kind: FeedKind;
  audioMid?: string;
  videoMid?: string;
  /** muted by themselves (description `;off`, or the stream disabled) */
  audioOff: boolean;
  videoOff: boolean;
  /** audio muted by the host (VideoRoom moderation: Janus drops it until lifted) */
  moderated: boolean;
  talking: boolean;
}

/** a stream of a feed, as VideoRoom's subscribe/unsubscribe name it */
export interface StreamRef {
  feed: number;
  mid: string;
}

export const PAGE_SIZE = 6;

/** a VideoRoom publisher entry (`publishers` in joined/event messages), as much as is read */
export interface JanusPublisher {
  id: number;
  display?: string;
  talking?: boolean;
  streams?: {
    type: string;
    mid: string;
    disabled?: boolean;
    moderated?: boolean;
    description?: string;
  }[];
}

/** a Janus publisher entry → Feed (the kind comes from its streams' descriptions) */
export function toFeed(p: JanusPublisher, before?: Feed): Feed {
  const streams = p.streams ?? [];
  const audio = streams.find((s) => s.type === 'audio');
  const video = streams.find((s) => s.type === 'video');
  const a = parseDescription(audio?.description);
  const v = parseDescription(video?.description);
  return {
    id: p.id,
    display: p.display ?? before?.display ?? '',
    kind: a.kind ?? v.kind ?? before?.kind ?? 'member',
    audioMid: audio && !audio.disabled ? audio.mid : undefined,
    videoMid: video && !video.disabled ? video.mid : undefined,
    audioOff: !audio || !!audio.disabled || a.off,
    videoOff: !video || !!video.disabled || !!video.moderated || v.off,
    moderated: !!audio?.moderated,
    talking: p.talking ?? before?.talking ?? false,
  };
}

export interface Layout {
  /** always shown: the host's camera and screen share (unless they are mine) */
  pinned: Feed[];
  /** the other members' tiles on the current page */
  page: Feed[];
  /** 0-based page shown (clamped) and how many pages there are (at least 1) */
  pageIndex: number;
  pages: number;
}

/** a stable order (by display, then id), so tiles do not jump when someone starts talking */
const byName = (a: Feed, b: Feed) => a.display.localeCompare(b.display) || a.id - b.id;

/** the tiles to show, other than my own: `mine` are my own feed ids (camera and screen) */
export function layout(feeds: Iterable<Feed>, mine: ReadonlySet<number>, page: number, pageSize = PAGE_SIZE): Layout {
  const others = [...feeds].filter((f) => !mine.has(f.id));
  // the screen share first: it is what the teacher wants seen
  const rank = (f: Feed) => (f.kind === 'screen' ? 0 : 1);
  const pinned = others.filter((f) => f.kind !== 'member').sort((a, b) => rank(a) - rank(b) || byName(a, b));
  const members = others.filter((f) => f.kind === 'member').sort(byName);
  const pages = Math.max(1, Math.ceil(members.length / pageSize));
  const pageIndex = Math.min(Math.max(0, page), pages - 1);
  return { pinned, page: members.slice(pageIndex * pageSize, (pageIndex + 1) * pageSize), pageIndex, pages };
}

/** what to receive: every audio but my own, the pinned feeds' video and the visible page's video */
export function wantedStreams(feeds: Iterable<Feed>, mine: ReadonlySet<number>, shown: Layout): StreamRef[] {
  const visible = new Set([...shown.pinned, ...shown.page].map((f) => f.id));
  const out: StreamRef[] = [];
  for (const f of feeds) {
    if (mine.has(f.id)) continue;
    if (f.audioMid) out.push({ feed: f.id, mid: f.audioMid });
    if (f.videoMid && visible.has(f.id)) out.push({ feed: f.id, mid: f.videoMid });
  }
  return out;
}

const key = (s: StreamRef) => `${s.feed}/${s.mid}`;

/** the subscribe and unsubscribe requests that turn `current` into `wanted` */
export function diffStreams(
  current: readonly StreamRef[],
  wanted: readonly StreamRef[],
): { subscribe: StreamRef[]; unsubscribe: StreamRef[] } {
  const have = new Set(current.map(key));
  const want = new Set(wanted.map(key));
  return {
    subscribe: wanted.filter((s) => !have.has(key(s))),
    unsubscribe: current.filter((s) => !want.has(key(s))),
  };
}
