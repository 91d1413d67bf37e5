/**
 * The VideoRoom of each board: created on demand with a server-only secret and an allowed-token
 * list, tokens added at every join (expired ones pruned), emptied rooms destroyed by the sweep,
 * and the host's mute-all. No state of its own beyond "empty since" per room: Janus is the record.
 *
 * Idempotence across replicas: the room id and its secret are derived from the board id (tokens.ts),
 * so any replica creates, edits or destroys any room; "create" answering 427 (exists) means someone
 * else created it first and the token is added instead.
 */
import { CALL_MAX_PUBLISHERS } from '@wb/proto';
import type { Logger } from '@wb/platform';
import { VIDEOROOM_ROOM_EXISTS, VideoRoomError } from '../janus/errors';
import type { JanusApi, VideoRoomData } from '../janus/link';
import { janusTokenExpiry, roomIdOf, roomSecretOf, signJanusToken } from '../janus/tokens';
import type { CallsMetrics } from '../metrics';

/** marks the rooms this service made (the sweep leaves any other room alone) */
export const ROOM_DESCRIPTION_PREFIX = 'wb:';
/** how long the moderator's own token (mute-all) lives */
const MODERATOR_TOKEN_MS = 60_000;

export interface RoomsConfig {
  /** derives room secrets (the Janus API secret: both are server-only) */
  roomKey: string;
  tokenSecret: string;
  /** VideoRoom admin_key */
  adminKey: string;
  bitrate: number;
  idleMs: number;
}

interface ListedRoom {
  room: number;
  description?: string;
  num_participants?: number;
}

export class Rooms {
  /** rooms seen empty by the sweep, and since when */
  private readonly emptySince = new Map<number, number>();
  /** when this replica last admitted someone to a room: an admitted person may not have joined yet */
  private readonly lastAdmit = new Map<number, number>();

  constructor(
    private readonly deps: {
      janus: JanusApi;
      config: RoomsConfig;
      metrics: CallsMetrics;
      log: Logger;
      now: () => number;
    },
  ) {}

  secretOf(room: number): string {
    return roomSecretOf(this.deps.config.roomKey, room);
  }

  /** make sure the board's room exists and admits `token`; returns the room id */
  async admit(boardId: string, token: string): Promise<number> {
    const { janus, config } = this.deps;
    const room = roomIdOf(boardId);
    const secret = this.secretOf(room);
    this.lastAdmit.set(room, this.deps.now());
    try {
      await janus.request({
        request: 'create',
        room,
        description: `${ROOM_DESCRIPTION_PREFIX}${boardId}`.slice(0, 120),
        is_private: true,
        secret,
        admin_key: config.adminKey,
        publishers: CALL_MAX_PUBLISHERS,
        audiocodec: 'opus',
        videocodec: 'vp8',
        bitrate: config.bitrate,
        bitrate_cap: true,
        fir_freq: 10,
        audiolevel_event: true,
        audio_active_packets: 50,
        audio_level_average: 40,
        notify_joining: false,
        // browsers cannot start recordings (files on the Janus host) without the room secret
        lock_record: true,
        allowed: [token],
      });
      this.deps.log.info({ room, boardId }, 'call room created');
      return room;
    } catch (err) {
      if (!(err instanceof VideoRoomError && err.code === VIDEOROOM_ROOM_EXISTS)) throw err;
    }
    const reply = await janus.request({ request: 'allowed', room, secret, action: 'add', allowed: [token] });
    await this.pruneExpired(room, secret, reply);
    return room;
  }

  /** drop tokens past their expiry from the room's list (a long lesson refreshes every few minutes) */
  private async pruneExpired(room: number, secret: string, reply: VideoRoomData): Promise<void> {
    const list = Array.isArray(reply.allowed) ? (reply.allowed as unknown[]) : [];
    const now = this.deps.now();
    const expired = list.filter((t): t is string => {
      if (typeof t !== 'string') return false;
      const expiry = janusTokenExpiry(t);
      return expiry !== null && expiry <= now;
    });
    if (expired.length === 0) return;
    await this.deps.janus.request({ request: 'allowed', room, secret, action: 'remove', allowed: expired });
  }

  /**
   * Mute (or allow again) the audio of every publisher in the board's room except `keep` (the
   * host's own feeds). VideoRoom `moderate` needs each stream's mid, which only participants see:
   * the service joins its own room for a moment with a token of its own, reads the publishers and
   * their streams from the `joined` event, moderates each audio stream and leaves.
   */
  async muteAll(boardId: string, keep: readonly number[], mute: boolean): Promise<number> {
    const { janus, config } = this.deps;
    const room = roomIdOf(boardId);
    const secret = this.secretOf(room);
    const token = signJanusToken(config.tokenSecret, this.deps.now() + MODERATOR_TOKEN_MS, { room });
    // no room (nobody ever joined, or swept) → nobody to mute
    try {
      await janus.request({ request: 'allowed', room, secret, action: 'add', allowed: [token] });
    } catch (err) {
      if (err instanceof VideoRoomError && err.code === 426) return 0;
      throw err;
    }
    let muted: number;
    try {
      muted = await janus.withHandle(async (send) => {
        const joined = await send({ request: 'join', ptype: 'publisher', room, token, display: 'moderator' });
        let count = 0;
        try {
          const publishers = Array.isArray(joined.publishers) ? (joined.publishers as Publisher[]) : [];
          for (const p of publishers) {
            if (keep.includes(p.id)) continue;
            const audio = (p.streams ?? []).filter((s) => s.type === 'audio' && !s.disabled && s.mid !== undefined);
            for (const s of audio) {
              await janus.request({ request: 'moderate', room, secret, id: p.id, mid: s.mid, mute });
            }
            if (audio.length > 0) count++;
          }
        } finally {
          await send({ request: 'leave' }).catch(() => undefined);
        }
        return count;
      });
    } finally {
      await janus
        .request({ request: 'allowed', room, secret, action: 'remove', allowed: [token] })
        .catch(() => undefined);
    }
    this.deps.log.info({ room, boardId, muted, mute }, 'call mute-all');
    return muted;
  }

  /**
   * Destroy the rooms of ours that have had nobody in them for `idleMs` (counted from the later of
   * "first seen empty" and this replica's last admission), and report rooms and participants.
   */
  async sweep(): Promise<void> {
    const { janus, config, metrics, now } = this.deps;
    const reply = await janus.request({ request: 'list', admin_key: config.adminKey });
    const rooms = (Array.isArray(reply.list) ? (reply.list as ListedRoom[]) : []).filter((r) =>
      r.description?.startsWith(ROOM_DESCRIPTION_PREFIX),
    );
    const t = now();
    let participants = 0;
    const present = new Set<number>();
    for (const r of rooms) {
      present.add(r.room);
      const n = r.num_participants ?? 0;
      participants += n;
      if (n > 0) {
        this.emptySince.delete(r.room);
        continue;
      }
      const since = Math.max(this.emptySince.get(r.room) ?? t, this.lastAdmit.get(r.room) ?? 0);
      this.emptySince.set(r.room, since);
      if (t - since < config.idleMs) continue;
      try {
        await janus.request({ request: 'destroy', room: r.room, secret: this.secretOf(r.room) });
        present.delete(r.room);
        metrics.roomsDestroyed.inc();
        this.deps.log.info({ room: r.room, emptyForMs: t - since }, 'empty call room destroyed');
      } catch (err) {
        this.deps.log.warn({ err, room: r.room }, 'could not destroy an empty call room');
      }
    }
    for (const room of [...this.emptySince.keys()]) if (!present.has(room)) this.emptySince.delete(room);
    for (const [room, at] of [...this.lastAdmit])
      if (!present.has(room) && t - at > config.idleMs) this.lastAdmit.delete(room);
    metrics.rooms.set(present.size);
    metrics.participants.set(participants);
  }
}

interface Publisher {
  id: number;
  display?: string;
  streams?: { type: string; mid?: string; disabled?: boolean }[];
}
