/**
 * Test helper (objectStore.test.ts), run as its own process: streams a generated object of N
 * bytes into the store the options describe and prints how far this process's RSS rose above
 * where it stood once warm. Its own process so the figure is the driver's alone: not jest's heap,
 * not the S3 server's (s3rver runs in the test process, as MinIO runs elsewhere in production).
 *
 * Run with --expose-gc: the generator collects garbage every 8 MiB it makes, so the figure is
 * what the driver holds, not how late V8 gets round to the 64 KB chunks already written (without
 * it: fs +21 MB for 64 MB and for 256 MB alike, s3 +18…33 MB).
 *
 *   node --expose-gc --import tsx rssProbe.ts '{"opts":{...},"key":"k","bytes":67108864}'
 */
import { createHash, randomFillSync } from 'node:crypto';
import { Readable } from 'node:stream';
import { openObjectStore } from './index';
import type { ObjectStoreOptions } from './types';

interface ProbeArgs {
  opts: ObjectStoreOptions;
  key: string;
  bytes: number;
}

function generated(total: number): { body: Readable; hash: ReturnType<typeof createHash> } {
  const hash = createHash('sha256');
  let sent = 0;
  async function* chunks() {
    while (sent < total) {
      const b = randomFillSync(Buffer.allocUnsafe(Math.min(64 * 1024, total - sent)));
      hash.update(b);
      sent += b.length;
      if (sent % (8 * 1024 * 1024) === 0) (globalThis as { gc?: () => void }).gc?.();
      yield b;
    }
  }
  return { body: Readable.from(chunks()), hash };
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2]!) as ProbeArgs;
  const { store } = await openObjectStore(args.opts);
  // warm: the code paths loaded and compiled once, as in a service that has served uploads
  await store.putStream(`${args.key}.warm`, generated(16 * 1024 * 1024).body);
  await store.delete([`${args.key}.warm`]);
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 2);
  const started = performance.now();
  const src = generated(args.bytes);
  const info = await store.putStream(args.key, src.body);
  const ms = performance.now() - started;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss());
  process.stdout.write(
    JSON.stringify({ size: info.size, sha256: src.hash.digest('hex'), rssGrowth: peak - base, baseRss: base, ms }),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
