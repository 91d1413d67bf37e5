/**
 * One warm, long-lived headless LibreOffice per worker, driven over UNO by uno/bridge.py (UNO has
 * no Node binding). The bridge and the office run in their own process group under an
 * address-space cap (prlimit --as) and, when the kernel lets us, without a network (unshare -n),
 * so a document can neither fetch links nor eat the worker's memory. A job that runs past its
 * timeout kills the whole group; the office is also restarted every `restartEvery` jobs, as
 * long-running offices slowly grow and leak.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '@wb/platform';
import { ConversionError, MESSAGES } from './errors';

export interface OfficeOptions {
  /** folder for this office's profile (created; deleted on close) */
  profileDir: string;
  timeoutMs: number;
  restartEvery: number;
  maxMemoryMb: number;
  /** pages exported at most (the page range of the PDF export) */
  maxPages: number;
  log: Logger;
  soffice?: string;
  python?: string;
  /** how long a start may take before it counts as failed */
  startTimeoutMs?: number;
}

interface Pending {
  resolve: (reply: BridgeReply) => void;
  reject: (err: Error) => void;
}
interface BridgeReply {
  id?: number;
  ok?: boolean;
  error?: string;
  ready?: boolean;
}

const BRIDGE = join(__dirname, '..', '..', 'uno', 'bridge.py');

let isolation: string[] | undefined;
/**
 * How to take the network away, probed once per process: `unshare -n` (root or CAP_SYS_ADMIN),
 * else `unshare -rn` (an unprivileged user namespace), else nothing (logged loudly once).
 */
export function networkIsolation(log: Logger): string[] {
  if (isolation) return isolation;
  for (const args of [['-n'], ['-rn']]) {
    if (spawnSync('unshare', [...args, 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0) {
      isolation = ['unshare', ...args, '--'];
      log.info({ isolation: isolation.join(' ') }, 'LibreOffice runs without a network');
      return isolation;
    }
  }
  isolation = [];
  log.warn('unshare -n is not permitted here: LibreOffice runs WITH network access (links are still never updated)');
  return isolation;
}

export class Office {
  private child: ChildProcess | null = null;
  private starting: Promise<void> | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private jobsSinceStart = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** starts and kills, for tests and metrics */
  readonly stats = { starts: 0, kills: 0 };
  /** process group of the running bridge and office (tests check a killed one is gone) */
  get processGroup(): number | undefined {
    return this.child?.pid;
  }

  constructor(private readonly opts: OfficeOptions) {}

  /** Start now instead of on the first document (OFFICE_WARM=1). */
  warm(): Promise<void> {
    return this.ensureStarted();
  }

  /** Convert `input` to a PDF at `output`; one document at a time per office. */
  toPdf(input: string, output: string, filter: 'csv' | 'txt' | null): Promise<void> {
    const run = this.queue.then(() => this.convertNow(input, output, filter));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.stop(true);
    rmSync(this.opts.profileDir, { recursive: true, force: true });
  }

  private async convertNow(input: string, output: string, filter: 'csv' | 'txt' | null): Promise<void> {
    if (this.child && this.jobsSinceStart >= this.opts.restartEvery) {
      this.opts.log.debug({ jobs: this.jobsSinceStart }, 'restarting LibreOffice (job count)');
      await this.stop(true);
    }
    await this.ensureStarted();
    this.jobsSinceStart++;
    const id = this.nextId++;
    const child = this.child!;
    let timer: NodeJS.Timeout | undefined;
    try {
      const reply = await new Promise<BridgeReply>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new ConversionError(MESSAGES.tooSlow, `office timed out after ${this.opts.timeoutMs} ms`));
          this.opts.log.warn({ timeoutMs: this.opts.timeoutMs }, 'LibreOffice timed out: killing it');
          void this.stop(false);
        }, this.opts.timeoutMs);
        const request = { id, input, output, pageRange: `1-${this.opts.maxPages}`, filter };
        child.stdin!.write(`${JSON.stringify(request)}\n`);
      });
      if (!reply.ok) throw new ConversionError(MESSAGES.damaged, reply.error);
    } finally {
      clearTimeout(timer);
    }
  }

  private ensureStarted(): Promise<void> {
    if (this.child) return Promise.resolve();
    if (!this.starting) {
      this.starting = this.start().finally(() => {
        this.starting = null;
      });
    }
    return this.starting;
  }

  private async start(): Promise<void> {
    const { log } = this.opts;
    const started = Date.now();
    rmSync(join(this.opts.profileDir, '.lock'), { force: true });
    rmSync(join(this.opts.profileDir, 'user', '.lock'), { force: true });
    mkdirSync(this.opts.profileDir, { recursive: true });
    const pipeName = `wb-office-${process.pid}-${randomBytes(6).toString('hex')}`;
    const cmd = [
      'prlimit',
      `--as=${this.opts.maxMemoryMb * 1024 * 1024}`,
      '--',
      ...networkIsolation(log),
      this.opts.python ?? '/usr/bin/python3',
      BRIDGE,
      this.opts.soffice ?? '/usr/bin/soffice',
      this.opts.profileDir,
      pipeName,
    ];
    // detached: its own process group, so a kill takes the office and everything it spawned
    const child = spawn(cmd[0]!, cmd.slice(1), { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.stats.starts++;
    this.jobsSinceStart = 0;
    const stderrTail: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => {
      stderrTail.push(chunk.toString('utf8'));
      if (stderrTail.length > 20) stderrTail.shift();
    });
    const lines = createInterface({ input: child.stdout! });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`LibreOffice did not start within ${this.opts.startTimeoutMs ?? 60_000} ms`)),
        this.opts.startTimeoutMs ?? 60_000,
      );
      lines.on('line', (line) => {
        let msg: BridgeReply;
        try {
          msg = JSON.parse(line) as BridgeReply;
        } catch {
          return;
        }
        if (msg.ready !== undefined) {
          clearTimeout(timer);
          return msg.ready ? resolve() : reject(new Error(`LibreOffice failed to start: ${msg.error}`));
        }
        const pending = msg.id === undefined ? undefined : this.pending.get(msg.id);
        if (pending) {
          this.pending.delete(msg.id!);
          pending.resolve(msg);
        }
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`LibreOffice exited while starting (${signal ?? code}): ${stderrTail.join('').slice(-500)}`));
      });
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      for (const [id, p] of this.pending) {
        this.pending.delete(id);
        p.reject(new ConversionError(MESSAGES.damaged, `LibreOffice exited (${signal ?? code})`));
      }
    });
    child.stdin!.on('error', () => undefined); // a dead bridge: the exit handler reports it
    this.child = child;
    try {
      await ready;
    } catch (err) {
      this.killGroup(child);
      this.child = null;
      throw err;
    }
    log.info({ ms: Date.now() - started, pid: child.pid }, 'LibreOffice started');
  }

  private killGroup(child: ChildProcess): void {
    if (child.pid === undefined) return;
    // the group outlives its leader when the office is still up: kill it by group id
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // ESRCH: the whole group is gone already
    }
  }

  /** graceful: ask the bridge to close the office first (2 s), then kill the group either way */
  private async stop(graceful: boolean): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
    });
    if (graceful) {
      child.stdin!.end(`${JSON.stringify({ quit: true })}\n`);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 2000)))]);
      clearTimeout(timer);
    } else {
      this.stats.kills++;
    }
    this.killGroup(child);
    await exited;
  }
}
