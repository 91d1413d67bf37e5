/**
 * Runs `janus -F <rendered folder>` (optionally inside a network namespace) and waits until its
 * WebSocket transport accepts connections. stop() signals only this process, by its PID.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';

export interface ChildHandle {
  pid: number;
  /** recent output lines */
  lines(): string[];
  readonly alive: boolean;
  exited: Promise<number | null>;
  /** SIGTERM, SIGKILL after `graceMs`; resolves on exit */
  stop(graceMs?: number): Promise<void>;
}

const KEEP_LINES = 500;

export function spawnChild(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; onLine?: (line: string) => void } = {},
): ChildHandle {
  // without `env` the child inherits this process's environment
  const child: ChildProcess = spawn(cmd, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.env ? { env: opts.env } : {}),
  });
  const lines: string[] = [];
  const push = (line: string) => {
    lines.push(line);
    if (lines.length > KEEP_LINES) lines.shift();
    opts.onLine?.(line);
  };
  if (child.stdout) createInterface({ input: child.stdout }).on('line', push);
  if (child.stderr) createInterface({ input: child.stderr }).on('line', push);
  let alive = true;
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', (err) => {
      push(`[could not start ${cmd}: ${err.message}]`);
      alive = false;
      resolve(127);
    });
    child.on('exit', (code) => {
      alive = false;
      resolve(code);
    });
  });
  return {
    pid: child.pid ?? -1,
    lines: () => [...lines],
    get alive() {
      return alive;
    },
    exited,
    async stop(graceMs = 5000) {
      if (!alive || !child.pid) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** resolves once host:port accepts TCP connections; rejects when the child dies or after `timeoutMs` */
export async function waitForPort(child: ChildHandle, host: string, port: number, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!child.alive)
      throw new Error(`exited before listening on ${host}:${port}:\n${child.lines().slice(-30).join('\n')}`);
    if (await canConnect(host, port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not listening on ${host}:${port} after ${timeoutMs} ms:\n${child.lines().slice(-30).join('\n')}`);
}

export interface JanusRun {
  child: ChildHandle;
  wsUrl: string;
  adminWsUrl: string;
}

/** start Janus with an already rendered folder; `netns`: run it inside that namespace (root) */
export async function startJanusProcess(opts: {
  configDir: string;
  wsIp: string;
  wsPort: number;
  adminWsPort: number;
  netns?: string;
  janusBin?: string;
  onLine?: (line: string) => void;
  /** told at once, before Janus listens (so a stop during start-up can reach it) */
  onSpawn?: (child: ChildHandle) => void;
  readyTimeoutMs?: number;
}): Promise<JanusRun> {
  const bin = opts.janusBin ?? 'janus';
  // `ip netns exec` execs the command in place: the PID is Janus's own
  const [cmd, args] = opts.netns
    ? ['ip', ['netns', 'exec', opts.netns, bin, '-F', opts.configDir]]
    : [bin, ['-F', opts.configDir]];
  const child = spawnChild(cmd, args, { onLine: opts.onLine });
  opts.onSpawn?.(child);
  try {
    await waitForPort(child, opts.wsIp, opts.wsPort, opts.readyTimeoutMs);
  } catch (err) {
    await child.stop(1000);
    throw err;
  }
  return {
    child,
    wsUrl: `ws://${opts.wsIp}:${opts.wsPort}`,
    adminWsUrl: `ws://${opts.wsIp}:${opts.adminWsPort}`,
  };
}
