/** Shared set-up for the platform's integration tests: isolated database, NATS prefix, logs. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '../src/logger';
import type { Logger } from '../src/logger';
import { connectBus } from '../src/nats';
import type { Bus } from '../src/nats';
import { createPool, migrate } from '../src/db';
import type { Pool } from '../src/db';
import { DEFAULT_TEST_NATS_URL, deleteEventStream, randomId } from '../src/testing/stack';

export { eventually, sleep } from '../src/testing/wait';

export const NATS_URL = DEFAULT_TEST_NATS_URL;

export interface CapturedLog {
  log: Logger;
  lines: Array<Record<string, unknown>>;
}

/** A real pino logger whose lines are kept for assertions (level debug unless told). */
export function captureLog(level = 'debug'): CapturedLog {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString('utf8').split('\n'))
        if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { log: createLogger({ service: 'platform-test', level, destination }), lines };
}

/** A migrations folder in /tmp holding the given files. */
export function migrationsDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'wb-migrations-'));
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

export async function migratedPool(
  url: string,
  schema: string,
  log: Logger,
  files: Record<string, string> = {},
): Promise<Pool> {
  const pool = createPool({ url, schema, log, poolSize: 6 });
  await migrate(pool, { schema, dir: migrationsDir(files), log });
  return pool;
}

export async function testBus(log: Logger): Promise<Bus> {
  return connectBus({ url: NATS_URL, prefix: `t${randomId()}.`, name: 'platform-test', log });
}

export async function closeBus(bus: Bus | undefined): Promise<void> {
  if (!bus) return;
  await bus.drain().catch(() => undefined);
  await deleteEventStream(bus.prefix, NATS_URL);
}
