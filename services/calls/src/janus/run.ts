/**
 * Janus (and coturn, when TURN_SECRET is set) in the foreground with the repository's config:
 * `node services/calls/dist/janus/run.js`. Renders infra/janus into a private temp folder from the
 * environment (janusRunnerEnvSchema in ../env.ts), starts `janus -F <folder>` and
 * `turnserver -n --use-auth-secret …`, prefixes their output, and on SIGTERM/SIGINT stops both
 * (by PID) and deletes the folder. Exits non-zero when either dies. `make up` runs it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@wb/platform';
import { loadJanusRunnerEnv } from '../env';
import { renderJanusConfig, turnserverArgs } from './config';
import { spawnChild, startJanusProcess, waitForPort } from './process';
import type { ChildHandle } from './process';

function firstExternalIpv4(): string {
  for (const addrs of Object.values(networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

async function main(): Promise<void> {
  const env = loadJanusRunnerEnv();
  const log = createLogger({ service: 'janus-runner', level: env.LOG_LEVEL });
  const ws = new URL(env.JANUS_WS_URL);
  const dir = mkdtempSync(join(tmpdir(), 'wb-janus-'));
  const children: ChildHandle[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const c of [...children].reverse()) await c.stop(5000);
    rmSync(dir, { recursive: true, force: true });
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));

  try {
    renderJanusConfig({
      dir,
      apiSecret: env.JANUS_API_SECRET,
      tokenSecret: env.JANUS_TOKEN_SECRET,
      adminSecret: env.JANUS_ADMIN_SECRET,
      wsIp: ws.hostname,
      wsPort: Number(ws.port),
      adminWsPort: env.JANUS_ADMIN_WS_PORT,
      rtpPortRange: env.JANUS_RTP_PORTS,
      iceEnforceList: env.JANUS_ICE_ENFORCE_LIST,
      nat1to1: env.JANUS_NAT_1_1,
      stunServer: env.JANUS_STUN_SERVER,
      debugLevel: env.JANUS_DEBUG_LEVEL,
    });
    const janus = await startJanusProcess({
      configDir: dir,
      wsIp: ws.hostname,
      wsPort: Number(ws.port),
      adminWsPort: env.JANUS_ADMIN_WS_PORT,
      onLine: (line) => process.stdout.write(`[janus] ${line}\n`),
      onSpawn: (child) => children.push(child),
    });
    log.info({ ws: janus.wsUrl, pid: janus.child.pid }, 'janus is up');
    void janus.child.exited.then((code) => {
      if (!stopping) log.error({ code }, 'janus exited');
      void stop(1);
    });

    if (env.TURN_SECRET) {
      const [ip, port] = (env.TURN_LISTEN ?? `${firstExternalIpv4()}:3478`).split(':');
      const turn = spawnChild(
        'turnserver',
        turnserverArgs({
          listenIp: ip!,
          port: Number(port ?? 3478),
          secret: env.TURN_SECRET,
          realm: 'whiteboard',
          relayPorts: env.TURN_RELAY_PORTS,
          externalIp: env.JANUS_NAT_1_1,
        }),
        { onLine: (line) => process.stdout.write(`[turn] ${line}\n`) },
      );
      children.push(turn);
      if (stopping) return;
      await waitForPort(turn, ip!, Number(port ?? 3478), 10_000);
      log.info({ listen: `${ip}:${port ?? 3478}`, pid: turn.pid }, 'coturn is up');
      void turn.exited.then((code) => {
        if (!stopping) log.error({ code }, 'turnserver exited');
        void stop(1);
      });
    }
  } catch (err) {
    log.error({ err }, 'could not start Janus');
    await stop(1);
  }
}

void main();
