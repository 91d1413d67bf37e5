/**
 * One warm, long-lived headless LibreOffice per worker, driven over UNO by uno/bridge.py (UNO has
 * no Node binding). The bridge and the office run in the sandbox (sandbox.ts: an unprivileged
 * user, no network, a filesystem holding only /usr, the office's profile and its inbox) under an
 * address-space cap (prlimit --as), in their own process group. A document is converted from the
 * inbox, which holds that one document's folder while it is converted (the office converts one
 * at a time), so a link in it (`file:///…`, `../../x.png`) finds nothing of the worker's disk or
 * of another job.
 *
 * A dead or hung office is not a damaged document (issue 25 §3): the bridge answers a liveness
 * ping before each document and says when the office died under it; an office that exits is
 * restarted at once; a conversion the office died in is tried once more in a fresh office and
 * otherwise fails with OfficeUnavailableError (the job is retried by BullMQ), and a document is
 * called damaged only when a fresh office also refuses it. A job that runs past its timeout or
 * its deadline kills the whole group; the office is also restarted every `restartEvery` jobs,
 * as long-running offices slowly grow and leak.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '@wb/platform';
import { ConversionError, MESSAGES } from './errors';
import { Sandbox } from './sandbox';

export interface OfficeOptions {
  /** folder for this office's profile (created; deleted on close) */
  profileDir: string;
  /** folder the office sees documents in, one at a time (created; deleted on close) */
  inboxDir: string;
  timeoutMs: number;
  restartEvery: number;
  maxMemoryMb: number;
  /** pages exported at most (the page range of the PDF export) */
  maxPages: number;
  log: Logger;
  sandbox?: Sandbox;
  soffice?: string;
  python?: string;
  /** how long a start may take before it counts as failed */
  startTimeoutMs?: number;
  /** how long a liveness ping may take */
  pingTimeoutMs?: number;
  /** write the link and macro settings into the profile (default true; tests turn it off to show the sandbox alone holds) */
  hardenProfile?: boolean;
}

/** The office broke (died, hung, would not start): not the document's fault, try again later. */
export class OfficeUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OfficeUnavailableError';
  }
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
  /** the office died under this request */
  dead?: boolean;
  pong?: boolean;
}

const BRIDGE = join(__dirname, '..', '..', 'uno', 'bridge.py');

/**
 * Profile settings written before the first start: links are never updated, untrusted referer
 * links blocked, macros off (the load options say so too, per document).
 */
const REGISTRY = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>2</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>2</value></prop></item>
</oor:items>
`;

/** pids of `root` and every process under it (from /proc) */
function processTree(root: number): { pid: number; comm: string }[] {
  const children = new Map<number, number[]>();
  const comms = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      comms.set(Number(name), comm);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: { pid: number; comm: string }[] = [];
  const walk = (pid: number) => {
    out.push({ pid, comm: comms.get(pid) ?? '' });
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return out;
}

export class Office {
  private child: ChildProcess | null = null;
  private starting: Promise<void> | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private jobsSinceStart = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** starts, kills (timeouts, deadlines), crashes (died on its own), for tests and metrics */
  readonly stats = { starts: 0, kills: 0, crashes: 0, retries: 0 };
  private readonly sandbox: Sandbox;
  /** process group of the running bridge and office (tests check a killed one is gone) */
  get processGroup(): number | undefined {
    return this.child?.pid;
  }

  constructor(private readonly opts: OfficeOptions) {
    this.sandbox = opts.sandbox ?? Sandbox.disabled();
  }

  /** pid (as the worker sees it) of the running soffice.bin, the office itself */
  officePid(): number | undefined {
    const root = this.child?.pid;
    if (root === undefined) return undefined;
    return processTree(root).find((p) => p.comm === 'soffice.bin')?.pid;
  }

  /** Start now instead of on the first document (OFFICE_WARM=1). */
  warm(): Promise<void> {
    return this.ensureStarted();
  }

  /**
   * Convert `input` to a PDF at `output`; one document at a time per office. `signal`: the job's
   * deadline (aborting kills the office: ConversionError tooSlow).
   */
  toPdf(input: string, output: string, filter: 'csv' | 'txt' | null, signal?: AbortSignal): Promise<void> {
    const run = this.queue.then(() => this.convertWithRetry(input, output, filter, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    await this.stop(true);
    rmSync(this.opts.profileDir, { recursive: true, force: true });
    rmSync(this.opts.inboxDir, { recursive: true, force: true });
  }

  /**
   * A document refused by an office that had converted others first, or an office that died
   * under it, gets one more try in a fresh office: only a fresh office's refusal is "damaged".
   */
  private async convertWithRetry(
    input: string,
    output: string,
    filter: 'csv' | 'txt' | null,
    signal?: AbortSignal,
  ): Promise<void> {
    if (this.child && this.jobsSinceStart >= this.opts.restartEvery) {
      this.opts.log.debug({ jobs: this.jobsSinceStart }, 'restarting LibreOffice (job count)');
      await this.stop(true);
    }
    await this.ensureLive();
    const fresh = this.jobsSinceStart === 0;
    try {
      return await this.convertNow(input, output, filter, signal);
    } catch (err) {
      const retry =
        !signal?.aborted &&
        (err instanceof OfficeUnavailableError ||
          (!fresh && err instanceof ConversionError && err.message === MESSAGES.damaged));
      if (!retry) throw err;
      this.stats.retries++;
      this.opts.log.warn({ err: (err as Error).message }, 'LibreOffice failed: trying the document in a fresh office');
      await this.stop(true);
      try {
        await this.ensureStarted();
      } catch (startErr) {
        throw new OfficeUnavailableError(`LibreOffice did not restart: ${(startErr as Error).message}`);
      }
      return this.convertNow(input, output, filter, signal);
    }
  }

  /** a running office that answers a ping, else a fresh one */
  private async ensureLive(): Promise<void> {
    if (this.child) {
      try {
        await this.request({ ping: true }, this.opts.pingTimeoutMs ?? 5000);
        return;
      } catch (err) {
        this.opts.log.warn({ err: (err as Error).message }, 'LibreOffice does not answer its ping: restarting it');
        await this.stop(false);
      }
    }
    try {
      await this.ensureStarted();
    } catch (err) {
      throw new OfficeUnavailableError(`LibreOffice did not start: ${(err as Error).message}`);
    }
  }

  /** one request to the bridge and its reply; the bridge dying rejects it with OfficeUnavailableError */
  private request(body: Record<string, unknown>, timeoutMs: number, onTimeout?: () => Error): Promise<BridgeReply> {
    const child = this.child;
    if (!child) return Promise.reject(new OfficeUnavailableError('LibreOffice is not running'));
    const id = this.nextId++;
    let timer: NodeJS.Timeout | undefined;
    return new Promise<BridgeReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          onTimeout ? onTimeout() : new OfficeUnavailableError(`LibreOffice did not answer within ${timeoutMs} ms`),
        );
      }, timeoutMs);
      child.stdin!.write(`${JSON.stringify({ id, ...body })}\n`);
    }).finally(() => clearTimeout(timer));
  }

  private async convertNow(
    input: string,
    output: string,
    filter: 'csv' | 'txt' | null,
    signal?: AbortSignal,
  ): Promise<void> {
    if (signal?.aborted) throw new ConversionError(MESSAGES.tooSlow, 'deadline passed before the office started');
    await this.ensureLive();
    this.jobsSinceStart++;
    // the document's own folder in the inbox: the only folder of documents the office can see
    const folder = join(this.opts.inboxDir, randomBytes(8).toString('hex'));
    await mkdir(folder);
    this.sandbox.prepare(folder);
    const source = join(folder, `in${extname(input)}`);
    const target = join(folder, 'out.pdf');
    await copyFile(input, source);
    const kill = (why: string) => {
      this.opts.log.warn({ timeoutMs: this.opts.timeoutMs, why }, 'LibreOffice too slow: killing it');
      this.stats.kills++;
      void this.stop(false);
    };
    let onAbort: (() => void) | undefined;
    try {
      const reply = await new Promise<BridgeReply>((resolve, reject) => {
        onAbort = () => {
          reject(new ConversionError(MESSAGES.tooSlow, "office killed at the job's deadline"));
          kill('deadline');
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.request(
          { input: source, output: target, pageRange: `1-${this.opts.maxPages}`, filter },
          this.opts.timeoutMs,
          () => {
            kill('timeout');
            return new ConversionError(MESSAGES.tooSlow, `office timed out after ${this.opts.timeoutMs} ms`);
          },
        ).then(resolve, reject);
      });
      if (reply.dead) throw new OfficeUnavailableError(`LibreOffice died converting: ${reply.error ?? ''}`);
      if (!reply.ok) throw new ConversionError(MESSAGES.damaged, reply.error);
      await rename(target, output);
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      await rm(folder, { recursive: true, force: true });
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

  /** the profile with its link and macro settings, owned by the sandbox user */
  private prepareProfile(): void {
    const { profileDir, inboxDir } = this.opts;
    rmSync(join(profileDir, '.lock'), { force: true });
    rmSync(join(profileDir, 'user', '.lock'), { force: true });
    mkdirSync(join(profileDir, 'user'), { recursive: true });
    mkdirSync(inboxDir, { recursive: true });
    const registry = join(profileDir, 'user', 'registrymodifications.xcu');
    if (this.opts.hardenProfile !== false) {
      try {
        readFileSync(registry);
      } catch {
        writeFileSync(registry, REGISTRY);
      }
    }
    this.sandbox.prepare(profileDir);
    this.sandbox.prepare(join(profileDir, 'user'));
    this.sandbox.prepare(inboxDir);
    if (this.opts.hardenProfile !== false && this.sandbox.mode !== 'none' && (process.getuid?.() ?? 0) === 0) {
      chownSync(registry, this.sandbox.uid, this.sandbox.uid);
    }
  }

  private async start(): Promise<void> {
    const { log } = this.opts;
    const started = Date.now();
    this.prepareProfile();
    const pipeName = `wb-office-${process.pid}-${randomBytes(6).toString('hex')}`;
    const inner = [
      this.opts.python ?? '/usr/bin/python3',
      BRIDGE,
      this.opts.soffice ?? '/usr/bin/soffice',
      this.opts.profileDir,
      pipeName,
    ];
    const cmd = [
      'prlimit',
      `--as=${this.opts.maxMemoryMb * 1024 * 1024}`,
      '--',
      ...this.sandbox.wrap(inner, {
        rw: [this.opts.profileDir, this.opts.inboxDir],
        ro: [dirname(BRIDGE)],
        cwd: '/tmp',
      }),
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
      const unexpected = this.child === child;
      if (unexpected) this.child = null;
      for (const [id, p] of this.pending) {
        this.pending.delete(id);
        p.reject(new OfficeUnavailableError(`LibreOffice exited (${signal ?? code})`));
      }
      if (unexpected && !this.closed) {
        // process watch: an office that died on its own is replaced at once, not on the next job
        this.stats.crashes++;
        log.error({ code, signal, stderr: stderrTail.join('').slice(-300) }, 'LibreOffice died: restarting it');
        void this.ensureStarted().catch((err: unknown) => {
          if (!this.closed) log.error({ err }, 'LibreOffice did not restart');
        });
      }
    });
    child.stdin!.on('error', () => undefined); // a dead bridge: the exit handler reports it
    this.child = child;
    try {
      await ready;
    } catch (err) {
      if (this.child === child) this.child = null;
      this.killGroup(child);
      throw err;
    }
    log.info(
      { ms: Date.now() - started, pid: child.pid, officePid: this.officePid(), sandbox: this.sandbox.mode },
      'LibreOffice started',
    );
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
    }
    this.killGroup(child);
    await exited;
  }
}
