/**
 * Child processes of the dev scripts.
 *
 * `run` executes a one-shot command (npm, tsc, eslint…) with the terminal's stdio.
 * `startManaged` starts a long-running process (a database, a service) in its OWN process group
 * (`detached`), so a Ctrl-C in the terminal reaches only this script, which then stops what it
 * started in order (services first, infrastructure last) by PID. Every managed process still
 * running when this script exits (even through an uncaught error) gets SIGTERM.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createInterface } from 'node:readline';
import { UserFacingError } from './log';

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** throw when the exit code is not 0 (default true) */
  check?: boolean;
  /** capture stdout instead of inheriting it */
  capture?: boolean;
}

export interface RunResult {
  code: number;
  stdout: string;
}

export function run(cmd: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', opts.capture ? 'pipe' : 'inherit', 'inherit'],
    });
    let stdout = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => (stdout += chunk));
    child.on('error', (err) => reject(new UserFacingError(`could not run ${cmd}: ${err.message}`)));
    child.on('close', (code, signal) => {
      const exit = code ?? (signal ? 128 : 1);
      if (exit !== 0 && opts.check !== false) {
        reject(new UserFacingError(`\`${[cmd, ...args].join(' ')}\` failed (exit ${code ?? signal})`));
      } else {
        resolve({ code: exit, stdout });
      }
    });
  });
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ManagedOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
  /** every output line (stdout and stderr) */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  /** how many recent lines to keep for `recentLines()` (default 200) */
  keepLines?: number;
  /** signal that asks the process to stop (default SIGTERM; PostgreSQL: SIGINT = fast shutdown) */
  stopSignal?: NodeJS.Signals;
}

const running = new Set<ManagedProcess>();
let exitHookInstalled = false;

export class ManagedProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly exited: Promise<ExitInfo>;
  exitInfo: ExitInfo | undefined;
  /** set once stop() was called: an exit after that is expected */
  stopping = false;
  private readonly lines: string[] = [];

  constructor(
    readonly name: string,
    cmd: string,
    args: string[],
    private readonly opts: ManagedOptions = {},
  ) {
    const spawnOpts: SpawnOptions = {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    };
    if (opts.uid !== undefined) spawnOpts.uid = opts.uid;
    if (opts.gid !== undefined) spawnOpts.gid = opts.gid;
    this.child = spawn(cmd, args, spawnOpts);
    const keep = opts.keepLines ?? 200;
    const onLine = (stream: 'stdout' | 'stderr') => (line: string) => {
      this.lines.push(line);
      if (this.lines.length > keep) this.lines.shift();
      opts.onLine?.(line, stream);
    };
    if (this.child.stdout) createInterface({ input: this.child.stdout }).on('line', onLine('stdout'));
    if (this.child.stderr) createInterface({ input: this.child.stderr }).on('line', onLine('stderr'));
    this.exited = new Promise((resolve) => {
      this.child.on('error', (err) => {
        this.lines.push(`[could not start ${cmd}: ${err.message}]`);
        this.exitInfo = { code: 127, signal: null };
        running.delete(this);
        resolve(this.exitInfo);
      });
      this.child.on('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        running.delete(this);
        resolve(this.exitInfo);
      });
    });
    this.pid = this.child.pid ?? -1;
    running.add(this);
    installExitHook();
  }

  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  recentLines(): string[] {
    return [...this.lines];
  }

  /** Ask the process to stop (its stop signal), SIGKILL after `timeoutMs`; resolves on exit. */
  async stop(timeoutMs = 15_000): Promise<ExitInfo> {
    this.stopping = true;
    if (!this.alive) return this.exitInfo!;
    this.signal(this.opts.stopSignal ?? 'SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  stopSignal(): NodeJS.Signals {
    return this.opts.stopSignal ?? 'SIGTERM';
  }

  signal(sig: NodeJS.Signals): void {
    if (!this.alive || this.pid <= 0) return;
    try {
      process.kill(this.pid, sig);
    } catch {
      /* already gone */
    }
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const p of running) p.signal(p.stopSignal());
  });
}

/** Resolve after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Poll `check` until it returns true, or throw after `timeoutMs` (or when `abort` says so). */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  opts: { timeoutMs: number; intervalMs?: number; abort?: () => string | undefined },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const reason = opts.abort?.();
    if (reason) throw new UserFacingError(`${what}: ${reason}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new UserFacingError(`${what}: not ready after ${opts.timeoutMs / 1000} s`);
    await sleep(opts.intervalMs ?? 250);
  }
}
