/**
 * SPEC LS1–LS11 on a room with TestClients over fake sockets (frames delivered synchronously), an
 * injected clock and a fake plan source: timer transitions and permissions, a late joiner's
 * remaining time, plan gating, presentation read-only for followers and its end when the
 * presenter leaves, the presenter's viewport forwarded at once, and the failover copy.
 */
import {
  EPHEMERAL_KIND,
  encodeViewport,
  decodeEphemeralBatch,
  lessonRemainingMs,
  LESSON_PRESENTER_RESUME_MS,
  MSG,
  PLANS,
  splitFrame,
} from '@wb/proto';
import type { LessonTimerState, Plan } from '@wb/proto';
import type { PlanSource } from '@wb/platform';
import { Room } from './room';
import type { PeerIdentity } from './room';
import { FakeClock, FakeSocket, freshBoardHandle, MemoryJournal, silentLogger } from '../testing/fakes';
import { penStroke, addShape } from '../testing/client';
import { LessonTestClient } from '../testing/lessonClient';
import type { LessonStore, SavedPresenter } from '../repositories/lesson';

const who = (userId: number, access: PeerIdentity['access'] = 'edit'): PeerIdentity => ({
  userId,
  name: `u${userId}`,
  guest: false,
  access,
  readOnlyReason: null,
});
const OWNER = 1;

class FakePlans implements PlanSource {
  plan: Plan = PLANS.standard;
  calls = 0;
  fail = false;
  async planOf(): Promise<Plan> {
    this.calls++;
    if (this.fail) throw new Error('auth down');
    return this.plan;
  }
}
class MemoryLessonStore implements LessonStore {
  rows = new Map<string, LessonTimerState>();
  presenters = new Map<string, SavedPresenter>();
  async load(boardId: string) {
    return this.rows.get(boardId) ?? null;
  }
  async save(boardId: string, t: LessonTimerState) {
    this.rows.set(boardId, t);
  }
  async loadPresenter(boardId: string) {
    return this.presenters.get(boardId) ?? null;
  }
  async savePresenter(boardId: string, p: SavedPresenter | null) {
    if (p) this.presenters.set(boardId, p);
    else this.presenters.delete(boardId);
  }
}

const flush = () => new Promise((r) => setImmediate(r));

function setup(opts: { plans?: FakePlans; store?: LessonStore; clock?: FakeClock } = {}) {
  const clock = opts.clock ?? new FakeClock();
  const plans = opts.plans ?? new FakePlans();
  const room = new Room({
    boardId: 'b1',
    ownerId: OWNER,
    deleteOwnOnly: false,
    handle: freshBoardHandle(),
    journal: new MemoryJournal(),
    clock,
    log: silentLogger(),
    plans,
    lessonStore: opts.store,
  });
  const connect = (client: LessonTestClient, identity: PeerIdentity, observe?: (f: Uint8Array) => void) => {
    const socket = new FakeSocket();
    socket.onSend = (f) => {
      observe?.(f);
      client.receive(f);
    };
    const ref: { peer?: ReturnType<Room['join']> } = {};
    const queue: Uint8Array[] = [];
    client.attach((f) => {
      if (!ref.peer) queue.push(f);
      else room.receive(ref.peer, f);
    });
    ref.peer = room.join(socket, identity, { fresh: true });
    for (const f of queue.splice(0)) if (splitFrame(f).type !== MSG.HELLO) room.receive(ref.peer, f);
    return ref.peer;
  };
  const settle = async () => {
    for (let i = 0; i < 5; i++) {
      room.tick();
      await room.flushPersist();
      await flush();
    }
  };
  return { room, clock, plans, connect, settle };
}

describe('lesson timer (SPEC LS1–LS4)', () => {
  it('LS1: a joiner gets the state right after WELCOME', async () => {
    const { connect } = setup();
    const types: number[] = [];
    connect(new LessonTestClient(2), who(2), (f) => types.push(splitFrame(f).type));
    expect(types.slice(0, 2)).toEqual([MSG.WELCOME, MSG.LESSON_STATE]);
  });

  it('LS2: set → start → pause → addMinute → start → reset, everyone sees each state', async () => {
    const { connect, clock, settle } = setup();
    const owner = new LessonTestClient(OWNER);
    const other = new LessonTestClient(2);
    connect(owner, who(OWNER, 'own'));
    connect(other, who(2));
    await settle();
    owner.timer({ action: 'set', durationMs: 5 * 60_000 });
    await settle();
    expect(other.lesson!.timer).toEqual({ state: 'idle', remainingMs: 300_000, durationMs: 300_000 });
    owner.timer({ action: 'start' });
    await settle();
    expect(other.lesson!.timer).toMatchObject({ state: 'running', endsAt: clock.t + 300_000 });
    clock.t += 100_000;
    other.timer({ action: 'pause' }); // an editor controls it too
    await settle();
    expect(owner.lesson!.timer).toEqual({ state: 'paused', remainingMs: 200_000, durationMs: 300_000 });
    owner.timer({ action: 'addMinute' });
    await settle();
    expect(owner.lesson!.timer.remainingMs).toBe(260_000);
    owner.timer({ action: 'start' });
    await settle();
    expect(owner.lesson!.timer).toMatchObject({ state: 'running', endsAt: clock.t + 260_000 });
    owner.timer({ action: 'reset' });
    await settle();
    expect(other.lesson!.timer).toEqual({ state: 'idle', remainingMs: 300_000, durationMs: 300_000 });
  });

  it('LS2: a running timer that reaches zero turns idle with nothing left', async () => {
    const { connect, clock, settle } = setup();
    const owner = new LessonTestClient(OWNER);
    connect(owner, who(OWNER, 'own'));
    owner.timer({ action: 'start', durationMs: 60_000 });
    await settle();
    clock.t += 60_000;
    await settle();
    expect(owner.lesson!.timer).toEqual({ state: 'idle', remainingMs: 0, durationMs: 60_000 });
  });

  it('LS1: a late joiner computes the right remaining time, whatever its own clock says', async () => {
    const { connect, clock, settle } = setup();
    const owner = new LessonTestClient(OWNER);
    connect(owner, who(OWNER, 'own'));
    owner.timer({ action: 'start', durationMs: 10 * 60_000 });
    await settle();
    clock.t += 4 * 60_000;
    const late = new LessonTestClient(3);
    connect(late, who(3, 'view'));
    const s = late.lesson!;
    // the late joiner's clock is 7 minutes ahead of the node's; 2 s pass locally after arrival
    const receivedAt = clock.t + 7 * 60_000;
    expect(lessonRemainingMs(s.timer, s.serverNow, receivedAt, receivedAt + 2000)).toBe(6 * 60_000 - 2000);
  });

  it('LS4: a viewer may not control the timer; bad requests are errors, not closed sockets', async () => {
    const { connect, settle, room } = setup();
    const viewer = new LessonTestClient(3);
    const editor = new LessonTestClient(2);
    connect(viewer, who(3, 'view'));
    connect(editor, who(2));
    viewer.timer({ action: 'start', durationMs: 60_000 });
    editor.timer({ action: 'set' });
    editor.timer({ action: 'pause' });
    editor.sendRaw(Uint8Array.of(MSG.LESSON_TIMER, 0x7b));
    await settle();
    expect(viewer.errors.map((e) => e.code)).toEqual(['lesson_forbidden']);
    expect(editor.errors.map((e) => e.code)).toEqual(['lesson_invalid', 'lesson_invalid', 'lesson_invalid']);
    expect(room.size).toBe(2);
  });

  it("LS3: without the owner's plan feature the timer and presentation are refused, naming it", async () => {
    const plans = new FakePlans();
    plans.plan = PLANS.starter;
    const { connect, settle } = setup({ plans });
    const owner = new LessonTestClient(OWNER);
    connect(owner, who(OWNER, 'own'));
    await settle();
    expect(owner.lesson!.paid).toBe(false);
    owner.timer({ action: 'start', durationMs: 60_000 });
    owner.present('start');
    await settle();
    expect(owner.errors.map((e) => e.code)).toEqual(['lesson_upgrade', 'lesson_upgrade']);
    expect(owner.errors[0]!.message).toContain('collaborationControls');
    expect(owner.lesson!.timer.state).toBe('idle');
    plans.fail = true;
    owner.timer({ action: 'start', durationMs: 60_000 });
    await settle();
    expect(owner.errors[2]!.code).toBe('lesson_unavailable');
  });

  it('LS9: the timer is restored from the store by the next room (failover)', async () => {
    const store = new MemoryLessonStore();
    const clock = new FakeClock();
    const first = setup({ store, clock });
    const owner = new LessonTestClient(OWNER);
    first.connect(owner, who(OWNER, 'own'));
    owner.timer({ action: 'start', durationMs: 120_000 });
    await first.settle();
    const endsAt = owner.lesson!.timer.endsAt;
    clock.t += 30_000;
    const second = setup({ store, clock });
    await flush();
    const again = new LessonTestClient(OWNER);
    second.connect(again, who(OWNER, 'own'));
    expect(again.lesson!.timer).toMatchObject({ state: 'running', endsAt });
  });
});

describe('presentation (SPEC LS5–LS7)', () => {
  it('followers are read-only while presenting; the presenter leaving ends it', async () => {
    const { connect, settle, room } = setup();
    const presenter = new LessonTestClient(2);
    const follower = new LessonTestClient(3);
    const owner = new LessonTestClient(OWNER);
    const pPeer = connect(presenter, who(2));
    connect(follower, who(3));
    connect(owner, who(OWNER, 'own'));
    await settle();
    presenter.present('start');
    await settle();
    expect(follower.lesson!.presenter).toMatchObject({ userId: 2, name: 'u2' });
    follower.edit((d) => addShape(d, 's1', penStroke('s1', 3, [0, 0, 1, 1])));
    await settle();
    expect(follower.errors.map((e) => e.code)).toEqual(['read_only']);
    // the follower cannot end it; another editor cannot start a second one
    follower.present('stop');
    await settle();
    expect(follower.errors[1]!.code).toBe('lesson_forbidden');
    // the presenter still edits
    presenter.edit((d) => addShape(d, 's2', penStroke('s2', 2, [0, 0, 1, 1])));
    await settle();
    expect(presenter.errors).toEqual([]);
    room.leave(pPeer);
    await settle();
    expect(follower.lesson!.presenter).toBeNull();
    follower.errors.length = 0;
    follower.edit((d) => addShape(d, 's3', penStroke('s3', 3, [0, 0, 1, 1])));
    await settle();
    expect(follower.errors).toEqual([]);
  });

  it('a viewer cannot present; the owner can end anyone’s presentation; a late joiner is read-only', async () => {
    const { connect, settle, room } = setup();
    const viewer = new LessonTestClient(4);
    const presenter = new LessonTestClient(2);
    const owner = new LessonTestClient(OWNER);
    connect(viewer, who(4, 'view'));
    connect(presenter, who(2));
    connect(owner, who(OWNER, 'own'));
    viewer.present('start');
    presenter.present('start');
    await settle();
    expect(viewer.errors[0]!.code).toBe('lesson_forbidden');
    const late = new LessonTestClient(5);
    const latePeer = connect(late, who(5));
    expect(latePeer.canEdit).toBe(false);
    expect(late.lesson!.presenter?.userId).toBe(2);
    owner.present('stop');
    await settle();
    expect(owner.lesson!.presenter).toBeNull();
    expect(latePeer.canEdit).toBe(true);
    expect(room.size).toBe(4);
  });

  it("LS7: the presenter's viewport reaches followers at once (before any tick) and is in the state", async () => {
    const { connect, settle } = setup();
    const presenter = new LessonTestClient(2);
    const follower = new LessonTestClient(3);
    connect(presenter, who(2));
    const frames: Uint8Array[] = [];
    connect(follower, who(3), (f) => frames.push(f));
    presenter.present('start');
    await settle();
    frames.length = 0;
    presenter.sendEphemeral(EPHEMERAL_KIND.VIEWPORT, encodeViewport({ x: 10, y: 20, width: 300, height: 200 }));
    // no tick ran: the frame is there already
    const batch = frames.find((f) => splitFrame(f).type === MSG.EPHEMERAL_BATCH)!;
    expect(decodeEphemeralBatch(splitFrame(batch).payload)[0]).toMatchObject({ kind: EPHEMERAL_KIND.VIEWPORT });
    const late = new LessonTestClient(5);
    connect(late, who(5));
    expect(late.lesson!.presenter!.viewport).toEqual({ x: 10, y: 20, width: 300, height: 200 });
  });

  it('LS8: the owner brings everyone to their viewport; others may not', async () => {
    const { connect, settle } = setup();
    const owner = new LessonTestClient(OWNER);
    const other = new LessonTestClient(2);
    connect(owner, who(OWNER, 'own'));
    connect(other, who(2));
    owner.gather();
    other.gather({ x: 0, y: 0, width: 1, height: 1 });
    await settle();
    expect(owner.errors[0]!.code).toBe('lesson_invalid');
    expect(other.errors[0]!.code).toBe('lesson_forbidden');
    owner.sendEphemeral(EPHEMERAL_KIND.VIEWPORT, encodeViewport({ x: 1, y: 2, width: 3, height: 4 }));
    owner.gather();
    await settle();
    expect(other.gathers).toEqual([{ x: 1, y: 2, width: 3, height: 4, by: 'u1' }]);
  });
});

describe('presentation across a failover (SPEC LS12)', () => {
  /** Ada (2) presents to Bob (3) on the first node; returns the store and clock the next node shares */
  async function presentingOnFirstNode() {
    const store = new MemoryLessonStore();
    const clock = new FakeClock();
    const first = setup({ store, clock });
    const ada = new LessonTestClient(2);
    first.connect(ada, who(2));
    first.connect(new LessonTestClient(3), who(3));
    ada.present('start');
    await first.settle();
    expect(store.presenters.get('b1')).toMatchObject({ userId: 2, name: 'u2' });
    return { store, clock, first };
  }

  it('the presenter who reconnects to the next node in time presents again; followers are read-only again', async () => {
    const { store, clock, first } = await presentingOnFirstNode();
    first.room.close(4001, 'room moved'); // a hand-over: everyone leaves at once, the presentation stays saved
    await first.settle();
    expect(store.presenters.has('b1')).toBe(true);
    clock.t += 5_000;
    const second = setup({ store, clock });
    const bob = new LessonTestClient(3);
    const bobPeer = second.connect(bob, who(3)); // a follower is back first
    await second.settle();
    expect(bob.lesson!.presenter).toBeNull();
    const ada = new LessonTestClient(2);
    second.connect(ada, who(2));
    await second.settle();
    expect(bob.lesson!.presenter).toMatchObject({ userId: 2 });
    expect(bobPeer.canEdit).toBe(false);
    expect(ada.lesson!.presenter!.peerId).toBeDefined();
  });

  it('is forgotten when the presenter is not back within the resume window, or comes back as a viewer', async () => {
    const { store, clock } = await presentingOnFirstNode(); // the first node crashes: nothing closes
    const second = setup({ store, clock });
    const viewerAda = new LessonTestClient(2);
    second.connect(viewerAda, who(2, 'view')); // her access was narrowed meanwhile
    await second.settle();
    expect(viewerAda.lesson!.presenter).toBeNull();
    clock.t += LESSON_PRESENTER_RESUME_MS + 1;
    await second.settle();
    expect(store.presenters.has('b1')).toBe(false);
    const ada = new LessonTestClient(2);
    second.connect(ada, who(2));
    await second.settle();
    expect(ada.lesson!.presenter).toBeNull();
  });

  it('a presentation that ended is not resumed; a guest presenter is never saved', async () => {
    const { store, clock, first } = await presentingOnFirstNode();
    const owner = new LessonTestClient(OWNER);
    first.connect(owner, who(OWNER, 'own'));
    owner.present('stop');
    await first.settle();
    expect(store.presenters.has('b1')).toBe(false);
    const guest = new LessonTestClient(9);
    first.connect(guest, { ...who(9), guest: true, name: 'Guest' });
    guest.present('start');
    await first.settle();
    expect(owner.lesson!.presenter).toMatchObject({ name: 'Guest' });
    expect(store.presenters.has('b1')).toBe(false);
    const second = setup({ store, clock });
    const ada = new LessonTestClient(2);
    second.connect(ada, who(2));
    await second.settle();
    expect(ada.lesson!.presenter).toBeNull();
  });

  it("a downgrade of the owner's plan ends the presentation at once (no request needed)", async () => {
    const { connect, settle, plans, room } = setup();
    const ada = new LessonTestClient(2);
    const bob = new LessonTestClient(3);
    connect(ada, who(2));
    const bobPeer = connect(bob, who(3));
    ada.present('start');
    await settle();
    expect(bobPeer.canEdit).toBe(false);
    plans.plan = PLANS.starter;
    await room.lesson.planChanged();
    await settle();
    expect(bob.lesson!.presenter).toBeNull();
    expect(bob.lesson!.paid).toBe(false);
    expect(bobPeer.canEdit).toBe(true);
  });
});
