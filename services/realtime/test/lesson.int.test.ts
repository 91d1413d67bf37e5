/**
 * The lesson timer (SPEC LS2, LS9) through a real node with auth and boards: a timer that runs
 * out gives everyone the end signal (00:00), then goes away for everyone, also for someone who
 * joins (reloads) after it; stop hides it in any state, including after Reset (issue 26 #7).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort, givePlan, signUp, startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import { LESSON_IDLE_TIMER, LESSON_TIMER_ENDED_SHOW_MS } from '@wb/proto';
import type { LessonTimerState } from '@wb/proto';
import { LessonTestClient } from '../src/testing/lessonClient';
import { connectClient } from '../src/testing/wsClient';
import type { WsConnection } from '../src/testing/wsClient';

const SECRET = 'integration-test-shared-secret-0123456789';
const NODE = 'services/realtime';

let stack: RunningStack;
let snapshots: string;
let nodeUrl: string;
let ownerId: number;
let boardId: string;

beforeAll(async () => {
  snapshots = await mkdtemp(join(tmpdir(), 'wb-rt-lesson-'));
  const port = await freePort();
  stack = await startStack({
    deployables: ['services/auth', 'services/boards', NODE, 'gateway'],
    env: { RT_SHARED_SECRET: SECRET },
    envFor: { [NODE]: { RT_NODE_ID: 'rt-lesson', RT_PORT: String(port), SNAPSHOT_DIR: snapshots } },
    readyTimeoutMs: 90_000, // a shared, busy machine
  });
  nodeUrl = `ws://127.0.0.1:${port}`;
  const { browser, id } = await signUp(stack.gatewayUrl, 'Tina Teacher');
  ownerId = id;
  await givePlan(stack, id, 'standard');
  const created = await browser.post('/api/boards', {});
  boardId = created.body.id as string;
  expect((await browser.put(`/api/boards/${boardId}`, { defaultPermission: 'view' })).status).toBe(200);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await rm(snapshots, { recursive: true, force: true });
});

const open: WsConnection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

async function enter(client: LessonTestClient): Promise<WsConnection> {
  const conn = await connectClient(nodeUrl, boardId, client, { secret: SECRET });
  open.push(conn);
  await eventually(() => client.inSync && client.lesson !== undefined, 10_000, 25, 'in sync with a lesson state');
  return conn;
}
const timerOf = (c: LessonTestClient): LessonTimerState | undefined => c.lesson?.timer;
const hidden = (c: LessonTestClient): boolean => {
  const t = timerOf(c);
  return t !== undefined && t.state === 'idle' && t.durationMs === 0;
};

describe('lesson timer through a node (SPEC LS2, LS9)', () => {
  it('an ended timer signals its end, then goes away for everyone, also after a reload', async () => {
    const teacher = new LessonTestClient(ownerId);
    const student = new LessonTestClient(9001);
    await enter(teacher);
    await enter(student);
    await eventually(() => teacher.lesson?.paid === true, 10_000, 25, 'the plan is known');
    teacher.timer({ action: 'start', durationMs: 1000 });
    await eventually(() => timerOf(student)?.state === 'running', 10_000, 25, 'running');
    // the end signal: 00:00 with its length, for everyone
    await eventually(
      () =>
        timerOf(student)?.state === 'idle' && timerOf(student)?.remainingMs === 0 && timerOf(student)!.durationMs > 0,
      10_000,
      25,
      'the end signal',
    );
    const endedAt = Date.now();
    // then gone (no length: nothing to show), for everyone
    await eventually(() => hidden(student) && hidden(teacher), 15_000, 25, 'the ended timer went away');
    expect(Date.now() - endedAt).toBeGreaterThanOrEqual(LESSON_TIMER_ENDED_SHOW_MS - 500);
    expect(timerOf(student)).toEqual(LESSON_IDLE_TIMER);
    // a reload (a new socket) gets no timer either
    const reloaded = new LessonTestClient(9001);
    await enter(reloaded);
    expect(timerOf(reloaded)).toEqual(LESSON_IDLE_TIMER);
  }, 40_000);

  it('stop hides the timer in any state, also the full length Reset leaves', async () => {
    const teacher = new LessonTestClient(ownerId);
    const student = new LessonTestClient(9002);
    await enter(teacher);
    await enter(student);
    await eventually(() => teacher.lesson?.paid === true, 10_000, 25, 'the plan is known');
    teacher.timer({ action: 'start', durationMs: 5 * 60_000 });
    await eventually(() => timerOf(student)?.state === 'running', 10_000, 25, 'running');
    teacher.timer({ action: 'reset' });
    await eventually(
      () => timerOf(student)?.state === 'idle' && timerOf(student)?.remainingMs === 300_000,
      10_000,
      25,
      'reset',
    );
    teacher.timer({ action: 'stop' });
    await eventually(() => hidden(student), 10_000, 25, 'stopped');
    // a running timer too, and a viewer may not stop it
    teacher.timer({ action: 'start', durationMs: 60_000 });
    await eventually(() => timerOf(student)?.state === 'running', 10_000, 25, 'running again');
    student.timer({ action: 'stop' });
    await eventually(() => student.errors.some((e) => e.code === 'lesson_forbidden'), 10_000, 25, 'refused');
    expect(timerOf(teacher)?.state).toBe('running');
    teacher.timer({ action: 'stop' });
    await eventually(() => hidden(student) && hidden(teacher), 10_000, 25, 'stopped while running');
    const reloaded = new LessonTestClient(9002);
    await enter(reloaded);
    expect(timerOf(reloaded)).toEqual(LESSON_IDLE_TIMER);
  }, 40_000);
});
