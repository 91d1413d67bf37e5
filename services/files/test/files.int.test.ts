/**
 * The files service through NATS, with the real PostgreSQL, Redis (BullMQ) and a filesystem
 * object store in a temp folder. The other parties are played by this test on the stack's own
 * prefix: the gateway (stages bytes, calls the operations), auth (`plan.get` from a table of
 * plans), boards (`access.check` from a table of boards) and the conversion worker (a BullMQ
 * worker on FILES_CONVERT_QUEUE that calls conversion.report as each test tells it to).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import type { Job, Worker } from 'bullmq';
import { connectBus, createLogger, createWorker, FsObjectStore } from '@wb/platform';
import type { Bus, RunningService } from '@wb/platform';
import { eventually, startFakeAuth, startFakeBoards, startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import {
  AppError,
  docPageKey,
  eventSubject,
  FILES_CONVERT_QUEUE,
  displayImageKey,
  originalKey,
  PLANS,
} from '@wb/proto';
import type { BoardAccess, DocumentDto, FilesConvertJob, Plan, PossessionChallenge, PossessionProof } from '@wb/proto';

const MB = 1024 * 1024;
const MAX_FILE_BYTES = 20 * MB;
const log = createLogger({ service: 'test', level: 'silent' });

let stack: RunningStack;
let dir: string;
let store: FsObjectStore;
let bus: Bus;
let db: Pool;
const fakes: RunningService[] = [];
let worker: Worker<FilesConvertJob>;

/** plans by user id (auth's plan.get); starter unless set */
const plans = new Map<number, Plan>();
/** boards by id: owner and the access of each user (boards' access.check) */
const boards = new Map<string, { ownerId: number; access: Record<number, BoardAccess>; readOnly?: boolean }>();
/** what the fake worker does with a document: 'ready' (default, 2 pages), 'fail', or 'hold' (report nothing) */
const outcome = new Map<string, 'ready' | 'fail' | 'hold'>();
/** every job the worker received */
const jobs: FilesConvertJob[] = [];

const withMaxData = (plan: Plan, maxData: number): Plan => ({ ...plan, limits: { ...plan.limits, maxData } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wb-files-test-'));
  store = new FsObjectStore(dir);
  stack = await startStack({
    deployables: ['services/files'],
    env: {
      FILES_STORE: 'fs',
      FILES_DIR: dir,
      PLAN_CACHE_TTL_MS: '0',
      MAX_FILE_BYTES: String(MAX_FILE_BYTES),
      TOMBSTONE_TTL_MS: '4000',
      TOMBSTONE_CLEANUP_EVERY_MS: '1000',
      DISPLAY_IMAGE_WAIT_MS: '5000',
      ORPHAN_GRACE_MS: '60000',
    },
  });
  db = new Pool({ connectionString: stack.databaseUrl, max: 2 });
  bus = await connectBus({
    url: stack.env.NATS_URL!,
    prefix: stack.natsPrefix,
    name: 'test',
    log,
    ensureStream: false,
  });

  fakes.push(
    await startFakeAuth(bus, log, { plan: (userId) => plans.get(userId) ?? PLANS.starter }),
    await startFakeBoards(bus, log, (boardId, userId) => {
      const b = boards.get(boardId);
      if (!b) return null;
      const access: BoardAccess = b.ownerId === userId ? 'own' : (b.access[userId] ?? 'none');
      return { ownerId: b.ownerId, access, readOnlyReason: b.readOnly ? 'planLimits' : null };
    }),
  );

  worker = createWorker<FilesConvertJob>(
    FILES_CONVERT_QUEUE,
    async (job: Job<FilesConvertJob>) => {
      const data = job.data;
      jobs.push(data);
      if (data.purpose === 'displayImage') {
        if (outcome.get(data.docId) === 'fail') throw new Error('not a picture');
        await store.put(displayImageKey(data.docId), Buffer.from('webp'));
        return { ok: true };
      }
      const what = outcome.get(data.docId) ?? 'ready';
      if (what === 'hold') return {};
      const report = (body: object) =>
        bus.request('files', 'conversion.report', { docId: data.docId, ...body }, { userId: 0 });
      if (what === 'fail') {
        await report({ status: 'failed', pages: 0, pagesDone: 0, error: 'The document has more than 300 pages' });
        return {};
      }
      await report({ status: 'processing', pages: 2, pagesDone: 1, error: null });
      const imageId = data.imageId ?? data.docId;
      await store.put(docPageKey(imageId, 0, 'thumb'), Buffer.from('p0'));
      await store.put(docPageKey(imageId, 1, 'thumb'), Buffer.from('p1'));
      await report({ status: 'ready', pages: 2, pagesDone: 2, error: null });
      return {};
    },
    { redisUrl: stack.env.REDIS_URL!, prefix: stack.redisPrefix, log },
  );
}, 90_000);

afterAll(async () => {
  await worker?.close();
  for (const f of fakes) await f.stop();
  await bus?.drain();
  await db?.end();
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// helpers

let nextUser = 100;
function user(plan: Plan = PLANS.standard): number {
  const id = ++nextUser;
  plans.set(id, plan);
  return id;
}

async function call<T = unknown>(op: string, input: unknown, userId: number): Promise<T> {
  return (await bus.request<T>('files', op, input, { userId })).data;
}
async function codeOf(op: string, input: unknown, userId: number): Promise<string> {
  try {
    await call(op, input, userId);
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  return 'OK';
}

/** a distinct small PDF (the sniffer reads its header) */
function pdf(bytes = 200): Buffer {
  const head = Buffer.from(`%PDF-1.4\n%${randomBytes(8).toString('hex')}\n`);
  return Buffer.concat([head, Buffer.alloc(Math.max(0, bytes - head.length), 0x20)]);
}
/** a distinct 1x1 PNG */
function png(): Buffer {
  const b64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  return Buffer.concat([Buffer.from(b64, 'base64'), randomBytes(8)]);
}
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** what the gateway does: stream the bytes to staging/<32 hex> and hash them */
async function stage(bytes: Buffer): Promise<{ stagingKey: string; sha256: string; size: number }> {
  const stagingKey = `staging/${randomBytes(16).toString('hex')}`;
  await store.put(stagingKey, bytes);
  return { stagingKey, sha256: sha(bytes), size: bytes.length };
}
async function upload(userId: number, bytes: Buffer, name = 'worksheet.pdf', boardId?: string): Promise<DocumentDto> {
  return call<DocumentDto>(
    'upload.register',
    { purpose: 'doc', ...(await stage(bytes)), name, ...(boardId ? { boardId } : {}) },
    userId,
  );
}
async function uploadCode(
  userId: number,
  bytes: Buffer,
  name = 'worksheet.pdf',
  boardId?: string,
): Promise<{ code: string; stagingKey: string }> {
  const staged = await stage(bytes);
  const code = await codeOf(
    'upload.register',
    { purpose: 'doc', ...staged, name, ...(boardId ? { boardId } : {}) },
    userId,
  );
  return { code, stagingKey: staged.stagingKey };
}
async function docGet(userId: number, docId: string): Promise<DocumentDto | null> {
  return call<DocumentDto | null>('doc.get', { docId }, userId);
}
/** what the web's hashing worker answers to a possession challenge: SHA-256(nonce ‖ ranges of the file) */
function answer(challenge: PossessionChallenge, bytes: Buffer): PossessionProof {
  const h = createHash('sha256').update(challenge.nonce, 'utf8');
  for (const r of challenge.ranges) h.update(bytes.subarray(r.start, r.end));
  return { nonce: challenge.nonce, digest: h.digest('hex') };
}
/** the browser's dedupe path for someone holding `bytes`: doc.get, answer its challenge, doc.add */
async function addHeld(userId: number, bytes: Buffer, name: string, boardId?: string): Promise<DocumentDto> {
  const docId = sha(bytes);
  const got = await docGet(userId, docId);
  const proof = got?.challenge ? answer(got.challenge, bytes) : undefined;
  return call<DocumentDto>(
    'doc.add',
    { docId, name, ...(boardId ? { boardId } : {}), ...(proof ? { proof } : {}) },
    userId,
  );
}
async function addHeldCode(userId: number, bytes: Buffer, name: string): Promise<string> {
  try {
    await addHeld(userId, bytes, name);
    return 'OK';
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}
async function ready(userId: number, docId: string): Promise<DocumentDto> {
  let dto: DocumentDto | null = null;
  await eventually(async () => (dto = await docGet(userId, docId))?.status === 'ready', 10_000);
  return dto!;
}
async function maxBytes(userId: number, boardId?: string): Promise<number> {
  return (
    await call<{ maxBytes: number }>(
      'upload.check',
      { purpose: 'doc', size: 0, ...(boardId ? { boardId } : {}) },
      userId,
    )
  ).maxBytes;
}
const exists = async (key: string): Promise<boolean> => (await store.stat(key)) !== null;
const jobsFor = (docId: string): FilesConvertJob[] => jobs.filter((j) => j.docId === docId);

let eventSeq = 0;
async function publishEvent(type: string, data: object): Promise<void> {
  const id = `test:${++eventSeq}`;
  await bus.js.publish(
    eventSubject(stack.natsPrefix, type),
    JSON.stringify({ id, type, occurredAt: new Date().toISOString(), data }),
    { msgID: id },
  );
}

// ---------------------------------------------------------------------------------------------

describe('upload.check (before the gateway reads the body)', () => {
  it('refuses guests and plans without fileUpload', async () => {
    expect(await codeOf('upload.check', { purpose: 'doc', size: 10 }, 0)).toBe('ERR_UPLOAD_GUEST');
    expect(await codeOf('upload.check', { purpose: 'doc', size: 10 }, user(PLANS.starter))).toBe(
      'ERR_UPLOAD_NOT_ENABLED',
    );
  });

  it('answers the quota left capped by MAX_FILE_BYTES, or the error when the size cannot fit', async () => {
    expect(await maxBytes(user(withMaxData(PLANS.standard, 5 * MB)))).toBe(5 * MB);
    expect(await maxBytes(user())).toBe(MAX_FILE_BYTES);
    const small = user(withMaxData(PLANS.standard, 1000));
    expect(await codeOf('upload.check', { purpose: 'doc', size: 1001 }, small)).toBe('ERR_MAX_STORAGE_REACHED');
    expect(await codeOf('upload.check', { purpose: 'doc', size: MAX_FILE_BYTES + 1 }, user())).toBe(
      'ERR_FILE_TOO_LARGE',
    );
  });

  it('profile pictures: any logged-in person, at most 10 MB', async () => {
    const starter = user(PLANS.starter);
    expect(await call('upload.check', { purpose: 'displayImage', size: 0 }, starter)).toEqual({ maxBytes: 10 * MB });
    expect(await codeOf('upload.check', { purpose: 'displayImage', size: 10 * MB + 1 }, starter)).toBe(
      'ERR_FILE_TOO_LARGE',
    );
    expect(await codeOf('upload.check', { purpose: 'displayImage', size: 1 }, 0)).toBe('ERR_UPLOAD_GUEST');
  });

  it('validates its input', async () => {
    expect(await codeOf('upload.check', { purpose: 'other', size: 1 }, user())).toBe('ERR_INVALID_INPUT');
    expect(await codeOf('doc.get', { docId: 'nope' }, user())).toBe('ERR_INVALID_INPUT');
    expect(
      await codeOf(
        'upload.register',
        { purpose: 'doc', stagingKey: '../etc/passwd', sha256: sha(pdf()), size: 1, name: 'x' },
        user(),
      ),
    ).toBe('ERR_INVALID_INPUT');
  });
});

describe('uploading to the library', () => {
  it('stores the original, converts it once and the poll follows the state', async () => {
    const ann = user();
    const bytes = pdf();
    const id = sha(bytes);
    expect(await docGet(ann, id)).toBeNull();
    const staged = await stage(bytes);
    const dto = await call<DocumentDto>('upload.register', { purpose: 'doc', ...staged, name: 'Algebra.pdf' }, ann);
    expect(dto).toMatchObject({
      id,
      name: 'Algebra.pdf',
      isImage: 0,
      size: bytes.length,
      format: 'pdf',
      status: 'processing',
      error: null,
    });
    expect(await exists(staged.stagingKey)).toBe(false);
    expect(await store.get(originalKey(id))).toEqual(new Uint8Array(bytes));
    expect(await ready(ann, id)).toMatchObject({ name: 'Algebra.pdf', pages: 2, pagesDone: 2, status: 'ready' });
    expect(jobsFor(id)).toEqual([
      { docId: id, imageId: expect.stringMatching(/^[0-9a-f]{64}$/), format: 'pdf', purpose: 'doc', ownerId: ann },
    ]);
    expect(await call('docs.list', {}, ann)).toEqual([expect.objectContaining({ id, name: 'Algebra.pdf' })]);
  });

  it('refuses guests and starter plans, and deletes what they staged', async () => {
    const g = await uploadCode(0, pdf());
    expect(g.code).toBe('ERR_UPLOAD_GUEST');
    expect(await exists(g.stagingKey)).toBe(false);
    const s = await uploadCode(user(PLANS.starter), pdf());
    expect(s.code).toBe('ERR_UPLOAD_NOT_ENABLED');
    expect(await exists(s.stagingKey)).toBe(false);
  });

  it('sniffs the content, not the name: "Unsupported file"', async () => {
    const junk = Buffer.concat([Buffer.from([0, 1, 2, 3, 0xff, 0xfe]), randomBytes(100)]);
    const r = await uploadCode(user(), junk, 'looks-like.pdf');
    expect(r.code).toBe('ERR_UNSUPPORTED_FILE');
    expect(await exists(r.stagingKey)).toBe(false);
    expect(await docGet(user(), sha(junk))).toBeNull();
  });

  it('refuses a file larger than MAX_FILE_BYTES (Content-Length absent at check time)', async () => {
    const r = await uploadCode(user(withMaxData(PLANS.standard, 100 * MB)), pdf(MAX_FILE_BYTES + 1));
    expect(r.code).toBe('ERR_FILE_TOO_LARGE');
    expect(await exists(r.stagingKey)).toBe(false);
  });

  it('answers ERR_NOT_FOUND for a staging key with nothing stored', async () => {
    const bytes = pdf();
    const input = {
      purpose: 'doc',
      stagingKey: `staging/${'0'.repeat(32)}`,
      sha256: sha(bytes),
      size: bytes.length,
      name: 'a.pdf',
    };
    expect(await codeOf('upload.register', input, user())).toBe('ERR_NOT_FOUND');
  });
});

describe('dedupe by content hash', () => {
  it('the same bytes uploaded or added again are not stored or converted twice; names are per person', async () => {
    const ann = user();
    const bob = user();
    const cleo = user();
    const bytes = pdf();
    const id = sha(bytes);
    await upload(ann, bytes, 'Ann.pdf');
    await ready(ann, id);
    // Bob's browser hashed it and uploads anyway: stored once
    const staged = await stage(bytes);
    const dto = await call<DocumentDto>('upload.register', { purpose: 'doc', ...staged, name: 'Bob.pdf' }, bob);
    expect(dto).toMatchObject({ id, name: 'Bob.pdf', status: 'ready', pages: 2 });
    expect(await exists(staged.stagingKey)).toBe(false);
    // Cleo's browser asks first, then only adds it
    expect(await docGet(cleo, id)).toMatchObject({ id, name: '', status: 'ready' });
    expect(await addHeld(cleo, bytes, 'Cleo.pdf')).toMatchObject({
      id,
      name: 'Cleo.pdf',
      status: 'ready',
    });
    // adding what you hold renames nothing
    expect(await call('doc.add', { docId: id, name: 'Other.pdf' }, cleo)).toMatchObject({ name: 'Cleo.pdf' });
    expect(await docGet(cleo, id)).toMatchObject({ name: 'Cleo.pdf' });
    expect(jobsFor(id)).toHaveLength(1);
  });

  it('doc.add of bytes nobody stored answers ERR_NOT_FOUND (the browser then uploads)', async () => {
    expect(await codeOf('doc.add', { docId: sha(pdf()), name: 'x.pdf' }, user())).toBe('ERR_NOT_FOUND');
  });

  it('doc.add follows the same rules: guests, plans', async () => {
    const bytes = pdf();
    const id = (await upload(user(), bytes)).id;
    expect(await codeOf('doc.add', { docId: id, name: 'x.pdf' }, 0)).toBe('ERR_UPLOAD_GUEST');
    expect(await addHeldCode(user(PLANS.starter), bytes, 'x.pdf')).toBe('ERR_UPLOAD_NOT_ENABLED');
  });
});

describe('proof of possession (issue 25 §4)', () => {
  it('knowing only the SHA-256 adds nothing and downloads nothing', async () => {
    const teacher = user();
    const student = user();
    const bytes = pdf(300 * 1024);
    const id = sha(bytes);
    await upload(teacher, bytes, 'worksheet.pdf');
    await ready(teacher, id);
    // the student asks by hash: a challenge, no image id
    const got = await docGet(student, id);
    expect(got).toMatchObject({ id, name: '', imageId: '' });
    expect(got!.challenge!.ranges.length).toBeGreaterThan(0);
    // no proof, a made-up proof, another's nonce: "not stored" for them (the browser uploads)
    expect(await codeOf('doc.add', { docId: id, name: 'w.pdf' }, student)).toBe('ERR_NOT_FOUND');
    const fresh = (await docGet(student, id))!.challenge!;
    expect(
      await codeOf('doc.add', { docId: id, name: 'w.pdf', proof: { nonce: fresh.nonce, digest: id } }, student),
    ).toBe('ERR_NOT_FOUND');
    // a wrong answer spends the challenge: the right one afterwards is refused too
    expect(await codeOf('doc.add', { docId: id, name: 'w.pdf', proof: answer(fresh, bytes) }, student)).toBe(
      'ERR_NOT_FOUND',
    );
    const mallory = user();
    const theirs = (await docGet(mallory, id))!.challenge!;
    expect(await codeOf('doc.add', { docId: id, name: 'w.pdf', proof: answer(theirs, bytes) }, student)).toBe(
      'ERR_NOT_FOUND',
    );
    // the bytes stay the teacher's
    expect(await codeOf('doc.original', { docId: id }, student)).toBe('ERR_NOT_FOUND');
    expect(await call('docs.list', {}, student)).toEqual([]);
    expect(await maxBytes(student)).toBe(MAX_FILE_BYTES);
  });

  it('a real holder of the bytes still dedupes without uploading, once per challenge', async () => {
    const ann = user();
    const bob = user();
    const bytes = pdf(200 * 1024);
    const id = sha(bytes);
    await upload(ann, bytes);
    await ready(ann, id);
    const challenge = (await docGet(bob, id))!.challenge!;
    const proof = answer(challenge, bytes);
    const dto = await call<DocumentDto>('doc.add', { docId: id, name: 'mine.pdf', proof }, bob);
    expect(dto).toMatchObject({ id, name: 'mine.pdf', status: 'ready' });
    expect(dto.imageId).toMatch(/^[0-9a-f]{64}$/);
    expect(jobsFor(id)).toHaveLength(1);
    // now a holder: no challenge, the image id, and the original
    const again = await docGet(bob, id);
    expect(again!.challenge).toBeUndefined();
    expect(again!.imageId).toBe(dto.imageId);
    expect(await call('doc.original', { docId: id }, bob)).toMatchObject({ key: originalKey(id) });
    // the same answer cannot be replayed by someone else
    expect(await codeOf('doc.add', { docId: id, name: 'x.pdf', proof }, user())).toBe('ERR_NOT_FOUND');
  });

  it('page images are stored and named under an id that is not the SHA-256', async () => {
    const ann = user();
    const bytes = pdf();
    const id = sha(bytes);
    const dto = await upload(ann, bytes);
    await ready(ann, id);
    expect(dto.imageId).toMatch(/^[0-9a-f]{64}$/);
    expect(dto.imageId).not.toBe(id);
    expect(jobsFor(id)[0]).toMatchObject({ docId: id, imageId: dto.imageId });
    expect(await exists(docPageKey(dto.imageId, 1, 'thumb'))).toBe(true);
    expect(await exists(docPageKey(id, 1, 'thumb'))).toBe(false);
    const [listed] = await call<DocumentDto[]>('docs.list', {}, ann);
    expect(listed!.imageId).toBe(dto.imageId);
    // deleting it deletes the images under the image id
    await call('docs.delete', { ids: [id] }, ann);
    expect(await exists(docPageKey(dto.imageId, 1, 'thumb'))).toBe(false);
  });
});

describe('quota (maxData)', () => {
  it('counts each document once per person, and for each person who holds it', async () => {
    const ann = user(withMaxData(PLANS.standard, 1000));
    const bob = user(withMaxData(PLANS.standard, 1000));
    const a = pdf(600);
    await upload(ann, a);
    expect(await maxBytes(ann)).toBe(400);
    // holding it again adds nothing
    await upload(ann, a, 'again.pdf');
    expect(await maxBytes(ann)).toBe(400);
    // Bob's add counts for Bob, and does not change Ann's usage
    await addHeld(bob, a, 'b.pdf');
    expect(await maxBytes(bob)).toBe(400);
    expect(await maxBytes(ann)).toBe(400);
    const r = await uploadCode(ann, pdf(401));
    expect(r.code).toBe('ERR_MAX_STORAGE_REACHED');
    expect(await exists(r.stagingKey)).toBe(false);
    expect(await addHeldCode(user(withMaxData(PLANS.standard, 599)), a, 'c.pdf')).toBe('ERR_MAX_STORAGE_REACHED');
  });

  it('parallel uploads cannot overshoot', async () => {
    const ann = user(withMaxData(PLANS.standard, 1000));
    const codes = await Promise.all([0, 1, 2, 3, 4].map(async () => (await uploadCode(ann, pdf(300))).code));
    expect(codes.filter((c) => c === 'OK')).toHaveLength(3);
    expect(codes.filter((c) => c === 'ERR_MAX_STORAGE_REACHED')).toHaveLength(2);
    expect(await maxBytes(ann)).toBe(100);
  });
});

describe('uploads for a board', () => {
  it('need edit access: view → ERR_FORBIDDEN, unknown → ERR_BOARD_NOT_FOUND, read-only → ERR_FORBIDDEN', async () => {
    const owner = user(PLANS.premium);
    const viewer = user();
    boards.set('boardView1', { ownerId: owner, access: { [viewer]: 'view' } });
    boards.set('boardRo1', { ownerId: owner, access: {}, readOnly: true });
    expect((await uploadCode(viewer, pdf(), 'a.pdf', 'boardView1')).code).toBe('ERR_FORBIDDEN');
    expect((await uploadCode(user(), pdf(), 'a.pdf', 'noSuchBoard')).code).toBe('ERR_BOARD_NOT_FOUND');
    expect((await uploadCode(owner, pdf(), 'a.pdf', 'boardRo1')).code).toBe('ERR_FORBIDDEN');
    expect(await codeOf('upload.check', { purpose: 'doc', size: 1, boardId: 'boardView1' }, viewer)).toBe(
      'ERR_FORBIDDEN',
    );
  });

  it('an owner without fileUpload may upload to their own board; charged to them, not in their library', async () => {
    const owner = user(withMaxData(PLANS.starter, 1000));
    boards.set('boardStarter1', { ownerId: owner, access: {} });
    expect(await maxBytes(owner, 'boardStarter1')).toBe(1000);
    const dto = await upload(owner, pdf(300), 'page.pdf', 'boardStarter1');
    expect(dto).toMatchObject({ name: 'page.pdf', status: 'processing' });
    expect(await maxBytes(owner, 'boardStarter1')).toBe(700);
    expect(await call('docs.list', {}, owner)).toEqual([]);
  });

  it("participants need the owner's othersUpload and use the owner's quota", async () => {
    const stdOwner = user(PLANS.standard);
    const premOwner = user(withMaxData(PLANS.premium, 1000));
    const pupil = user(PLANS.starter);
    boards.set('boardStd1', { ownerId: stdOwner, access: { [pupil]: 'edit' } });
    boards.set('boardPrem1', { ownerId: premOwner, access: { [pupil]: 'edit' } });
    expect((await uploadCode(pupil, pdf(), 'a.pdf', 'boardStd1')).code).toBe('ERR_UPLOAD_NOT_ENABLED');
    await upload(pupil, pdf(400), 'a.pdf', 'boardPrem1');
    expect(await maxBytes(premOwner, 'boardPrem1')).toBe(600);
    expect(await maxBytes(pupil, 'boardPrem1')).toBe(600);
    expect((await uploadCode(pupil, pdf(601), 'b.pdf', 'boardPrem1')).code).toBe('ERR_MAX_STORAGE_REACHED');
  });

  it('a purged board releases its uploads and the bytes nobody else holds (boards.board.purged.v1)', async () => {
    const owner = user(withMaxData(PLANS.premium, 1000));
    boards.set('boardPurge1', { ownerId: owner, access: {} });
    const bytes = pdf(500);
    const id = sha(bytes);
    await upload(owner, bytes, 'p.pdf', 'boardPurge1');
    await eventually(async () => (await docGet(owner, id))?.status === 'ready', 10_000);
    await publishEvent('boards.board.purged.v1', { boardId: 'boardPurge1', ownerId: owner, reason: 'owner' });
    await eventually(async () => (await docGet(owner, id)) === null, 10_000);
    expect(await maxBytes(owner, 'boardPurge1')).toBe(1000);
    expect(await exists(originalKey(id))).toBe(false);
    expect(await exists(docPageKey(id, 0, 'thumb'))).toBe(false);
  });
});

describe('a conversion the worker retries (issue 25 §3)', () => {
  it('shows the worker\'s "retrying" notice while processing, never as a failure, and clears it when ready', async () => {
    const ann = user();
    const bytes = pdf(510);
    const id = sha(bytes);
    outcome.set(id, 'hold');
    await upload(ann, bytes, 'lesson.pdf');
    const retrying = 'We could not convert this file right now, retrying';
    await call('conversion.report', { docId: id, status: 'processing', pages: 0, pagesDone: 0, error: retrying }, 0);
    expect(await docGet(ann, id)).toMatchObject({ status: 'processing', error: retrying, name: 'lesson.pdf' });
    // the next progress report (the retry is converting) clears the notice
    await call('conversion.report', { docId: id, status: 'processing', pages: 2, pagesDone: 1, error: null }, 0);
    expect(await docGet(ann, id)).toMatchObject({ status: 'processing', error: null, pagesDone: 1 });
    await call('conversion.report', { docId: id, status: 'processing', pages: 2, pagesDone: 1, error: retrying }, 0);
    await call('conversion.report', { docId: id, status: 'ready', pages: 2, pagesDone: 2, error: null }, 0);
    expect(await docGet(ann, id)).toMatchObject({ status: 'ready', error: null, pages: 2 });
  });
});

describe('a failed conversion', () => {
  it('is removed from everyone, frees the bytes, leaves an error for the poll, and a new upload retries', async () => {
    const ann = user(withMaxData(PLANS.standard, 1000));
    const bob = user();
    const bytes = pdf(500);
    const id = sha(bytes);
    outcome.set(id, 'hold');
    await upload(ann, bytes, 'bomb.pdf');
    await addHeld(bob, bytes, 'bomb.pdf');
    expect(await maxBytes(ann)).toBe(500);
    await call('conversion.report', { docId: id, status: 'processing', pages: 250, pagesDone: 3, error: null }, 0);
    expect(await docGet(ann, id)).toMatchObject({ status: 'processing', pages: 250, pagesDone: 3 });
    await call(
      'conversion.report',
      { docId: id, status: 'failed', pages: 0, pagesDone: 0, error: 'The document has more than 300 pages' },
      0,
    );
    expect(await docGet(ann, id)).toMatchObject({
      status: 'failed',
      name: '',
      error: 'The document has more than 300 pages',
    });
    expect(await call('docs.list', {}, ann)).toEqual([]);
    expect(await call('docs.list', {}, bob)).toEqual([]);
    expect(await maxBytes(ann)).toBe(1000);
    expect(await exists(originalKey(id))).toBe(false);
    // a late progress report does not bring it back
    await call('conversion.report', { docId: id, status: 'processing', pages: 250, pagesDone: 4, error: null }, 0);
    expect(await docGet(ann, id)).toMatchObject({ status: 'failed' });
    // adding the tombstone is refused: the browser uploads the bytes again
    expect(await addHeldCode(bob, bytes, 'x.pdf')).toBe('ERR_NOT_FOUND');
    outcome.set(id, 'ready');
    expect(await upload(ann, bytes, 'retry.pdf')).toMatchObject({ status: 'processing', error: null });
    expect(await ready(ann, id)).toMatchObject({ name: 'retry.pdf' });
    expect(jobsFor(id)).toHaveLength(2);
  });

  it('the failure reported by the worker reaches the poll; the tombstone goes after its TTL', async () => {
    const ann = user();
    const bytes = pdf();
    const id = sha(bytes);
    outcome.set(id, 'fail');
    await upload(ann, bytes);
    await eventually(async () => (await docGet(ann, id))?.status === 'failed', 10_000);
    expect((await docGet(ann, id))!.error).toBe('The document has more than 300 pages');
    await eventually(async () => (await docGet(ann, id)) === null, 15_000, 200);
  });
});

describe('the library', () => {
  it('lists newest first with the caller’s names; guests are unauthorised', async () => {
    const ann = user();
    const first = await upload(ann, pdf(), 'first.pdf');
    const second = await upload(ann, pdf(), 'second.pdf');
    const list = await call<DocumentDto[]>('docs.list', {}, ann);
    expect(list.map((d) => d.name)).toEqual(['second.pdf', 'first.pdf']);
    expect(list.map((d) => d.id)).toEqual([second.id, first.id]);
    expect(await codeOf('docs.list', {}, 0)).toBe('ERR_UNAUTHORIZED');
  });

  it('delete frees quota, keeps bytes someone else holds, deletes them when nobody does', async () => {
    const ann = user(withMaxData(PLANS.standard, 1000));
    const bob = user();
    const shared = pdf(300);
    const own = pdf(200);
    const sid = sha(shared);
    const oid = sha(own);
    await upload(ann, shared);
    await upload(ann, own);
    await ready(ann, sid);
    await ready(ann, oid);
    await addHeld(bob, shared, 's.pdf');
    expect(await maxBytes(ann)).toBe(500);
    const unknown = sha(pdf());
    expect(await call('docs.delete', { ids: [sid, oid, unknown] }, ann)).toEqual({ ids: [sid, oid] });
    expect(await maxBytes(ann)).toBe(1000);
    expect(await call('docs.list', {}, ann)).toEqual([]);
    // Bob still holds the shared one
    expect(await exists(originalKey(sid))).toBe(true);
    expect(await docGet(bob, sid)).toMatchObject({ name: 's.pdf', status: 'ready' });
    // nobody holds the other one
    expect(await docGet(ann, oid)).toBeNull();
    expect(await exists(originalKey(oid))).toBe(false);
    expect(await exists(docPageKey(oid, 1, 'thumb'))).toBe(false);
    expect(await call('docs.delete', { ids: [sid] }, bob)).toEqual({ ids: [sid] });
    expect(await exists(originalKey(sid))).toBe(false);
    expect(await codeOf('docs.delete', { ids: [] }, bob)).toBe('ERR_INVALID_INPUT');
  });

  it('doc.original answers the key, the holder’s name and the sniffed type; ERR_NOT_FOUND to others', async () => {
    const ann = user();
    const bytes = pdf();
    const { id } = await upload(ann, bytes, 'Notes.pdf');
    expect(await call('doc.original', { docId: id }, ann)).toEqual({
      key: originalKey(id),
      filename: 'Notes.pdf',
      contentType: 'application/pdf',
      size: bytes.length,
    });
    expect(await codeOf('doc.original', { docId: id }, user())).toBe('ERR_NOT_FOUND');
    expect(await codeOf('doc.original', { docId: id }, 0)).toBe('ERR_NOT_FOUND');
  });

  it('a terminated account’s library goes (auth.user.terminated.v1)', async () => {
    const ann = user();
    const bytes = pdf();
    const { id } = await upload(ann, bytes);
    await ready(ann, id);
    await publishEvent('auth.user.terminated.v1', { userId: ann });
    await eventually(async () => (await docGet(ann, id)) === null, 10_000);
    expect(await exists(originalKey(id))).toBe(false);
  });
});

describe('profile pictures (displayImage.register)', () => {
  it('waits for the picture, stores nothing in the library or the quota; images only', async () => {
    const ann = user(withMaxData(PLANS.starter, 0));
    const bytes = png();
    const id = sha(bytes);
    const reply = await call(
      'displayImage.register',
      { purpose: 'displayImage', ...(await stage(bytes)), name: 'me.png' },
      ann,
    );
    expect(reply).toEqual({ id, url: `/images/${id}-avatar.webp` });
    expect(await exists(displayImageKey(id))).toBe(true);
    expect(jobsFor(id)).toEqual([{ docId: id, format: 'png', purpose: 'displayImage' }]);
    expect(await call('docs.list', {}, ann)).toEqual([]);
    expect(await docGet(ann, id)).toBeNull();
    // the same picture again is answered without a second job
    await call('displayImage.register', { purpose: 'displayImage', ...(await stage(bytes)), name: 'me.png' }, user());
    expect(jobsFor(id)).toHaveLength(1);
  });

  it('refuses guests, documents, and a picture the worker cannot read (415, its bytes deleted)', async () => {
    expect(
      await codeOf('displayImage.register', { purpose: 'displayImage', ...(await stage(png())), name: 'a.png' }, 0),
    ).toBe('ERR_UPLOAD_GUEST');
    const doc = await stage(pdf());
    expect(await codeOf('displayImage.register', { purpose: 'displayImage', ...doc, name: 'a.png' }, user())).toBe(
      'ERR_UNSUPPORTED_FILE',
    );
    expect(await exists(doc.stagingKey)).toBe(false);
    const bad = png();
    outcome.set(sha(bad), 'fail');
    const staged = await stage(bad);
    // issue 25 §5: was a 502 with the original left behind and no record of it
    expect(await codeOf('displayImage.register', { purpose: 'displayImage', ...staged, name: 'a.png' }, user())).toBe(
      'ERR_UNSUPPORTED_FILE',
    );
    expect(await exists(staged.stagingKey)).toBe(false);
    expect(await exists(originalKey(sha(bad)))).toBe(false);
    expect(await exists(displayImageKey(sha(bad)))).toBe(false);
  });
});

describe('orphan sweep (issue 25 §5)', () => {
  it('removes stored bytes no record points at after the grace period, and nothing else', async () => {
    // left behind with no record: an original, a staged upload, a picture
    const lost = sha(pdf());
    const lostPicture = sha(png());
    const stale = `staging/${randomBytes(16).toString('hex')}`;
    await store.put(originalKey(lost), Buffer.from('lost'));
    await store.put(displayImageKey(lostPicture), Buffer.from('webp'));
    await store.put(stale, Buffer.from('half an upload'));
    // recorded: a document and a picture
    const kept = pdf();
    await upload(user(), kept);
    const picture = png();
    await call('displayImage.register', { purpose: 'displayImage', ...(await stage(picture)), name: 'p.png' }, user());
    // the job runs every second with ORPHAN_GRACE_MS=60000: first seen, not yet removed
    await eventually(async () => {
      const { rows } = await db.query('SELECT 1 FROM files.orphan_candidates WHERE key = ANY($1)', [
        [originalKey(lost), stale, displayImageKey(lostPicture)],
      ]);
      return rows.length === 3;
    }, 10_000);
    expect(await exists(originalKey(lost))).toBe(true);
    // a minute later (as the sweep sees it)
    await db.query("UPDATE files.orphan_candidates SET first_seen = first_seen - interval '2 minutes'");
    await eventually(
      async () =>
        !(await exists(originalKey(lost))) && !(await exists(stale)) && !(await exists(displayImageKey(lostPicture))),
      10_000,
    );
    expect(await exists(originalKey(sha(kept)))).toBe(true);
    expect(await exists(originalKey(sha(picture)))).toBe(true);
    expect(await exists(displayImageKey(sha(picture)))).toBe(true);
  });
});
