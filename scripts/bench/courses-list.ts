/**
 * Courses list benchmark (issue 29): GET /api/courses through the real gateway → NATS → courses
 * service, for a teacher who owns 200 courses and a student who attends 50 of them, each at a
 * fixed 100 requests/s (open loop, scripts/lib/pacedLoad.ts; latency from each request's due time).
 *
 * Stack: services/auth, services/courses and the gateway (startStack, NODE_ENV=production). Both
 * users sign up through the gateway; courses (3 lessons and 10 items each), participants and some
 * progress are seeded straight into the test database.
 *
 * Anchor, in the same run and at the same rate: GET /api/user (the smallest signed-in request
 * through the same gateway → NATS → service path, answered by auth), the floor any list can reach here.
 *
 * Prints the figures, writes artifacts/bench/courses-list.json. Target: p99 ≤ 30 ms at 100 req/s.
 * BENCH_STRICT=1 → exit 1 when missed. Env: BENCH_RATE (100), BENCH_DURATION (s, 15), BENCH_WARMUP
 * (s, 3), BENCH_COURSES (200), BENCH_ATTENDED (50).
 */
import pg from 'pg';
import { signUp, startStack, type RunningStack } from '@wb/platform/testing';
import { productionStackEnv, runBench, stackInfra, writeBenchResult } from '../lib/bench';
import { ensureInfra, type Infra } from '../lib/infra';
import { pacedLoad } from '../lib/pacedLoad';
import type { PacedResult } from '../lib/pacedLoad';
import { c, describeError, log, UserFacingError } from '../lib/log';

const RATE = Number(process.env.BENCH_RATE ?? 100);
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const COURSES = Number(process.env.BENCH_COURSES ?? 200);
const ATTENDED = Number(process.env.BENCH_ATTENDED ?? 50);
const TARGET_P99_MS = 30;

let infra: Infra | undefined;
let stack: RunningStack | undefined;

async function cleanup(): Promise<void> {
  await stack?.stop().catch((err: unknown) => log.warn(`stack stop: ${describeError(err)}`));
  await infra?.stop();
}

/** the teacher's courses, 3 lessons and 10 items each; the student in the first ATTENDED with progress on 2 items each */
async function seed(databaseUrl: string, teacherId: number, studentId: number): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO courses.courses (owner_id, name, created_at, updated_at)
       SELECT $1, 'Course ' || g, now() - g * interval '1 hour', now() FROM generate_series(1, $2::int) g`,
      [teacherId, COURSES],
    );
    await db.query(
      `INSERT INTO courses.lessons (course_id, name, position) SELECT c.id, 'Lesson ' || g, g
       FROM courses.courses c, generate_series(1, 3) g`,
    );
    await db.query(
      `INSERT INTO courses.items (course_id, lesson_id, position, kind, title, payload)
       SELECT c.id, (SELECT min(l.id) FROM courses.lessons l WHERE l.course_id = c.id), g, 'link', 'Link ' || g,
              jsonb_build_object('kind', 'link', 'url', 'https://example.com/' || g)
       FROM courses.courses c, generate_series(1, 10) g`,
    );
    await db.query(
      `INSERT INTO courses.participants (course_id, user_id)
       SELECT id, $1 FROM courses.courses ORDER BY id LIMIT $2`,
      [studentId, ATTENDED],
    );
    await db.query(
      `INSERT INTO courses.progress (item_id, user_id, course_id, viewed_at)
       SELECT i.id, $1, i.course_id, now() FROM courses.items i
       JOIN courses.participants p ON p.course_id = i.course_id AND p.user_id = $1 WHERE i.position <= 2`,
      [studentId],
    );
    await db.query('ANALYZE');
  } finally {
    await db.end();
  }
}

async function measure(
  who: string,
  url: string,
  cookie: string,
  expect: (body: unknown) => boolean,
  what = 'GET /api/courses',
): Promise<PacedResult> {
  const headers = { cookie, accept: 'application/json', 'accept-encoding': 'gzip, deflate, br, zstd' };
  const check = await fetch(url, { headers: { cookie, accept: 'application/json' } });
  const text = await check.text();
  if (!check.ok || !expect(JSON.parse(text)))
    throw new UserFacingError(`${what} (${who}): ${check.status} ${text.slice(0, 200)}`);
  log.ok(`${who}: ${(text.length / 1024).toFixed(0)} KiB`);
  if (WARMUP > 0) await pacedLoad(url, headers, RATE, WARMUP);
  log.step(`${who}: ${DURATION} s at ${RATE} req/s`);
  return pacedLoad(url, headers, RATE, DURATION);
}

async function main(): Promise<number> {
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  process.on('SIGTERM', () => void cleanup().then(() => process.exit(143)));
  log.step('infrastructure');
  infra = await ensureInfra(process.env);
  log.step('starting services/auth, services/courses and the gateway (startStack, NODE_ENV=production)');
  stack = await startStack({
    deployables: ['services/auth', 'services/courses', 'gateway'],
    env: productionStackEnv(),
    ...stackInfra(infra),
  });
  const teacher = await signUp(stack.gatewayUrl, 'Bench Teacher');
  const student = await signUp(stack.gatewayUrl, 'Bench Student');
  log.step(`seeding ${COURSES} courses; the student in ${ATTENDED}`);
  await seed(stack.databaseUrl, teacher.id, student.id);

  const url = `${stack.gatewayUrl}/api/courses`;
  type Lists = { owned: unknown[]; attended: unknown[] };
  const teacherRun = await measure(
    'teacher',
    url,
    teacher.browser.cookieHeader(),
    (b) => (b as Lists).owned.length === COURSES,
  );
  const studentRun = await measure(
    'student',
    url,
    student.browser.cookieHeader(),
    (b) => (b as Lists).attended.length === ATTENDED,
  );

  const anchorRun = await measure(
    'anchor',
    `${stack.gatewayUrl}/api/user`,
    teacher.browser.cookieHeader(),
    (b) => (b as { id?: number }).id === teacher.id,
    'GET /api/user',
  );

  const ok = (r: PacedResult) => r.p99 <= TARGET_P99_MS && r.non2xx === 0 && r.errors === 0;
  const met = ok(teacherRun) && ok(studentRun);
  console.log('');
  for (const [who, r] of [
    [`teacher, ${COURSES} courses`, teacherRun],
    [`student, ${ATTENDED} courses`, studentRun],
  ] as const) {
    console.log(
      `  GET /api/courses (${who}) at ${RATE} req/s for ${DURATION} s: p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms` +
        ` (${r.ok} ok, ${r.non2xx} non-2xx, ${r.errors} errors)`,
    );
  }
  console.log(
    `  anchor GET /api/user at ${RATE} req/s: p50 ${anchorRun.p50} ms, p99 ${anchorRun.p99} ms, max ${anchorRun.max} ms`,
  );
  console.log(`  target p99 ≤ ${TARGET_P99_MS} ms: ${met ? c.green('met') : c.red('MISSED')}`);
  const result = {
    scenario: { courses: COURSES, attended: ATTENDED, lessonsPerCourse: 3, itemsPerCourse: 10, nodeEnv: 'production' },
    settings: { rate: RATE, durationS: DURATION, warmupS: WARMUP, load: 'scripts/lib/pacedLoad.ts: open loop' },
    teacher: teacherRun,
    student: studentRun,
    anchor: { request: 'GET /api/user', ...anchorRun },
    target: { p99Ms: TARGET_P99_MS, met },
  };
  log.ok(`wrote ${writeBenchResult('courses-list', result)}`);
  return process.env.BENCH_STRICT === '1' && !met ? 1 : 0;
}

runBench(main, cleanup);
