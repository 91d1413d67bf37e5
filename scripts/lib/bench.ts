/** What the benchmarks share: the stack's environment as production runs it, load and output helpers. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import autocannon from 'autocannon';
import type { InfraUrls } from './infra';
import { ARTIFACTS_DIR, ROOT } from './paths';

/**
 * NODE_ENV=production (replies are not re-validated against their schemas, as in production)
 * with the secrets production requires, fresh per run; quiet logs.
 */
export function productionStackEnv(): Record<string, string> {
  const secret = (): string => randomBytes(32).toString('hex');
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    AUTH_TOKEN_SECRET: secret(),
    SESSION_SECRET: secret(),
    CSRF_SECRET: secret(),
  };
}

/** startStack's infrastructure options for what ensureInfra found (each stack makes its own database) */
export function stackInfra(infra: InfraUrls): { postgresUrl: string; natsUrl: string; redisUrl: string } {
  const server = new URL(infra.databaseUrl);
  server.pathname = '';
  return { postgresUrl: server.toString().replace(/\/$/, ''), natsUrl: infra.natsUrl, redisUrl: infra.redisUrl };
}

/** one autocannon run, as a promise */
export function runAutocannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result),
    );
  });
}

/** BENCH_NODE_OPTIONS (e.g. `--max-old-space-size=512`; `--cpu-prof` is refused in NODE_OPTIONS) for the named deployables */
export function benchNodeOptions(dirs: string[]): { envFor?: Record<string, Record<string, string>> } {
  const options = process.env.BENCH_NODE_OPTIONS;
  return options ? { envFor: Object.fromEntries(dirs.map((d) => [d, { NODE_OPTIONS: options }])) } : {};
}

/**
 * Write artifacts/bench/<name>.json: `at` and the machine first, then the benchmark's own fields;
 * returns the path relative to the repository.
 */
export function writeBenchResult(name: string, result: Record<string, unknown>): string {
  const dir = join(ARTIFACTS_DIR, 'bench');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `${name}.json`);
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
  };
  writeFileSync(out, `${JSON.stringify({ at: new Date().toISOString(), machine, ...result }, null, 2)}\n`);
  return relative(ROOT, out);
}
