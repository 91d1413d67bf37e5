/**
 * The courses service through the real gateway, auth, boards and a realtime node (boards'
 * board.duplicate copies the content through realtime's board.copy), PostgreSQL, NATS, Redis and
 * a real SMTP server. Plans are given the way billing does (givePlan). The files service's
 * doc.get is played by this test on the stack's NATS.
 *
 * Tina (standard) builds a course; Sam (starter) cannot; Ada is invited, joins from the mail link,
 * reads, opens items, gets her own board copy and progress; Eve (a stranger) gets 404s.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { connectBus, createLogger } from '@wb/platform';
import type { Bus } from '@wb/platform';
import { Browser, freePort, givePlan, startSmtpCatcher, startStack, uniqueEmail } from '@wb/platform/testing';
import type { ReceivedMail, RunningStack, SmtpCatcher } from '@wb/platform/testing';
import { serviceSubject } from '@wb/proto';
import type { ContentItem, Course, CourseInvitationsReply, CourseList, ItemOpenReply } from '@wb/proto';

const APP_URL = 'http://app.test';
const FILE_ID = 'a'.repeat(64);
/** the owner's library entry as files' doc.get answers it (the test plays files) */
const FILE_DOC = {
  id: FILE_ID,
  name: 'notes.pdf',
  isImage: 0,
  created: new Date().toISOString(),
  size: 1,
  pages: 1,
  format: 'pdf',
  status: 'ready',
  pagesDone: 1,
  error: null,
  imageId: 'c'.repeat(64),
};

interface Person {
  browser: Browser;
  id: number;
  email: string;
}

let stack: RunningStack;
let catcher: SmtpCatcher;
let db: Pool;
let bus: Bus;
let tina: Person;
let sam: Person;
let ada: Person;
let eve: Person;
let snapshots: string;

async function signUpAs(name: string): Promise<Person> {
  const email = uniqueEmail(name.toLowerCase());
  const browser = new Browser(stack.gatewayUrl);
  const res = await browser.post('/api/auth/signup', { name, email, password: 'long enough pw' });
  if (res.status !== 200) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { browser, id: res.body.user.id as number, email: email.toLowerCase() };
}

/** answer a service subject on the stack's NATS (a service this stack does not run) */
function play(service: 'files', operation: string, answer: (input: unknown) => unknown): void {
  bus.nc.subscribe(serviceSubject(stack.natsPrefix, service, operation), {
    callback: (_err, msg) => msg.respond(JSON.stringify(answer(msg.json()))),
  });
}

function expectError(res: { status: number; body: { code?: string } }, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
}

async function events(type: string): Promise<Array<Record<string, unknown>>> {
  const { rows } = await db.query<{ data: Record<string, unknown> }>(
    'SELECT data FROM courses.outbox WHERE type = $1 ORDER BY id',
    [type],
  );
  return rows.map((r) => r.data);
}

function tokenOf(mail: ReceivedMail): string {
  const link = mail.links.find((l) => l.startsWith(`${APP_URL}/join-course?token=`));
  if (!link) throw new Error(`no join-course link in: ${mail.text}`);
  return new URL(link).searchParams.get('token')!;
}

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  snapshots = await mkdtemp(join(tmpdir(), 'wb-courses-snap-'));
  stack = await startStack({
    deployables: ['services/auth', 'services/boards', 'services/realtime', 'services/courses', 'gateway'],
    env: { SMTP_URL: catcher.url, APP_URL, RT_SHARED_SECRET: 'integration-test-shared-secret-0123456789' },
    envFor: {
      'services/boards': { PLAN_CACHE_TTL_MS: '0' },
      'services/courses': { PLAN_CACHE_TTL_MS: '0' },
      'services/realtime': { RT_PORT: String(await freePort()), SNAPSHOT_DIR: snapshots },
    },
  });
  db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
  bus = await connectBus({
    url: stack.env.NATS_URL!,
    prefix: stack.natsPrefix,
    name: 'test-courses',
    log: createLogger({ service: 'test', level: 'silent' }),
    ensureStream: false,
  });
  play('files', 'doc.get', (req) => (JSON.stringify(req).includes(FILE_ID) ? FILE_DOC : null));
  [tina, sam, ada, eve] = await Promise.all(['Tina', 'Sam', 'Ada', 'Eve'].map(signUpAs));
  await givePlan(stack, tina.id, 'standard');
}, 90_000);

afterAll(async () => {
  await bus?.drain();
  await db?.end();
  await stack?.stop();
  await catcher?.close();
  if (snapshots) await rm(snapshots, { recursive: true, force: true });
});

let course: Course;
let lessonA: number;
let lessonB: number;
let boardId: string;
const items: Record<string, ContentItem> = {};

describe('courses and lessons (owner, plan feature, 404 for others)', () => {
  it('refuses a plan without the courses feature with ERR_FEATURE_NOT_ENABLED', async () => {
    expectError(await sam.browser.post('/api/courses', { name: 'Nope' }), 403, 'ERR_FEATURE_NOT_ENABLED');
  });

  it('validates names at the gateway', async () => {
    expectError(await tina.browser.post('/api/courses', { name: '' }), 400, 'ERR_INVALID_INPUT');
    expectError(await tina.browser.post('/api/courses', { name: 'x'.repeat(201) }), 400, 'ERR_INVALID_INPUT');
    expectError(await tina.browser.post('/api/courses', { name: 'ok', extra: 1 }), 400, 'ERR_INVALID_INPUT');
  });

  it('creates, renames and lists a course, with its events', async () => {
    const res = await tina.browser.post('/api/courses', { name: 'Algebra' });
    expect(res.status).toBe(200);
    course = res.body as Course;
    expect(course).toMatchObject({
      name: 'Algebra',
      user_id: tina.id,
      role: 'owner',
      editable: true,
      owner_name: 'Tina',
    });
    const renamed = await tina.browser.put(`/api/courses/${course.id}`, { name: 'Algebra I' });
    expect(renamed.body.name).toBe('Algebra I');
    const list = (await tina.browser.get('/api/courses')).body as CourseList;
    expect(list.owned.map((c) => c.id)).toEqual([course.id]);
    expect(list.attended).toEqual([]);
    expect(await events('courses.course.created.v1')).toEqual([
      { courseId: course.id, ownerId: tina.id, name: 'Algebra' },
    ]);
    expect(await events('courses.course.renamed.v1')).toEqual([
      { courseId: course.id, ownerId: tina.id, name: 'Algebra I', previousName: 'Algebra' },
    ]);
  });

  it('answers 404 for someone else’s course, on reads and writes', async () => {
    for (const path of ['', '/lessons', '/content', '/participants']) {
      expectError(await eve.browser.get(`/api/courses/${course.id}${path}`), 404, 'ERR_NOT_FOUND');
    }
    expectError(await eve.browser.put(`/api/courses/${course.id}`, { name: 'Mine' }), 404, 'ERR_NOT_FOUND');
    expectError(await eve.browser.get('/api/courses/999999'), 404, 'ERR_NOT_FOUND');
  });

  it('adds, renames, reorders and deletes lessons', async () => {
    lessonA = (await tina.browser.post(`/api/courses/${course.id}/lessons`, { name: 'Week 1' })).body.id;
    lessonB = (await tina.browser.post(`/api/courses/${course.id}/lessons`, { name: 'Week 2' })).body.id;
    const c = (await tina.browser.post(`/api/courses/${course.id}/lessons`, { name: 'Week 3' })).body.id as number;
    expect((await tina.browser.put(`/api/courses/${course.id}/lessons/${lessonA}`, { name: 'Intro' })).body.name).toBe(
      'Intro',
    );
    const reordered = await tina.browser.post(`/api/courses/${course.id}/lessons/reorder`, {
      ids: [lessonB, c, lessonA],
    });
    expect(reordered.body.map((l: { id: number }) => l.id)).toEqual([lessonB, c, lessonA]);
    expectError(
      await tina.browser.post(`/api/courses/${course.id}/lessons/reorder`, { ids: [lessonB] }),
      400,
      'ERR_INVALID_INPUT',
    );
    expect((await tina.browser.delete(`/api/courses/${course.id}/lessons/${c}`)).status).toBe(200);
    const lessons = (await tina.browser.get(`/api/courses/${course.id}/lessons`)).body as Array<{ id: number }>;
    expect(lessons.map((l) => l.id)).toEqual([lessonB, lessonA]);
    expectError(await tina.browser.put(`/api/courses/${course.id}/lessons/${c}`, { name: 'x' }), 404, 'ERR_NOT_FOUND');
  });
});

describe('items of each kind', () => {
  const add = (body: Record<string, unknown>) => tina.browser.post(`/api/courses/${course.id}/content`, body);

  it('checks links and videos with the spec’s messages', async () => {
    const link = await add({ kind: 'link', url: 'not a link', lesson_id: lessonA });
    expectError(link, 400, 'ERR_INVALID_INPUT');
    expect(link.body.fields.url).toBe('Please enter a valid link');
    expectError(await add({ kind: 'link', url: 'javascript:alert(1)' }), 400, 'ERR_INVALID_INPUT');
    const video = await add({ kind: 'video', url: 'https://vimeo.com/123' });
    expect(video.body.fields.url).toBe('Invalid video URL');
    expectError(await add({ kind: 'quiz' }), 400, 'ERR_INVALID_INPUT');
  });

  it('stores each kind: link, video (normalised), notes (sanitised), test, file, board', async () => {
    items.link = (await add({ kind: 'link', url: 'https://example.com/a', title: 'Reading', lesson_id: lessonA })).body;
    expect(items.link).toMatchObject({
      lesson_id: lessonA,
      title: 'Reading',
      payload: { kind: 'link', url: 'https://example.com/a' },
    });
    items.video = (await add({ kind: 'video', url: 'https://youtu.be/dQw4w9WgXcQ?t=1m30s', lesson_id: lessonA })).body;
    expect(items.video.payload).toEqual({
      kind: 'video',
      url: 'https://youtu.be/dQw4w9WgXcQ?t=1m30s',
      videoId: 'dQw4w9WgXcQ',
      start: 90,
    });
    items.notes = (
      await add({ kind: 'notes', html: '<h2>Hi</h2><p onclick="x()">a<script>alert(1)</script></p>' })
    ).body;
    expect(items.notes.payload).toEqual({ kind: 'notes', html: '<h2>Hi</h2><p>a</p>' });
    expect(items.notes.lesson_id).toBeUndefined();
    items.test = (await add({ kind: 'test', assignmentId: 'as-1' })).body;
    expect(items.test.payload).toEqual({ kind: 'test', assignmentId: 'as-1' });
    items.file = (await add({ kind: 'file', fileId: FILE_ID, lesson_id: lessonB })).body;
    expect(items.file.payload).toEqual({ kind: 'file', fileId: FILE_ID });
    expectError(await add({ kind: 'file', fileId: 'b'.repeat(64) }), 404, 'ERR_NOT_FOUND');

    const board = await tina.browser.post('/api/boards', { title: 'Fractions' });
    expect(board.status).toBe(200);
    boardId = board.body.id;
    items.board = (await add({ kind: 'board', boardId, access: 'copy', lesson_id: lessonB })).body;
    expect(items.board).toMatchObject({ title: 'Fractions', payload: { kind: 'board', boardId, access: 'copy' } });
  });

  it('answers 404 for a board that is not the owner’s', async () => {
    const others = await eve.browser.post('/api/boards', { title: 'Eve’s' });
    expect(others.status).toBe(200);
    expectError(await add({ kind: 'board', boardId: others.body.id, access: 'view' }), 404, 'ERR_BOARD_NOT_FOUND');
    expectError(await add({ kind: 'board', boardId: 'nonexistent', access: 'view' }), 404, 'ERR_BOARD_NOT_FOUND');
  });

  it('edits, moves, reorders and deletes items; a lesson’s deletion keeps its items', async () => {
    const edited = await tina.browser.put(`/api/courses/${course.id}/content/${items.link!.id}`, {
      title: 'Read this',
      payload: { kind: 'link', url: 'https://example.org/' },
    });
    expect(edited.body).toMatchObject({ title: 'Read this', payload: { url: 'https://example.org/' } });
    expectError(
      await tina.browser.put(`/api/courses/${course.id}/content/${items.link!.id}`, {
        payload: { kind: 'test', assignmentId: 'x' },
      }),
      400,
      'ERR_INVALID_INPUT',
    );
    const moved = await tina.browser.post(`/api/courses/${course.id}/content/${items.test!.id}/move`, {
      lesson_id: lessonA,
    });
    expect(moved.body.lesson_id).toBe(lessonA);
    const order = [items.test!.id, items.video!.id, items.link!.id];
    const reordered = (
      await tina.browser.post(`/api/courses/${course.id}/content/reorder`, { lesson_id: lessonA, ids: order })
    ).body as ContentItem[];
    expect(reordered.filter((i) => i.lesson_id === lessonA).map((i) => i.id)).toEqual(order);
    const extra = (await add({ kind: 'link', url: 'https://example.com/x', lesson_id: lessonA })).body as ContentItem;
    expect((await tina.browser.delete(`/api/courses/${course.id}/content/${extra.id}`)).status).toBe(200);
    expectError(await tina.browser.delete(`/api/courses/${course.id}/content/${extra.id}`), 404, 'ERR_NOT_FOUND');
  });
});

describe('participants', () => {
  let token: string;

  it('refuses more than 100 addresses in one call with a clear error', async () => {
    const emails = Array.from({ length: 500 }, (_, i) => `p${i}@example.com`);
    const res = await tina.browser.post(`/api/courses/${course.id}/invitations`, { emails });
    expectError(res, 400, 'ERR_INVALID_INPUT');
    expect(res.body.fields).toHaveProperty('emails');
  });

  it('invites with one result per address and mails a join-course link', async () => {
    const res = await tina.browser.post(`/api/courses/${course.id}/invitations`, {
      emails: [ada.email, 'bad', tina.email, eve.email],
    });
    expect(res.status).toBe(200);
    const codes = Object.fromEntries((res.body as CourseInvitationsReply).results.map((r) => [r.email, r.code]));
    expect(codes).toEqual({
      [ada.email]: null,
      bad: 'ERR_EMAIL_INVALID',
      [tina.email]: 'ERR_CANT_INVITE_YOURSELF',
      [eve.email]: null,
    });
    const again = await tina.browser.post(`/api/courses/${course.id}/invitations`, { emails: [ada.email] });
    expect(again.body.results[0].code).toBe('ERR_COURSE_USER_ALREADY_INVITED');
    token = tokenOf(await catcher.waitFor(ada.email, /Algebra I/));
  });

  it('joins only with the invited address, once', async () => {
    expectError(await eve.browser.post('/api/courses/join', { token }), 404, 'ERR_COURSE_INVITATION_MISSING');
    expectError(await ada.browser.post('/api/courses/join', { token: 'forged' }), 404, 'ERR_COURSE_INVITATION_MISSING');
    const joined = await ada.browser.post('/api/courses/join', { token });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ id: course.id, role: 'participant', editable: false });
    expectError(await ada.browser.post('/api/courses/join', { token }), 404, 'ERR_COURSE_INVITATION_MISSING');
    expect(await events('courses.participant.joined.v1')).toEqual([
      { courseId: course.id, ownerId: tina.id, userId: ada.id },
    ]);
    const list = (await ada.browser.get('/api/courses')).body as CourseList;
    expect(list.attended.map((c) => c.id)).toEqual([course.id]);
    const again = await tina.browser.post(`/api/courses/${course.id}/invitations`, { emails: [ada.email] });
    expect(again.body.results[0].code).toBe('ERR_USER_IN_COURSE');
  });

  it('lets the owner list and cancel invitations; a cancelled link stops working', async () => {
    const p = (await tina.browser.get(`/api/courses/${course.id}/participants`)).body;
    expect(p.participants.map((x: { id: number }) => x.id)).toEqual([ada.id]);
    const eveInvitation = p.invitations.find((i: { email: string }) => i.email === eve.email);
    const eveToken = tokenOf(await catcher.waitFor(eve.email, /Algebra I/));
    expect((await tina.browser.delete(`/api/courses/${course.id}/invitations/${eveInvitation.id}`)).status).toBe(200);
    expectError(
      await tina.browser.delete(`/api/courses/${course.id}/invitations/${eveInvitation.id}`),
      404,
      'ERR_COURSE_INVITATION_MISSING',
    );
    expectError(await eve.browser.post('/api/courses/join', { token: eveToken }), 404, 'ERR_COURSE_INVITATION_MISSING');
    // a participant sees the participants but no invitations
    expect((await ada.browser.get(`/api/courses/${course.id}/participants`)).body.invitations).toEqual([]);
  });

  it('lets participants read but not edit', async () => {
    const content = (await ada.browser.get(`/api/courses/${course.id}/content`)).body as ContentItem[];
    expect(content.map((i) => i.id).sort()).toEqual(
      Object.values(items)
        .map((i) => i.id)
        .sort(),
    );
    expectError(await ada.browser.post(`/api/courses/${course.id}/lessons`, { name: 'x' }), 403, 'ERR_FORBIDDEN');
    expectError(await ada.browser.put(`/api/courses/${course.id}`, { name: 'x' }), 403, 'ERR_FORBIDDEN');
  });
});

describe('opening items, copies and progress', () => {
  it('makes a participant’s own copy of a copy-mode board on the first open only', async () => {
    const path = `/api/courses/${course.id}/content/${items.board!.id}/open`;
    const first = (await ada.browser.post(path, {})).body as ItemOpenReply;
    expect(first.boardAccess).toBe('own');
    expect(first.boardId).not.toBe(boardId);
    expect(first.item.progress).toEqual({ viewed: true, drew: false, submitted: false });
    const second = (await ada.browser.post(path, {})).body as ItemOpenReply;
    expect(second.boardId).toBe(first.boardId);
    // one real copy: Ada's own board, made from Tina's, outside Ada's board limit
    expect((await ada.browser.get(`/api/boards/${first.boardId}`)).body).toMatchObject({
      user_id: ada.id,
      title: 'Fractions (Ada)',
      access: 'own',
    });
    const made = await db.query('SELECT copied_from FROM boards.boards WHERE user_id = $1', [ada.id]);
    expect(made.rows).toEqual([{ copied_from: boardId }]);
    const copies = (await tina.browser.get(`/api/courses/${course.id}/content/${items.board!.id}/copies`)).body;
    expect(copies).toEqual([expect.objectContaining({ userId: ada.id, name: 'Ada', boardId: first.boardId })]);
    expectError(
      await ada.browser.get(`/api/courses/${course.id}/content/${items.board!.id}/copies`),
      403,
      'ERR_FORBIDDEN',
    );
    const owner = (await tina.browser.post(path, {})).body as ItemOpenReply;
    expect(owner).toMatchObject({ boardId, boardAccess: 'own' });
  });

  it('records drew/submitted once each, with item.completed events, in the owner’s table', async () => {
    const path = `/api/courses/${course.id}/content/${items.board!.id}/progress`;
    expect((await ada.browser.post(path, { mark: 'drew' })).body.progress).toEqual({
      viewed: true,
      drew: true,
      submitted: false,
    });
    await ada.browser.post(path, { mark: 'drew' });
    expectError(await ada.browser.post(path, { mark: 'finished' }), 400, 'ERR_INVALID_INPUT');
    expectError(await tina.browser.post(path, { mark: 'drew' }), 403, 'ERR_FORBIDDEN');
    const completed = await events('courses.item.completed.v1');
    expect(completed).toEqual([
      { courseId: course.id, itemId: items.board!.id, userId: ada.id, kind: 'board', mark: 'viewed' },
      { courseId: course.id, itemId: items.board!.id, userId: ada.id, kind: 'board', mark: 'drew' },
    ]);
    const table = (await tina.browser.get(`/api/courses/${course.id}/progress`)).body;
    expect(table.participants).toEqual([
      { id: ada.id, name: 'Ada', progress: { [items.board!.id]: { viewed: true, drew: true, submitted: false } } },
    ]);
    const cards = (await ada.browser.get('/api/courses')).body as CourseList;
    expect(cards.attended[0]).toMatchObject({ done: 1, items: Object.keys(items).length });
  });

  it('shows a participant a file item through the owner’s library', async () => {
    const opened = (await ada.browser.post(`/api/courses/${course.id}/content/${items.file!.id}/open`, {}))
      .body as ItemOpenReply;
    expect(opened).toMatchObject({
      boardId: null,
      document: { id: FILE_ID, name: 'notes.pdf', imageId: 'c'.repeat(64) },
    });
    const board = (await ada.browser.post(`/api/courses/${course.id}/content/${items.board!.id}/open`, {}))
      .body as ItemOpenReply;
    expect(board.document).toBeNull();
  });
});

describe('GET /api/courses answers from a cache that follows every change its cards show', () => {
  const cardOf = async (who: typeof tina, side: 'owned' | 'attended') =>
    ((await who.browser.get('/api/courses')).body as CourseList)[side].find((c) => c.id === course.id)!;

  it('counts, names, participants, progress and the owner’s plan', async () => {
    const before = { tina: await cardOf(tina, 'owned'), ada: await cardOf(ada, 'attended') };
    expect(await cardOf(tina, 'owned')).toEqual(before.tina); // a second read: the cached answer
    const hits = await db.query('SELECT count(*)::int AS n FROM courses.list_versions WHERE user_id = $1', [ada.id]);
    expect(hits.rows[0].n).toBe(1);

    const lesson = (await tina.browser.post(`/api/courses/${course.id}/lessons`, { name: 'Extra' })).body;
    const link = (
      await tina.browser.post(`/api/courses/${course.id}/content`, { kind: 'link', url: 'https://example.org/x' })
    ).body;
    expect(await cardOf(ada, 'attended')).toMatchObject({
      lessons: before.ada.lessons + 1,
      items: before.ada.items + 1,
    });
    await tina.browser.put(`/api/courses/${course.id}`, { name: 'Algebra (cached?)' });
    expect((await cardOf(ada, 'attended')).name).toBe('Algebra (cached?)');
    await ada.browser.post(`/api/courses/${course.id}/content/${link.id}/open`, {});
    expect((await cardOf(ada, 'attended')).done).toBe(before.ada.done + 1);
    await tina.browser.delete(`/api/courses/${course.id}/content/${link.id}`);
    await tina.browser.delete(`/api/courses/${course.id}/lessons/${lesson.id}`);
    await tina.browser.put(`/api/courses/${course.id}`, { name: 'Algebra I' });
    expect(await cardOf(ada, 'attended')).toMatchObject({ lessons: before.ada.lessons, items: before.ada.items });

    await givePlan(stack, tina.id, null);
    expect((await cardOf(tina, 'owned')).editable).toBe(false);
    await givePlan(stack, tina.id, 'standard');
    expect((await cardOf(tina, 'owned')).editable).toBe(true);
  });
});

describe('the owner’s plan and the end of a course', () => {
  it('keeps a course read-only after the owner’s downgrade', async () => {
    await givePlan(stack, tina.id, null);
    expectError(await tina.browser.put(`/api/courses/${course.id}`, { name: 'Later' }), 403, 'ERR_FEATURE_NOT_ENABLED');
    expect((await tina.browser.get(`/api/courses/${course.id}`)).body).toMatchObject({
      editable: false,
      name: 'Algebra I',
    });
    expect((await ada.browser.get(`/api/courses/${course.id}/content`)).status).toBe(200);
    await givePlan(stack, tina.id, 'standard');
  });

  it('lets a participant leave and the owner delete; a deleted course is not found', async () => {
    expect((await ada.browser.post(`/api/courses/${course.id}/leave`, {})).status).toBe(200);
    expectError(await ada.browser.get(`/api/courses/${course.id}`), 404, 'ERR_NOT_FOUND');
    expect(((await ada.browser.get('/api/courses')).body as CourseList).attended).toEqual([]);
    expect(await events('courses.participant.left.v1')).toEqual([
      { courseId: course.id, ownerId: tina.id, userId: ada.id, reason: 'left' },
    ]);
    expect((await tina.browser.delete(`/api/courses/${course.id}`)).status).toBe(200);
    expectError(await tina.browser.get(`/api/courses/${course.id}/content`), 404, 'ERR_NOT_FOUND');
    expect(((await tina.browser.get('/api/courses')).body as CourseList).owned.map((c) => c.id)).not.toContain(
      course.id,
    );
    expect(await events('courses.course.deleted.v1')).toEqual([
      { courseId: course.id, ownerId: tina.id, reason: 'owner' },
    ]);
  });
});
