/**
 * The dedupe hit, service side: `doc.get` then `doc.add` of bytes already stored, over NATS to a
 * real files service (auth's plan.get answered by a fake on the same prefix, as in the tests).
 * The target is ≤ 20 ms p99 through the gateway; this measures the service's part.
 *
 *   npx tsc -b services/files && node --import tsx services/files/bench/dedupe.ts [rounds=2000]
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBus, createLogger, FsObjectStore } from '@wb/platform';
import { startFakeAuth, startStack } from '@wb/platform/testing';
import { PLANS } from '@wb/proto';

const ROUNDS = Number(process.argv[2] ?? 2000);
const log = createLogger({ service: 'bench', level: 'silent' });

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wb-files-bench-'));
  const stack = await startStack({
    deployables: ['services/files'],
    env: { FILES_STORE: 'fs', FILES_DIR: dir, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
  });
  const bus = await connectBus({
    url: stack.env.NATS_URL!,
    prefix: stack.natsPrefix,
    name: 'bench',
    log,
    ensureStream: false,
  });
  const auth = await startFakeAuth(bus, log, { plan: () => PLANS.premium });
  const store = new FsObjectStore(dir);
  try {
    // one stored document, uploaded by user 1
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(1000)]);
    const docId = createHash('sha256').update(bytes).digest('hex');
    const stagingKey = `staging/${randomBytes(16).toString('hex')}`;
    await store.put(stagingKey, bytes);
    await bus.request(
      'files',
      'upload.register',
      { purpose: 'doc', stagingKey, sha256: docId, size: bytes.length, name: 'a.pdf' },
      { userId: 1 },
    );

    const times: number[] = [];
    for (let i = 0; i < ROUNDS + 200; i++) {
      const userId = 1000 + i; // a new person each round: the add really registers
      const t0 = process.hrtime.bigint();
      await bus.request('files', 'doc.get', { docId }, { userId });
      await bus.request('files', 'doc.add', { docId, name: 'b.pdf' }, { userId });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (i >= 200) times.push(ms); // the first 200 warm up the JIT and the pools
    }
    times.sort((a, b) => a - b);
    const result = { rounds: ROUNDS, p50: pct(times, 50), p99: pct(times, 99), max: times[times.length - 1] };
    process.stdout.write(
      `${JSON.stringify({ bench: 'files dedupe hit (doc.get + doc.add over NATS)', ...result, unit: 'ms' })}\n`,
    );
  } finally {
    await auth.stop();
    await bus.drain();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
