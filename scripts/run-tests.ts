/**
 * `make test`: everything CI checks, in one command, against real PostgreSQL, NATS and Redis.
 *
 *   install → infrastructure (used if it answers, else started under .data/ and stopped at the end)
 *   → tsc -b → tsc -p scripts (+ service benches) → tsc -p web → eslint → prettier --check → web build → jest
 *
 * A failing tsc -b stops the run (the tests import the built packages); every other step runs
 * regardless so one run shows every problem. Exits 1 when any step failed. The last line is
 * `jest: N passed, N failed, N skipped` (tests, from jest's JSON report).
 *
 * Options (ARGS="…" with make): --no-lint, --no-format, --no-web, --only-jest;
 * anything after `--` goes to jest (e.g. ARGS="-- services/auth").
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { c, describeError, log } from './lib/log';
import { ensureConverterPackages, ensureInstalled } from './lib/install';
import { ensureInfra, type Infra } from './lib/infra';
import { ARTIFACTS_DIR, ROOT } from './lib/paths';
import { run } from './lib/proc';

interface Step {
  name: string;
  ok: boolean;
  seconds: number;
}

const steps: Step[] = [];
let infra: Infra | undefined;

async function step(name: string, cmd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<boolean> {
  log.step(name);
  const t0 = Date.now();
  const { code } = await run(cmd, args, { cwd: ROOT, env, check: false });
  const s: Step = { name, ok: code === 0, seconds: (Date.now() - t0) / 1000 };
  steps.push(s);
  if (!s.ok) log.error(`${name} failed (exit ${code})`);
  return s.ok;
}

interface JestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numTotalTestSuites: number;
  numFailedTestSuites: number;
  numRuntimeErrorTestSuites: number;
}

function summary(): void {
  console.log('');
  console.log(c.bold('  step                         result   time'));
  for (const s of steps) {
    const result = s.ok ? c.green('ok    ') : c.red('FAILED');
    console.log(`  ${s.name.padEnd(28)} ${result}  ${s.seconds.toFixed(1).padStart(6)} s`);
  }
  console.log('');
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const dashdash = argv.indexOf('--');
  const flags = new Set(dashdash >= 0 ? argv.slice(0, dashdash) : argv);
  const jestArgs = dashdash >= 0 ? argv.slice(dashdash + 1) : [];
  const onlyJest = flags.has('--only-jest');

  await ensureInstalled();
  // the conversion worker's tests run LibreOffice, poppler and mupdf (installed here when root)
  await ensureConverterPackages();
  log.step('infrastructure');
  infra = await ensureInfra(process.env);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: infra.databaseUrl,
    NATS_URL: infra.natsUrl,
    REDIS_URL: infra.redisUrl,
  };

  if (!(await step('typecheck (tsc -b)', 'npx', ['tsc', '-b']))) return 1;
  if (!onlyJest) {
    await step('typecheck scripts', 'npx', ['tsc', '-p', 'scripts']);
    // benchmarks that live beside a service are typed without being built
    for (const bench of ['services/realtime/bench']) {
      if (existsSync(join(ROOT, bench, 'tsconfig.json'))) await step(`typecheck ${bench}`, 'npx', ['tsc', '-p', bench]);
    }
    const web = !flags.has('--no-web') && existsSync(join(ROOT, 'web', 'tsconfig.json'));
    if (web) await step('typecheck web', 'npx', ['tsc', '-p', 'web']);
    if (!flags.has('--no-lint')) await step('lint (eslint)', 'npm', ['run', 'lint', '--silent']);
    if (!flags.has('--no-format')) await step('format (prettier --check)', 'npm', ['run', 'format:check', '--silent']);
    if (web && existsSync(join(ROOT, 'web', 'index.html'))) {
      // the tests' build includes the UI kit's catalogue (/_ui), which the Chromium tests screenshot
      await step('build web (vite)', 'npm', ['run', 'build', '-w', '@wb/web', '--silent'], {
        ...process.env,
        VITE_UI_CATALOGUE: 'true',
      });
    }
  }

  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const report = join(ARTIFACTS_DIR, 'jest-results.json');
  const ci = process.env.CI ? ['--ci'] : [];
  await step('jest', 'npx', ['jest', ...ci, '--json', `--outputFile=${report}`, ...jestArgs], env);

  summary();
  let closing = '';
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8')) as JestReport;
    const brokenSuites = r.numFailedTestSuites;
    if (brokenSuites > 0) console.log(c.red(`  ${brokenSuites} of ${r.numTotalTestSuites} test files failed`));
    // a test file that does not even load counts as one failure
    const failedTests = r.numFailedTests + r.numRuntimeErrorTestSuites;
    closing = `jest: ${r.numPassedTests} passed, ${failedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`;
  }
  const failed = steps.filter((s) => !s.ok);
  if (failed.length > 0) log.error(`failed: ${failed.map((s) => s.name).join(', ')}`);
  else log.ok('all steps passed');
  if (closing) console.log(closing);
  return failed.length > 0 ? 1 : 0;
}

let exiting = false;
async function finish(code: number): Promise<never> {
  if (!exiting) {
    exiting = true;
    await infra?.stop().catch(() => undefined);
  }
  process.exit(code);
}
process.on('SIGINT', () => void finish(130));
process.on('SIGTERM', () => void finish(143));

main().then(
  (code) => finish(code),
  async (err: unknown) => {
    log.error(describeError(err));
    await finish(1);
  },
);
