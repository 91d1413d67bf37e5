/**
 * Running the command-line tools (poppler, mupdf) on untrusted files: a hard timeout that kills
 * the tool, an address-space limit (prlimit --as) and a cap on the bytes read from its stdout.
 */
import { spawn } from 'node:child_process';

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
}

export function runTool(cmd: string, args: string[], limits: ToolLimits): Promise<ToolResult> {
  const maxOutput = limits.maxOutputBytes ?? 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawn('prlimit', [`--as=${limits.maxMemoryMb * 1024 * 1024}`, '--', cmd, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let failed: ToolError | null = null;
    const timer = setTimeout(() => {
      failed = new ToolError(`${cmd} timed out after ${limits.timeoutMs} ms`, 'timeout', stderr);
      child.kill('SIGKILL');
    }, limits.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOutput) {
        if (!failed) failed = new ToolError(`${cmd} wrote more than ${maxOutput} bytes`, 'output', stderr);
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failed) return reject(failed);
      if (code !== 0) {
        return reject(
          new ToolError(`${cmd} failed (${signal ?? `exit ${code}`}): ${stderr.trim().slice(0, 300)}`, 'exit', stderr),
        );
      }
      resolve({ stdout: Buffer.concat(out), stderr });
    });
  });
}
