/**
 * SPEC A4/B1: the per-node room events consumer turns the boards service's settings and rename
 * events into BOARD_INFO for every peer of the local room (the JetStream side is the platform's,
 * tested there; the end-to-end path from boards runs in test/failover.int.test.ts's stack).
 */
import type { PoolClient } from '@wb/platform';
import type { EventEnvelope } from '@wb/proto';
import { Room } from '../room/room';
import type { PeerIdentity } from '../room/room';
import { FakeClock, FakeSocket, freshBoardHandle, MemoryJournal, silentLogger } from '../testing/fakes';
import { TestClient } from '../testing/client';
import { RoomEventsProcessor } from './roomEvents';

const identity = (userId: number, access: PeerIdentity['access']): PeerIdentity => ({
  userId,
  name: `u${userId}`,
  guest: false,
  access,
  readOnlyReason: null,
});
const event = (type: string, data: unknown): EventEnvelope => ({
  id: `e-${type}`,
  type,
  occurredAt: new Date(0).toISOString(),
  data,
});

function setup() {
  const room = new Room({
    boardId: 'b1',
    ownerId: 1,
    deleteOwnOnly: false,
    title: 'Fractions',
    background: 'empty',
    handle: freshBoardHandle(),
    journal: new MemoryJournal(),
    clock: new FakeClock(),
    log: silentLogger(),
  });
  const clients = [new TestClient(1), new TestClient(2)];
  for (const [i, c] of clients.entries()) {
    const socket = new FakeSocket();
    socket.onSend = (f) => c.receive(f);
    room.join(socket, identity(c.userId, i === 0 ? 'own' : 'view'));
  }
  const check = jest.fn();
  const processor = new RoomEventsProcessor(
    'rt-1',
    { room: (id) => (id === 'b1' ? room : undefined), roomsOwnedBy: () => [], dropPurged: () => undefined },
    check,
    silentLogger(),
  );
  const handle = (e: EventEnvelope) => processor.handle(e, undefined as unknown as PoolClient);
  return { room, clients, check, handle };
}

describe('RoomEventsProcessor (A4, B1)', () => {
  it('subscribes to renames besides the settings, permission, trash and purge events', () => {
    const processor = new RoomEventsProcessor(
      'rt 1',
      { room: () => undefined, roomsOwnedBy: () => [], dropPurged: () => undefined },
      jest.fn(),
      silentLogger(),
    );
    expect(processor.eventTypes).toEqual(
      expect.arrayContaining(['boards.board.settings_changed.v1', 'boards.board.renamed.v1']),
    );
    expect(processor.name).toBe('realtime-rooms-rt_1');
  });

  it('B1: settings and renames reach every peer of the room at once, without re-checking access', async () => {
    const { room, clients, check, handle } = setup();
    await handle(
      event('boards.board.settings_changed.v1', {
        boardId: 'b1',
        ownerId: 1,
        background: 'blackboard',
        deleteOwnOnly: true,
      }),
    );
    await handle(
      event('boards.board.renamed.v1', { boardId: 'b1', ownerId: 1, title: 'Fractions 2', previousTitle: 'Fractions' }),
    );
    // events of other boards are not this room's
    await handle(event('boards.board.renamed.v1', { boardId: 'b2', ownerId: 1, title: 'Other', previousTitle: 'x' }));
    for (const c of clients) {
      expect(c.boardInfos).toEqual([
        { title: 'Fractions', background: 'blackboard', deleteOwnOnly: true },
        { title: 'Fractions 2', background: 'blackboard', deleteOwnOnly: true },
      ]);
    }
    expect(room.deleteOwnOnly).toBe(true);
    expect(check).not.toHaveBeenCalled();
  });
});
