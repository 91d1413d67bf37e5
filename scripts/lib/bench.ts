/** What the benchmarks share: the stack's environment as production runs it, load and output helpers. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import autocannon from 'autocannon';
import { profileHook } from './cpuProfile';
import type { InfraUrls } from './infra';
import { describeError, log } from './log';
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
    RT_SHARED_SECRET: secret(),
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

/**
 * Env of one server process: BENCH_NODE_OPTIONS (e.g. `--max-old-space-size=512`; `--cpu-prof` is
 * refused in NODE_OPTIONS), the CPU-profile preload when `profileDir` is given (the profile is
 * named `name`), and `extra` options.
 */
export function serverNodeEnv(name: string, profileDir?: string, extra?: string): Record<string, string> {
  const hook = profileDir ? profileHook(profileDir, name) : {};
  const options = [process.env.BENCH_NODE_OPTIONS, hook.NODE_OPTIONS, extra].filter(Boolean).join(' ');
  return { ...hook, ...(options ? { NODE_OPTIONS: options } : {}) };
}

/** startStack's envFor giving the named deployables `serverNodeEnv` (profiles named after the directory) */
export function benchNodeOptions(
  dirs: string[],
  profileDir?: string,
): { envFor: Record<string, Record<string, string>> } {
  return { envFor: Object.fromEntries(dirs.map((d) => [d, serverNodeEnv(d.split('/').at(-1)!, profileDir)])) };
}

/**
 * Run a benchmark's main: an error is logged and exits 1; `cleanup` always runs, then `after`
 * (e.g. reading profiles the servers wrote on exit); the process exits with main's code.
 */
export function runBench(main: () => Promise<number>, cleanup: () => Promise<void>, after?: () => void): void {
  void main()
    .catch((err: unknown) => {
      log.error(describeError(err));
      return 1;
    })
    .then(async (code) => {
      await cleanup();
      after?.();
      process.exit(code);
    });
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
