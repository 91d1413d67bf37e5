/**
 * The call server for `make up`: Janus (VideoRoom + WebSocket transport, infra/janus) and coturn,
 * run by `node services/calls/dist/janus/run.js` with secrets made for this run (or taken from
 * JANUS_API_SECRET, JANUS_TOKEN_SECRET, JANUS_ADMIN_SECRET, TURN_SECRET). The Debian packages
 * `janus` and `coturn` are installed when missing and root (as the converter's are); without
 * Janus the platform still runs and joining a call answers 503.
 *
 * Returns the env the calls service and the gateway need (JANUS_WS_URL, the secrets, STUN/TURN).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { c, log } from './log';
import { ROOT } from './paths';
import { freePort, isListening, isPortFree } from './ports';
import { ManagedProcess, run, waitFor } from './proc';

const PACKAGES = [
  { pkg: 'janus', file: '/usr/bin/janus' },
  { pkg: 'coturn', file: '/usr/bin/turnserver' },
];

async function ensureCallPackages(): Promise<void> {
  const missing = PACKAGES.filter((p) => !existsSync(p.file)).map((p) => p.pkg);
  if (missing.length === 0) return;
  const command = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    log.warn(
      `calls need Debian packages that are missing: ${missing.join(', ')}.\n  Install them (as root):  sudo ${command}`,
    );
    return;
  }
  log.step(`installing the call server (${missing.join(', ')})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-q'], { env });
  await run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], { env });
}

function firstExternalIpv4(): string | undefined {
  for (const addrs of Object.values(networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

const secret = (name: string) => process.env[name] || randomBytes(24).toString('base64url');

export async function startCallServer(
  print: (line: string) => void,
): Promise<{ env: Record<string, string>; proc?: ManagedProcess }> {
  await ensureCallPackages();
  const wsPort = (await isPortFree(8188)) ? 8188 : await freePort();
  const env: Record<string, string> = {
    JANUS_WS_URL: `ws://127.0.0.1:${wsPort}`,
    JANUS_API_SECRET: secret('JANUS_API_SECRET'),
    JANUS_TOKEN_SECRET: secret('JANUS_TOKEN_SECRET'),
    JANUS_ADMIN_SECRET: secret('JANUS_ADMIN_SECRET'),
  };
  const runner = join(ROOT, 'services', 'calls', 'dist', 'janus', 'run.js');
  if (!existsSync('/usr/bin/janus') || !existsSync(runner)) {
    log.warn('Janus is not available: calls answer 503 until it is (apt-get install janus coturn)');
    return { env };
  }
  const ip = firstExternalIpv4();
  const turnEnv: Record<string, string> = {};
  // Janus offers no loopback candidates: a browser on this machine reaches it on its LAN address,
  // and coturn listens there too (TURN REST credentials come with each join)
  if (ip && existsSync('/usr/bin/turnserver') && (await isPortFree(3478, ip))) {
    turnEnv.TURN_SECRET = secret('TURN_SECRET');
    turnEnv.TURN_LISTEN = `${ip}:3478`;
    env.TURN_SECRET = turnEnv.TURN_SECRET;
    env.TURN_URLS = `turn:${ip}:3478?transport=udp,turn:${ip}:3478?transport=tcp`;
    env.STUN_URLS = `stun:${ip}:3478`;
  }
  const proc = new ManagedProcess('janus', 'node', [runner], {
    env: { ...process.env, ...env, ...turnEnv, JANUS_ADMIN_WS_PORT: String(await freePort()) },
    onLine: (line) => print(`${c.gray('janus   │')} ${line}`),
  });
  await waitFor('Janus', () => isListening(wsPort), {
    timeoutMs: 20_000,
    abort: () => (proc.alive ? undefined : 'exited'),
  }).catch((err: unknown) => {
    log.warn(
      `Janus did not start (calls answer 503): ${(err as Error).message}\n${proc.recentLines().slice(-20).join('\n')}`,
    );
  });
  return { env, proc };
}
