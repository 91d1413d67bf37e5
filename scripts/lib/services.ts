/**
 * Starting the deployables (`node <pkg>/dist/main.js`) as child processes for `make up`: env,
 * ports, readiness (`GET /readyz` on each one's HEALTH_PORT) and log prefixing.
 */
import { join } from 'node:path';
import { c, log, palette } from './log';
import { formatLogLine } from './pretty';
import { ROOT } from './paths';
import { ManagedProcess, waitFor } from './proc';
import { freePort } from './ports';
import { instanceEnv, instancesOf, type Deployable, type Instance } from './deployables';

export interface RunningInstance {
  inst: Instance;
  proc: ManagedProcess;
  healthPort: number;
}

export interface StartOptions {
  /** env every deployable gets (URLs, prefixes, APP_URL, MAIL_OUTBOX_DIR…) */
  env: Record<string, string>;
  /** HTTP port of the gateway */
  httpPort: number;
  /** where to print log lines */
  print: (line: string) => void;
  readyTimeoutMs?: number;
}

export async function isReady(healthPort: number): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${healthPort}/readyz`, { signal: AbortSignal.timeout(2000) });
  await res.arrayBuffer().catch(() => undefined);
  return res.status === 200;
}

/**
 * Start every instance of every deployable, group by group (same `order` in parallel), waiting for
 * each group to be ready before the next. `started` receives each process as soon as it runs, so
 * the caller can stop them even when this throws.
 */
export async function startDeployables(
  deployables: Deployable[],
  opts: StartOptions,
  started: RunningInstance[],
): Promise<void> {
  const all = deployables.flatMap(instancesOf);
  const width = Math.max(8, ...all.map((i) => i.label.length)) + 1;
  const groups = new Map<number, Instance[]>();
  for (const inst of all) groups.set(inst.deployable.order, [...(groups.get(inst.deployable.order) ?? []), inst]);
  let colour = 0;
  for (const [, group] of [...groups.entries()].sort((a, b) => a[0] - b[0])) {
    const batch: RunningInstance[] = [];
    for (const inst of group) {
      const paint = palette[colour++ % palette.length]!;
      const healthPort = await freePort();
      const env: Record<string, string> = { ...opts.env, ...instanceEnv(inst), HEALTH_PORT: String(healthPort) };
      for (const v of inst.deployable.ports) env[v] = String(await freePort());
      if (inst.deployable.dir === 'gateway') env.HTTP_PORT = String(opts.httpPort);
      const proc = new ManagedProcess(inst.label, process.execPath, [join(inst.deployable.dir, 'dist', 'main.js')], {
        cwd: ROOT,
        env: { ...process.env, ...env },
        onLine: (line) => opts.print(formatLogLine(inst.label, line, paint, width)),
      });
      const ports = [`health ${healthPort}`, ...inst.deployable.ports.map((v) => `${v} ${env[v]}`)];
      if (env.HTTP_PORT && inst.deployable.dir === 'gateway') ports.unshift(`http ${env.HTTP_PORT}`);
      log.info(`${c.bold(inst.label)} started ${c.gray(`(pid ${proc.pid}, ${ports.join(', ')})`)}`);
      const running = { inst, proc, healthPort };
      batch.push(running);
      started.push(running);
    }
    await Promise.all(
      batch.map(({ inst, proc, healthPort }) =>
        waitFor(`${inst.label} /readyz`, () => isReady(healthPort), {
          timeoutMs: opts.readyTimeoutMs ?? 60_000,
          intervalMs: 250,
          abort: () => (proc.alive ? undefined : `exited with ${exitText(proc)} before it was ready`),
        }).then(() => log.ok(`${inst.label} ready`)),
      ),
    );
  }
}

export function exitText(proc: ManagedProcess): string {
  const e = proc.exitInfo;
  if (!e) return 'still running';
  return e.signal ? `signal ${e.signal}` : `code ${e.code}`;
}

/** Stop instances in reverse start order (the gateway first), each by its PID. */
export async function stopDeployables(started: RunningInstance[]): Promise<void> {
  const byOrder = new Map<number, RunningInstance[]>();
  for (const r of started) byOrder.set(r.inst.deployable.order, [...(byOrder.get(r.inst.deployable.order) ?? []), r]);
  for (const [, group] of [...byOrder.entries()].sort((a, b) => b[0] - a[0])) {
    await Promise.all(group.map((r) => r.proc.stop(15_000)));
  }
}

export function failureReport(r: RunningInstance, lines = 40): string {
  const tail = r.proc.recentLines().slice(-lines);
  return `${r.inst.label} (pid ${r.proc.pid}) exited with ${exitText(r.proc)}; its last output:\n${tail.map((l) => `    ${l}`).join('\n')}`;
}
