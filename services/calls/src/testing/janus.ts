/**
 * A real Janus for tests (and benches): a rendered config with fresh secrets in a temp folder, on
 * free ports. `netns: true` runs it in a network namespace of its own joined to the host by a
 * veth pair with a /30 from 198.18.0.0/15 (the benchmarking range), because Janus never offers
 * loopback ICE candidates: browsers and WebRTC peers on the host then reach it at `janusIp`
 * through the host end `hostIp`. Needs root (`ip netns`).
 *
 *   const janus = await startJanus({ netns: true });
 *   // signalling: janus.wsUrl (ws://198.18.x.2:port), secrets: janus.secrets
 *   await janus.stop();   // kills its own Janus by PID, deletes the namespace and the veth pair
 *
 * Names carry the test process's PID (`wbj<pid>n<k>`, veth `wbh<pid>n<k>`/`wbv<pid>n<k>`), so a
 * later run removes what a crashed run left behind (namespaces and veths of PIDs no longer alive,
 * and Janus processes still inside such a namespace).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@wb/platform/testing';
import { renderJanusConfig } from '../janus/config';
import { startJanusProcess } from '../janus/process';

export interface JanusSecrets {
  apiSecret: string;
  tokenSecret: string;
  adminSecret: string;
}

export interface StartedJanus {
  /** the Janus API over WebSocket */
  wsUrl: string;
  ports: { ws: number; adminWs: number };
  adminWsUrl: string;
  /** the host's address towards Janus (127.0.0.1, or the host end of the veth pair) */
  hostIp: string;
  /** Janus's address (127.0.0.1, or its end of the veth pair) */
  janusIp: string;
  /** the namespace, when netns */
  netns?: string;
  secrets: JanusSecrets;
  pid: number;
  /** recent Janus output */
  logs(): string[];
  /** Janus's CPU time so far (user + system), in ms, from /proc */
  cpuMs(): number;
  stop(): Promise<void>;
}

let counter = 0;

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** namespaces and veths of test runs whose process is gone, with whatever still runs inside */
export function removeJanusLeftovers(): void {
  for (const line of ip('netns', 'list').split('\n')) {
    const name = line.split(' ')[0] ?? '';
    const m = /^wbj(\d+)n\d+$/.exec(name);
    if (!m || pidAlive(Number(m[1]))) continue;
    for (const pid of ip('netns', 'pids', name).split(/\s+/).filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    try {
      ip('netns', 'del', name);
    } catch {
      // removed meanwhile
    }
  }
  for (const line of ip('-o', 'link', 'show').split('\n')) {
    const m = /^\d+:\s+(wbh(\d+)n\d+)[@:]/.exec(line);
    if (!m || pidAlive(Number(m[2]))) continue;
    try {
      ip('link', 'del', m[1]!);
    } catch {
      // removed with its namespace
    }
  }
}

/** a /30 in 198.18.0.0/15 not on any interface: .1 host end, .2 Janus end */
function pickSubnet(): { hostIp: string; janusIp: string } {
  const used = ip('-o', '-4', 'addr', 'show');
  for (let attempt = 0; attempt < 64; attempt++) {
    const block = (process.pid * 8 + counter * 3 + attempt * 7919) % 32768;
    const base = block * 4;
    const a = 18 + (base >> 16);
    const b = (base >> 8) & 255;
    const c = base & 255;
    const inUse = [0, 1, 2, 3].some((i) => used.includes(` 198.${a}.${b}.${c + i}/`));
    if (!inUse) return { hostIp: `198.${a}.${b}.${c + 1}`, janusIp: `198.${a}.${b}.${c + 2}` };
  }
  throw new Error('no free /30 in 198.18.0.0/15');
}

function secret(): string {
  return randomBytes(24).toString('base64url');
}

export async function startJanus(
  opts: {
    netns?: boolean;
    secrets?: Partial<JanusSecrets>;
    debugLevel?: number;
    /** loopback only: reuse these ports (a restart on the same address) */
    ports?: { ws: number; adminWs: number };
  } = {},
): Promise<StartedJanus> {
  const k = counter++;
  const secrets: JanusSecrets = {
    apiSecret: opts.secrets?.apiSecret ?? secret(),
    tokenSecret: opts.secrets?.tokenSecret ?? secret(),
    adminSecret: opts.secrets?.adminSecret ?? secret(),
  };
  const dir = mkdtempSync(join(tmpdir(), 'wb-janus-'));
  let netns: string | undefined;
  let hostIp = '127.0.0.1';
  let janusIp = '127.0.0.1';
  let wsPort: number;
  let adminWsPort: number;
  const cleanup = () => {
    if (netns) {
      try {
        ip('netns', 'del', netns); // takes the veth pair with it
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (opts.netns) {
      removeJanusLeftovers();
      netns = `wbj${process.pid}n${k}`;
      const hostVeth = `wbh${process.pid}n${k}`;
      const nsVeth = `wbv${process.pid}n${k}`;
      ({ hostIp, janusIp } = pickSubnet());
      ip('netns', 'add', netns);
      ip('link', 'add', hostVeth, 'type', 'veth', 'peer', 'name', nsVeth);
      ip('link', 'set', nsVeth, 'netns', netns);
      ip('addr', 'add', `${hostIp}/30`, 'dev', hostVeth);
      ip('link', 'set', hostVeth, 'up');
      ip('netns', 'exec', netns, 'ip', 'addr', 'add', `${janusIp}/30`, 'dev', nsVeth);
      ip('netns', 'exec', netns, 'ip', 'link', 'set', nsVeth, 'up');
      ip('netns', 'exec', netns, 'ip', 'link', 'set', 'lo', 'up');
      // the namespace has ports of its own
      wsPort = 8188;
      adminWsPort = 7188;
      renderJanusConfig({
        dir,
        ...secrets,
        wsIp: janusIp,
        wsPort,
        adminWsPort,
        rtpPortRange: '20000-20999',
        iceEnforceList: nsVeth,
        debugLevel: opts.debugLevel ?? 3,
      });
    } else {
      wsPort = opts.ports?.ws ?? (await freePort());
      adminWsPort = opts.ports?.adminWs ?? (await freePort());
      const rtpBase = 30000 + (process.pid % 300) * 100;
      renderJanusConfig({
        dir,
        ...secrets,
        wsIp: janusIp,
        wsPort,
        adminWsPort,
        rtpPortRange: `${rtpBase}-${rtpBase + 99}`,
        debugLevel: opts.debugLevel ?? 3,
      });
    }
    const run = await startJanusProcess({ configDir: dir, wsIp: janusIp, wsPort, adminWsPort, netns });
    let stopped = false;
    return {
      wsUrl: run.wsUrl,
      adminWsUrl: run.adminWsUrl,
      ports: { ws: wsPort, adminWs: adminWsPort },
      hostIp,
      janusIp,
      netns,
      secrets,
      pid: run.child.pid,
      logs: () => run.child.lines(),
      cpuMs: () => processCpuMs(run.child.pid),
      async stop() {
        if (stopped) return;
        stopped = true;
        await run.child.stop(5000);
        cleanup();
      },
    };
  } catch (err) {
    cleanup();
    throw err;
  }
}

/** utime + stime of a process in ms (Linux /proc; clock ticks are 100 Hz) */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
