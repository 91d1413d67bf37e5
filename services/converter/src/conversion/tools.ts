/**
 * Running the command-line tools (poppler, mupdf, the image child) on untrusted files: in the
 * sandbox (sandbox.ts) with only the job's folder in view, a hard timeout and the job's deadline
 * (either kills the tool's whole process group), an address-space and a CPU-time limit (prlimit
 * --as --cpu) and a cap on the bytes read from its stdout.
 */
import { spawn } from 'node:child_process';
import type { Sandbox, SandboxView } from './sandbox';

export interface ToolResult {
  stdout: Buffer;
  stderr: string;
}

export class ToolError extends Error {
  constructor(
    message: string,
    readonly reason: 'timeout' | 'exit' | 'output',
    readonly stderr: string,
  ) {
    super(message);
  }
}

export interface ToolLimits {
  timeoutMs: number;
  /** address-space cap in MiB (prlimit --as) */
  maxMemoryMb: number;
  /** most stdout bytes kept; more fails the call */
  maxOutputBytes?: number;
  /** CPU seconds (prlimit --cpu); defaults to the timeout rounded up */
  maxCpuSeconds?: number;
  /** the job's deadline: aborting kills the tool (a 'timeout') */
  signal?: AbortSignal;
  /** the sandbox and what the tool may see in it (none: run as the worker) */
  sandbox?: { box: Sandbox; view: SandboxView };
}

export function runTool(cmd: string, args: string[], limits: ToolLimits): Promise<ToolResult> {
  const maxOutput = limits.maxOutputBytes ?? 1024 * 1024;
  const cpu = limits.maxCpuSeconds ?? Math.ceil(limits.timeoutMs / 1000) + 1;
  const inner = limits.sandbox ? limits.sandbox.box.wrap([cmd, ...args], limits.sandbox.view) : [cmd, ...args];
  return new Promise((resolve, reject) => {
    if (limits.signal?.aborted) {
      return reject(new ToolError(`${cmd} not started: the job's deadline has passed`, 'timeout', ''));
    }
    // detached: its own process group, so a kill takes the sandbox and everything in it
    const child = spawn('prlimit', [`--as=${limits.maxMemoryMb * 1024 * 1024}`, `--cpu=${cpu}`, '--', ...inner], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let failed: ToolError | null = null;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      failed = new ToolError(`${cmd} timed out after ${limits.timeoutMs} ms`, 'timeout', stderr);
      killGroup();
    }, limits.timeoutMs);
    const onAbort = () => {
      if (!failed) failed = new ToolError(`${cmd} killed at the job's deadline`, 'timeout', stderr);
      killGroup();
    };
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOutput) {
        if (!failed) failed = new ToolError(`${cmd} wrote more than ${maxOutput} bytes`, 'output', stderr);
        killGroup();
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
      if (failed) return reject(failed);
      // SIGXCPU / SIGKILL at the CPU-time limit: as slow as a timeout
      if (signal === 'SIGXCPU' || (signal === 'SIGKILL' && /cpu/i.test(stderr))) {
        return reject(new ToolError(`${cmd} used more than ${cpu} s of CPU`, 'timeout', stderr));
      }
      if (code !== 0) {
        return reject(
          new ToolError(`${cmd} failed (${signal ?? `exit ${code}`}): ${stderr.trim().slice(0, 300)}`, 'exit', stderr),
        );
      }
      resolve({ stdout: Buffer.concat(out), stderr });
    });
  });
}
