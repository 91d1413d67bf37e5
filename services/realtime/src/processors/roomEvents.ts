/**
 * Board changes that must reach connected clients within a second (SPEC A4): each node has its
 * own durable consumer (`realtime-rooms-<node id>`) because the room lives on one node only.
 * Permission changes and trash re-check every peer of the local room with the boards service:
 * no access → 4403 (4410 when trashed), another role → 4412 (the client rejoins with its new
 * role). Settings (background, deleteOwnOnly) and renames update the room's board info, which
 * every peer gets at once (BOARD_INFO, SPEC B1); a purge closes the room (4410). An owner's
 * plan change (auth.user.plan_changed.v1) re-checks every peer of that owner's local rooms with a
 * fresh plan: guests lose or gain access, editors become viewers when the board turns read-only
 * by plan limits, and back (SPEC A8).
 */
import { EventProcessor } from '@wb/platform';
import type { Logger, PoolClient } from '@wb/platform';
import { EVENT_SCHEMAS, RT_CLOSE } from '@wb/proto';
import type { AccessCheckReply, EventEnvelope, EventType, RequestActor } from '@wb/proto';
import type { Peer, Room } from '../room/room';

export interface LocalRooms {
  room(boardId: string): Room | undefined;
  /** the open rooms of boards owned by `userId` */
  roomsOwnedBy(userId: number): Room[];
  dropPurged(boardId: string): void;
}

function roleOf(reply: AccessCheckReply): Peer['role'] | null {
  if (reply.access === 'none') return null;
  if (reply.access === 'own') return 'owner';
  return reply.access === 'edit' && reply.readOnlyReason === null ? 'editor' : 'viewer';
}

export class RoomEventsProcessor extends EventProcessor {
  readonly name: string;
  readonly eventTypes: readonly EventType[] = [
    'boards.board.permissions_changed.v1',
    'boards.board.trashed.v1',
    'boards.board.settings_changed.v1',
    'boards.board.renamed.v1',
    'boards.board.purged.v1',
    'auth.user.plan_changed.v1',
  ];
  override readonly maxDeliveries = 3;
  constructor(
    nodeId: string,
    private readonly rooms: LocalRooms,
    private readonly check: (
      boardId: string,
      actor: RequestActor,
      opts?: { freshPlan?: boolean },
    ) => Promise<AccessCheckReply>,
    private readonly log: Logger,
  ) {
    super();
    this.name = `realtime-rooms-${nodeId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  }

  async handle(event: EventEnvelope, _client: PoolClient): Promise<void> {
    if (event.type === 'auth.user.plan_changed.v1') {
      const { userId } = EVENT_SCHEMAS['auth.user.plan_changed.v1'].parse(event.data);
      await Promise.all(
        // the lesson reads the plan again too: a presentation the plan no longer pays for ends (LS3)
        this.rooms
          .roomsOwnedBy(userId)
          .flatMap((room) => [this.recheck(room, { freshPlan: true }), room.lesson.planChanged()]),
      );
      return;
    }
    const boardId = (event.data as { boardId?: unknown }).boardId;
    if (typeof boardId !== 'string') return;
    if (event.type === 'boards.board.purged.v1') return this.rooms.dropPurged(boardId);
    const room = this.rooms.room(boardId);
    if (!room) return;
    if (event.type === 'boards.board.settings_changed.v1') {
      const { background, deleteOwnOnly } = EVENT_SCHEMAS['boards.board.settings_changed.v1'].parse(event.data);
      return room.updateBoardInfo({ background, deleteOwnOnly });
    }
    if (event.type === 'boards.board.renamed.v1') {
      return room.updateBoardInfo({ title: EVENT_SCHEMAS['boards.board.renamed.v1'].parse(event.data).title });
    }
    await this.recheck(room, { trashed: event.type === 'boards.board.trashed.v1' });
  }

  /** asks boards again for every peer: no access → closed, another role or read-only reason → rejoin (4412) */
  private async recheck(room: Room, opts: { trashed?: boolean; freshPlan?: boolean }): Promise<void> {
    const { boardId } = room;
    const trashed = opts.trashed ?? false;
    await Promise.all(
      room.peerList().map(async (peer) => {
        let reply: AccessCheckReply;
        try {
          reply = await this.check(boardId, { userId: peer.identity.userId }, { freshPlan: opts.freshPlan });
        } catch (err) {
          this.log.warn({ err, boardId }, 'access re-check failed: closing the peer so it rejoins');
          return room.closePeer(peer, RT_CLOSE.ROOM_MOVED, 'access changed');
        }
        const role = roleOf(reply);
        if (role === null) {
          return room.closePeer(
            peer,
            trashed ? RT_CLOSE.BOARD_GONE : RT_CLOSE.RESTRICTED,
            trashed ? 'board trashed' : 'restricted',
          );
        }
        // an owner keeps the role 'owner' on a read-only board: the reason changing is a change too
        if (role !== peer.role || reply.readOnlyReason !== peer.identity.readOnlyReason) {
          room.closePeer(peer, RT_CLOSE.ROOM_MOVED, 'role changed');
        }
      }),
    );
  }
}
