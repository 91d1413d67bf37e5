/**
 * Warm, sandboxed image children (imageChild.ts), one request at a time each, as many as image
 * jobs may run at once. An image is copied into its own folder of the pool's inbox (the only
 * folder of images the children can see); a request past its timeout or the job's deadline has
 * its child killed (process group) and replaced on the next request; a child is also replaced
 * after `restartEvery` images (its CPU-time limit is cumulative).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { createInterface } from 'node:readline';
import type { FileFormat } from '@wb/proto';
import type { Logger } from '@wb/platform';
import { ConversionError, MESSAGES } from './errors';
import type { ImageOptions } from './image';
import type { ImageChildReply, ImageChildRequest } from './imageChild';
import type { Sandbox } from './sandbox';

export interface ImagePoolOptions {
  inboxDir: string;
  sandbox: Sandbox;
  log: Logger;
  timeoutMs: number;
  maxMemoryMb: number;
  restartEvery?: number;
}

interface Child {
  proc: ChildProcess;
  ready: Promise<void>;
  jobs: number;
  pending: Map<number, (reply: ImageChildReply | Error) => void>;
}

/** the child's own code and sharp's packages: what it may read besides the inbox */
function childFiles(): { script: string; ro: string[] } {
  const script = join(__dirname, '..', '..', 'dist', 'conversion', 'imageChild.js');
  const entry = require.resolve('sharp');
  const modules = entry.slice(0, entry.lastIndexOf(`${sep}node_modules${sep}`) + `${sep}node_modules`.length);
  const ro = [dirname(script), ...['sharp', '@img', 'detect-libc', 'semver'].map((m) => join(modules, m))];
  return { script, ro };
}

export class ImagePool {
  private idle: Child[] = [];
  private nextId = 1;
  readonly stats = { starts: 0, kills: 0 };

  constructor(private readonly opts: ImagePoolOptions) {}

  private start(): Child {
    mkdirSync(this.opts.inboxDir, { recursive: true });
    this.opts.sandbox.prepare(this.opts.inboxDir);
    const { script, ro } = childFiles();
    const inner = [process.execPath, '--max-old-space-size=256', script];
    const cmd = [
      'prlimit',
      `--as=${this.opts.maxMemoryMb * 1024 * 1024}`,
      '--cpu=600',
      '--',
      ...this.opts.sandbox.wrap(inner, { rw: [this.opts.inboxDir], ro, cwd: this.opts.inboxDir }),
    ];
    const proc = spawn(cmd[0]!, cmd.slice(1), { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.stats.starts++;
    const pending = new Map<number, (reply: ImageChildReply | Error) => void>();
    let stderr = '';
    proc.stderr!.on('data', (c: Buffer) => {
      if (stderr.length < 2000) stderr += c.toString('utf8');
    });
    proc.stdin!.on('error', () => undefined);
    const ready = new Promise<void>((resolve, reject) => {
      createInterface({ input: proc.stdout! }).on('line', (line) => {
        let msg: ImageChildReply & { ready?: boolean };
        try {
          msg = JSON.parse(line) as ImageChildReply & { ready?: boolean };
        } catch {
          return;
        }
        if (msg.ready) return resolve();
        const done = pending.get(msg.id);
        pending.delete(msg.id);
        done?.(msg);
      });
      proc.on('exit', (code, signal) => {
        const err = new Error(`image child exited (${signal ?? code}): ${stderr.trim().slice(-300)}`);
        reject(err);
        for (const done of pending.values()) done(err);
        pending.clear();
      });
    });
    ready.catch(() => undefined);
    return { proc, ready, jobs: 0, pending };
  }

  private kill(child: Child): void {
    this.stats.kills++;
    try {
      if (child.proc.pid !== undefined) process.kill(-child.proc.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }

  /** run one image; outputs by name (`full`/`thumb` or `square`) */
  async run(
    op: ImageChildRequest['op'],
    input: string,
    format: FileFormat,
    image: ImageOptions,
    signal: AbortSignal,
  ): Promise<Map<string, Buffer>> {
    if (signal.aborted) throw new ConversionError(MESSAGES.tooSlow, 'deadline passed before the image started');
    const folder = join(this.opts.inboxDir, randomBytes(8).toString('hex'));
    await mkdir(folder, { recursive: true });
    this.opts.sandbox.prepare(folder);
    const child = this.idle.pop() ?? this.start();
    let healthy = false;
    try {
      const source = join(folder, 'original');
      await copyFile(input, source);
      await child.ready;
      const id = this.nextId++;
      const request: ImageChildRequest = { id, op, input: source, format, outDir: folder, opts: image };
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const reply = await new Promise<ImageChildReply | Error>((resolve) => {
        child.pending.set(id, resolve);
        const giveUp = (why: string) => {
          child.pending.delete(id);
          resolve(new ConversionError(MESSAGES.tooSlow, why));
          this.kill(child);
        };
        timer = setTimeout(() => giveUp(`image child timed out after ${this.opts.timeoutMs} ms`), this.opts.timeoutMs);
        onAbort = () => giveUp("image child killed at the job's deadline");
        signal.addEventListener('abort', onAbort, { once: true });
        child.proc.stdin!.write(`${JSON.stringify(request)}\n`);
      }).finally(() => {
        clearTimeout(timer);
        if (onAbort) signal.removeEventListener('abort', onAbort);
      });
      if (reply instanceof ConversionError) throw reply;
      // the child died under it (memory limit, a libvips crash): this image's fault
      if (reply instanceof Error) throw new ConversionError(MESSAGES.damagedImage, reply.message);
      healthy = true;
      if (reply.refused) throw new ConversionError(reply.refused, reply.detail ?? undefined);
      if (reply.error) throw new ConversionError(MESSAGES.damagedImage, reply.error);
      const names = op === 'square' ? ['square'] : ['full', 'thumb'];
      const out = new Map<string, Buffer>();
      for (const name of names) out.set(name, await readFile(join(folder, `${name}.webp`)));
      return out;
    } finally {
      child.jobs++;
      if (healthy && child.jobs < (this.opts.restartEvery ?? 100)) this.idle.push(child);
      else if (child.proc.exitCode === null) this.kill(child);
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** start `n` children now, so the first images do not pay for it */
  warm(n: number): void {
    while (this.idle.length < n) this.idle.push(this.start());
  }

  close(): void {
    for (const child of this.idle.splice(0)) {
      child.proc.stdin!.end();
      this.kill(child);
    }
    rmSync(this.opts.inboxDir, { recursive: true, force: true });
  }
}
