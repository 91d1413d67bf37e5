/**
 * Board chat speed (issue 16, SPEC C*) on a real realtime node over websockets.
 *
 * Stack (startStack, NODE_ENV=production as the realtime bench runs it): services/auth,
 * services/boards and one realtime node with its own database / NATS / Redis prefix. Boards are
 * rows written straight into boards.boards (default permission: edit); clients are
 * ChatTestClients in this process connecting to the node with a signed actor header.
 *
 * 1. classroom: 31 people in one room; one message every `--interval` ms (default 100), the sender
 *    rotating over all 31 so nobody nears the per-person rate limit (C4: 5 per 5 s); each
 *    message is timed from `say()` until the last of the 30 others has it (the message is stored
 *    in PostgreSQL before it is broadcast, so this includes the insert). `--messages` timed
 *    (default 320) after `--warmup` untimed (default 20). Target p99 ≤ 100 ms.
 * 2. history: 10,000 messages for a fresh board inserted with SQL (plus 40,000 on 40 other
 *    boards, so the index is not the board's alone); a teacher opens the room, then `--loads`
 *    (default 20) fresh clients each join, get in sync and ask for the first CHAT_HISTORY page:
 *    request → page (target ≤ 50 ms) and connect → page are timed.
 *
 *   node --import tsx services/realtime/bench/chat.ts [--messages 320] [--warmup 20]
 *        [--interval 100] [--history 10000] [--loads 20] [--json out.json]
 *
 * Needs the test PostgreSQL, NATS and Redis (`make infra`, or what `npx jest` uses).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger, createPool } from '@wb/platform';
import type { Pool } from '@wb/platform';
import { eventually, freePort, randomId, sleep, startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import { RT_LIMITS } from '@wb/proto';
import { SCHEMA } from '../src/repositories/journal';
import { ChatTestClient } from '../src/testing/chatClient';
import { connectClient } from '../src/testing/wsClient';
import type { WsConnection } from '../src/testing/wsClient';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '31' },
    messages: { type: 'string', default: '320' },
    warmup: { type: 'string', default: '20' },
    interval: { type: 'string', default: '100' },
    history: { type: 'string', default: '10000' },
    loads: { type: 'string', default: '20' },
    json: { type: 'string' },
  },
});
const CLIENTS = Number(args.clients);
const MESSAGES = Number(args.messages);
const WARMUP = Number(args.warmup);
const INTERVAL_MS = Number(args.interval);
const HISTORY = Number(args.history);
const LOADS = Number(args.loads);
const SECRET = randomBytes(32).toString('hex');
const NODE = 'services/realtime';
const TEACHER = 1;
const TARGET_DELIVERY_P99_MS = 100;
const TARGET_FIRST_PAGE_MS = 50;

// the rotation must keep every sender under C4's rate (with room to spare for timer jitter)
const perPersonMs = CLIENTS * INTERVAL_MS;
if (perPersonMs < (RT_LIMITS.chatRateWindowMs / RT_LIMITS.chatRateMessages) * 1.5)
  throw new Error(`${CLIENTS} senders every ${INTERVAL_MS} ms would hit the chat rate limit (C4)`);

const secret = (): string => randomBytes(32).toString('hex');
interface Summary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}
function summary(values: number[]): Summary {
  const s = [...values].sort((x, y) => x - y);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] ?? NaN;
  const r = (v: number): number => Math.round(v * 10) / 10;
  return { n: s.length, p50: r(q(0.5)), p90: r(q(0.9)), p99: r(q(0.99)), max: r(s.at(-1) ?? NaN) };
}
const fmt = (s: Summary): string => `p50 ${s.p50} · p90 ${s.p90} · p99 ${s.p99} · max ${s.max} ms (n=${s.n})`;

let stack: RunningStack | undefined;
let pool: Pool | undefined;
let snapshots: string | undefined;
const open: WsConnection[] = [];

async function newBoard(title: string): Promise<string> {
  const id = `chatbench${randomId()}${randomId()}`.slice(0, 21);
  await pool!.query(`INSERT INTO boards.boards (id, user_id, title) VALUES ($1, $2, $3)`, [id, TEACHER, title]);
  return id;
}

async function enter(nodeUrl: string, boardId: string, client: ChatTestClient): Promise<WsConnection> {
  const conn = await connectClient(nodeUrl, boardId, client, { secret: SECRET, timeoutMs: 20_000 });
  open.push(conn);
  let closed: string | null = null;
  void conn.closed.then((c) => (closed = `${c.code} ${c.reason}`));
  await eventually(() => client.inSync || closed !== null, 20_000, 2, `client ${client.userId} in sync`);
  if (closed !== null) throw new Error(`client ${client.userId} closed: ${String(closed)}`);
  return conn;
}

/** 1. one message every INTERVAL_MS, timed until all the others have it */
async function classroom(nodeUrl: string) {
  const boardId = await newBoard('chat classroom');
  const clients: ChatTestClient[] = [];
  for (let i = 0; i < CLIENTS; i++) clients.push(new ChatTestClient(TEACHER + i, `Person ${i + 1}`));
  for (const c of clients) await enter(nodeUrl, boardId, c);

  const total = WARMUP + MESSAGES;
  const sentAt = new Array<number>(total).fill(NaN);
  /** per message: arrival times at the others */
  const arrivals: number[][] = Array.from({ length: total }, () => []);
  const echoAt = new Array<number>(total).fill(NaN);
  clients.forEach((c, idx) => {
    c.onChat = (m) => {
      const now = performance.now();
      const seq = Number(/^#(\d+) /.exec(m.text)?.[1] ?? -1);
      if (!(seq >= 0 && seq < total)) return;
      if (seq % CLIENTS === idx)
        echoAt[seq] = now; // the sender's own copy (its ack)
      else arrivals[seq]!.push(now);
    };
  });

  const started = performance.now();
  for (let seq = 0; seq < total; seq++) {
    // a steady pace: wait for the slot rather than sleeping a fixed time after each send
    const slot = started + seq * INTERVAL_MS;
    const wait = slot - performance.now();
    if (wait > 0) await sleep(wait);
    const sender = clients[seq % CLIENTS]!;
    sentAt[seq] = performance.now();
    sender.say(`#${seq} a question about exercise ${seq % 12}: how do I start? see https://example.com/ex/${seq}`);
  }
  const others = CLIENTS - 1;
  await eventually(() => arrivals.every((a) => a.length >= others), 10_000, 2, 'every message at every client').catch(
    () => undefined,
  );

  const full: number[] = [];
  const each: number[] = [];
  const echo: number[] = [];
  let lost = 0;
  for (let seq = WARMUP; seq < total; seq++) {
    const a = arrivals[seq]!;
    if (a.length < others) {
      lost++;
      continue;
    }
    full.push(Math.max(...a) - sentAt[seq]!);
    for (const t of a) each.push(t - sentAt[seq]!);
    if (!Number.isNaN(echoAt[seq]!)) echo.push(echoAt[seq]! - sentAt[seq]!);
  }
  const errors = clients.flatMap((c) => c.errors.map((e) => e.code));
  const elapsedS = (performance.now() - started) / 1000;
  return {
    clients: CLIENTS,
    intervalMs: INTERVAL_MS,
    messagesTimed: MESSAGES,
    warmup: WARMUP,
    ratePerS: Math.round((total / elapsedS) * 10) / 10,
    lost,
    errors: [...new Set(errors)],
    allOthers: summary(full),
    perDelivery: summary(each),
    senderEcho: summary(echo),
  };
}

/** 2. first history page of a board with HISTORY messages */
async function history(nodeUrl: string) {
  const boardId = await newBoard('chat history');
  const seeded = performance.now();
  // the board's messages, oldest first, a minute apart; every 31st from a guest
  await pool!.query(
    `INSERT INTO ${SCHEMA}.chat_messages (board_id, author_id, author_name, text, created_at)
     SELECT $1, CASE WHEN g % 31 = 0 THEN 0 ELSE 1 + g % 31 END, 'Person ' || (g % 31),
            'message ' || g || ': ' || repeat('words and more words ', 1 + g % 5),
            now() - ($2 - g) * interval '1 minute'
     FROM generate_series(1, $2::int) g`,
    [boardId, HISTORY],
  );
  // other boards' messages interleaved in the same table and index
  await pool!.query(
    `INSERT INTO ${SCHEMA}.chat_messages (board_id, author_id, author_name, text)
     SELECT 'other' || (g % 40), 1 + g % 31, 'Person', 'another board ' || g FROM generate_series(1, 40000) g`,
  );
  await pool!.query(`ANALYZE ${SCHEMA}.chat_messages`);
  const seedMs = Math.round(performance.now() - seeded);

  // the teacher opens the room: the loads below time the chat, not opening the board
  const teacher = new ChatTestClient(TEACHER, 'Teacher');
  await enter(nodeUrl, boardId, teacher);
  const request: number[] = [];
  const fromConnect: number[] = [];
  let pageSize = 0;
  let more = false;
  for (let i = 0; i < LOADS; i++) {
    const c = new ChatTestClient(1000 + i, `Late ${i}`);
    const t0 = performance.now();
    const conn = await enter(nodeUrl, boardId, c);
    const t1 = performance.now();
    c.history();
    await eventually(() => c.pages.length > 0 || c.errors.length > 0, 10_000, 2, 'the first history page');
    const t2 = performance.now();
    if (c.errors.length > 0) throw new Error(`history: ${c.errors[0]!.code} ${c.errors[0]!.message}`);
    request.push(t2 - t1);
    fromConnect.push(t2 - t0);
    pageSize = c.pages[0]!.messages.length;
    more = c.pages[0]!.more;
    if (c.pages[0]!.messages.at(-1)?.text.startsWith(`message ${HISTORY}:`) !== true)
      throw new Error('the first page does not end with the newest message');
    conn.close();
    open.splice(open.indexOf(conn), 1);
  }
  return {
    messages: HISTORY,
    otherBoardsMessages: 40000,
    seedMs,
    loads: LOADS,
    pageSize,
    more,
    requestToPage: summary(request),
    connectToPage: summary(fromConnect),
  };
}

async function main(): Promise<void> {
  process.stdout.write(
    `chat bench: ${CLIENTS} clients, a message every ${INTERVAL_MS} ms; history of ${HISTORY} (load average ${loadavg()[0]!.toFixed(2)}, ${cpus().length} cores)\n`,
  );
  snapshots = await mkdtemp(join(tmpdir(), 'wb-chat-bench-'));
  const port = await freePort();
  stack = await startStack({
    deployables: ['services/auth', 'services/boards', NODE],
    // as scripts/lib/bench.ts productionStackEnv: production mode needs its secrets, fresh per run
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      AUTH_TOKEN_SECRET: secret(),
      SESSION_SECRET: secret(),
      CSRF_SECRET: secret(),
      RT_SHARED_SECRET: SECRET,
    },
    envFor: { [NODE]: { RT_NODE_ID: 'rt-chat-bench', RT_PORT: String(port), SNAPSHOT_DIR: snapshots } },
    readyTimeoutMs: 60_000,
  });
  const log = createLogger({ service: 'chat-bench', level: 'silent' });
  pool = createPool({ url: stack.databaseUrl, schema: SCHEMA, poolSize: 2, log });
  const nodeUrl = `ws://127.0.0.1:${port}`;

  const cls = await classroom(nodeUrl);
  for (const c of open.splice(0)) c.close();
  process.stdout.write(
    `\nclassroom: ${cls.clients} in one room, ${cls.messagesTimed} timed messages (+${cls.warmup} warm-up) at ${cls.ratePerS}/s, lost ${cls.lost}, errors [${cls.errors.join(', ')}]\n` +
      `  send → all ${cls.clients - 1} others have it: ${fmt(cls.allOthers)}\n` +
      `  send → each delivery:             ${fmt(cls.perDelivery)}\n` +
      `  send → sender's own echo:         ${fmt(cls.senderEcho)}\n`,
  );
  const hist = await history(nodeUrl);
  process.stdout.write(
    `\nhistory: ${hist.messages} messages on the board (+${hist.otherBoardsMessages} on other boards, seeded in ${hist.seedMs} ms), page of ${hist.pageSize} (more: ${String(hist.more)}), ${hist.loads} fresh clients\n` +
      `  CHAT_HISTORY → first page: ${fmt(hist.requestToPage)}\n` +
      `  connect → first page:      ${fmt(hist.connectToPage)}\n`,
  );
  const deliveryOk = cls.lost === 0 && cls.allOthers.p99 <= TARGET_DELIVERY_P99_MS;
  const pageOk = hist.requestToPage.p50 <= TARGET_FIRST_PAGE_MS && hist.requestToPage.p99 <= TARGET_FIRST_PAGE_MS;
  process.stdout.write(
    `\ntargets: delivery p99 ≤ ${TARGET_DELIVERY_P99_MS} ms: ${deliveryOk ? 'met' : 'MISSED'} (${cls.allOthers.p99}); ` +
      `first page ≤ ${TARGET_FIRST_PAGE_MS} ms: ${pageOk ? 'met' : 'MISSED'} (median ${hist.requestToPage.p50}, p99 ${hist.requestToPage.p99})\n`,
  );
  if (args.json)
    await writeFile(args.json, `${JSON.stringify({ classroom: cls, history: hist, deliveryOk, pageOk }, null, 2)}\n`);
}

main()
  .catch((err: unknown) => {
    process.exitCode = 1;
    process.stderr.write(`chat bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  })
  .finally(async () => {
    for (const c of open.splice(0)) c.close();
    await pool?.end().catch(() => undefined);
    await stack?.stop().catch(() => undefined);
    if (snapshots) await rm(snapshots, { recursive: true, force: true });
  });
