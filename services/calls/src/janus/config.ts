/**
 * Renders the repository's Janus configuration (infra/janus/*.jcfg, with {{NAME}} placeholders)
 * into a folder for `janus -F <folder>`. Secrets come from the caller (environment or generated),
 * never from the repository. Every plugin, transport, logger and event handler found in the
 * Janus library folders except the VideoRoom plugin and the WebSocket transport is disabled.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface JanusConfigOptions {
  /** the folder to write (created when missing) */
  dir: string;
  apiSecret: string;
  tokenSecret: string;
  adminSecret: string;
  /** address the WebSocket transports bind to (127.0.0.1, or the veth address in a test namespace) */
  wsIp: string;
  wsPort: number;
  adminWsPort: number;
  /** "min-max" UDP ports for media */
  rtpPortRange: string;
  /** only gather ICE candidates on these interfaces/addresses (comma-separated) */
  iceEnforceList?: string;
  /** the public address when Janus is behind 1:1 NAT (e.g. a cloud VM) */
  nat1to1?: string;
  /** STUN server host:port for Janus's own candidates (behind NAT) */
  stunServer?: string;
  /** 0–7 (4 = info) */
  debugLevel?: number;
  /** the Janus library folder (plugins/, transports/, …); found under /usr/lib when not given */
  libDir?: string;
  /** where the templates are; found by walking up to infra/janus when not given */
  templatesDir?: string;
}

const TEMPLATES = ['janus.jcfg', 'janus.transport.websockets.jcfg', 'janus.plugin.videoroom.jcfg'] as const;
const KEEP = { plugins: 'libjanus_videoroom.so', transports: 'libjanus_websockets.so' } as const;
const SAFE_VALUE = /^[^"\\\n\r{}]*$/;

/** infra/janus of this repository, from the source or the built file */
export function findTemplatesDir(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'infra', 'janus');
    if (existsSync(join(candidate, 'janus.jcfg'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`no infra/janus/janus.jcfg above ${from}`);
  }
}

/** Debian installs Janus's libraries in /usr/lib/<multiarch>/janus */
export function findJanusLibDir(): string {
  const candidates = [
    '/usr/lib/x86_64-linux-gnu/janus',
    '/usr/lib/aarch64-linux-gnu/janus',
    '/usr/lib/janus',
    '/opt/janus/lib/janus',
  ];
  if (existsSync('/usr/lib')) {
    for (const entry of readdirSync('/usr/lib')) candidates.push(join('/usr/lib', entry, 'janus'));
  }
  const found = candidates.find((d) => existsSync(join(d, 'plugins', KEEP.plugins)));
  if (!found)
    throw new Error('Janus is not installed (no libjanus_videoroom.so under /usr/lib/*/janus): apt-get install janus');
  return found;
}

function disabledIn(folder: string, keep?: string): string {
  if (!existsSync(folder)) return '';
  return readdirSync(folder)
    .filter((f) => f.endsWith('.so') && f !== keep)
    .sort()
    .join(',');
}

export function renderJanusConfig(opts: JanusConfigOptions): void {
  const lib = opts.libDir ?? findJanusLibDir();
  const templates = opts.templatesDir ?? findTemplatesDir();
  const nat: string[] = [];
  if (opts.iceEnforceList) nat.push(`\tice_enforce_list = "${opts.iceEnforceList}"`);
  if (opts.nat1to1) nat.push(`\tnat_1_1_mapping = "${opts.nat1to1}"`);
  if (opts.stunServer) {
    const [host, port] = opts.stunServer.split(':');
    nat.push(`\tstun_server = "${host}"`, `\tstun_port = ${Number(port ?? 3478)}`);
  }
  const values: Record<string, string> = {
    CONFIG_DIR: opts.dir,
    PLUGINS_DIR: join(lib, 'plugins'),
    TRANSPORTS_DIR: join(lib, 'transports'),
    EVENTS_DIR: join(lib, 'events'),
    LOGGERS_DIR: join(lib, 'loggers'),
    DEBUG_LEVEL: String(opts.debugLevel ?? 4),
    API_SECRET: opts.apiSecret,
    TOKEN_SECRET: opts.tokenSecret,
    ADMIN_SECRET: opts.adminSecret,
    RTP_PORT_RANGE: opts.rtpPortRange,
    NAT_LINES: nat.join('\n'),
    DISABLED_PLUGINS: disabledIn(join(lib, 'plugins'), KEEP.plugins),
    DISABLED_TRANSPORTS: disabledIn(join(lib, 'transports'), KEEP.transports),
    DISABLED_LOGGERS: disabledIn(join(lib, 'loggers')),
    DISABLED_EVENTS: disabledIn(join(lib, 'events')),
    WS_IP: opts.wsIp,
    WS_PORT: String(opts.wsPort),
    ADMIN_WS_PORT: String(opts.adminWsPort),
  };
  for (const [name, value] of Object.entries(values)) {
    // a quote or brace would break out of the libconfig string
    if (name !== 'NAT_LINES' && !SAFE_VALUE.test(value))
      throw new Error(`Janus config value ${name} contains " \\ { } or a newline`);
  }
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  for (const file of TEMPLATES) {
    const text = readFileSync(join(templates, file), 'utf8').replace(/\{\{([A-Z0-9_]+)\}\}/g, (_, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`${file}: unknown placeholder {{${name}}}`);
      return value;
    });
    writeFileSync(join(opts.dir, file), text, { mode: 0o600 });
  }
}

/** coturn in the foreground with TURN REST credentials (username `<expiry>:<key>`, HMAC-SHA1 of the secret) */
export function turnserverArgs(opts: {
  listenIp: string;
  port: number;
  secret: string;
  realm: string;
  /** "min-max" relay ports */
  relayPorts: string;
  /** the public address when behind NAT */
  externalIp?: string;
}): string[] {
  const [min, max] = opts.relayPorts.split('-');
  return [
    '-n',
    `--listening-ip=${opts.listenIp}`,
    `--listening-port=${opts.port}`,
    '--use-auth-secret',
    `--static-auth-secret=${opts.secret}`,
    `--realm=${opts.realm}`,
    `--min-port=${min}`,
    `--max-port=${max}`,
    ...(opts.externalIp ? [`--external-ip=${opts.externalIp}`] : []),
    '--fingerprint',
    '--no-cli',
    '--no-tls',
    '--no-dtls',
    '--no-multicast-peers',
    '--log-file=stdout',
    '--simple-log',
  ];
}
