/** The calls service's environment: the one place that reads process.env. */
import { z } from 'zod';
import { baseEnvSchema, EnvError, loadEnv, optionalEnvString } from '@wb/platform';
import { CALL_TOKEN_TTL_MS } from '@wb/proto';

const secret = z.string().min(16, 'at least 16 characters');
const list = optionalEnvString.transform((v) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

export const callsEnvSchema = baseEnvSchema.extend({
  /** the Janus API over WebSocket (the transport is bound to a private address) */
  JANUS_WS_URL: z
    .string()
    .regex(/^wss?:\/\//, 'a ws:// or wss:// URL')
    .default('ws://127.0.0.1:8188'),
  /** Janus `api_secret`: this service's own requests (browsers never see it) */
  JANUS_API_SECRET: secret,
  /** Janus `token_auth_secret`: the HMAC-SHA1 key of the tokens handed to browsers */
  JANUS_TOKEN_SECRET: secret,
  /** Janus `admin_secret`, also the VideoRoom `admin_key` that rooms are created with */
  JANUS_ADMIN_SECRET: secret,
  /** how long a Janus request may take before the call counts as failed (→ 503) */
  JANUS_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** lifetime of a call token (and of the TURN credentials minted with it) */
  CALL_TOKEN_TTL_MS: z.coerce.number().int().min(5000).max(86_400_000).default(CALL_TOKEN_TTL_MS),
  /** a room with nobody in it for this long is destroyed */
  CALL_ROOM_IDLE_MS: z.coerce.number().int().min(1000).default(60_000),
  /** how often the rooms are checked for emptiness */
  CALL_SWEEP_EVERY_MS: z.coerce.number().int().min(200).default(15_000),
  /** video bitrate cap per publisher, bits/s (640×360 VP8 looks fine at 500 kb/s) */
  CALL_BITRATE: z.coerce.number().int().min(64_000).max(8_000_000).default(512_000),
  /** STUN servers for browsers, comma-separated (e.g. stun:turn.example.com:3478) */
  STUN_URLS: list,
  /** TURN servers (coturn), comma-separated, e.g. turn:turn.example.com:3478?transport=udp */
  TURN_URLS: list,
  /** coturn `static-auth-secret` (TURN REST credentials); required with TURN_URLS */
  TURN_SECRET: optionalEnvString,
  /** how long an owner's plan (asked of auth) is reused; 0 = ask every time */
  PLAN_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
});

export type CallsEnv = z.infer<typeof callsEnvSchema>;

export function loadCallsEnv(source: Record<string, string | undefined> = process.env): CallsEnv {
  const env = loadEnv(callsEnvSchema, source);
  if (env.TURN_URLS.length > 0 && !env.TURN_SECRET) {
    throw new EnvError('TURN_SECRET is required when TURN_URLS is set (TURN REST credentials are signed with it)');
  }
  return env;
}

/**
 * What `node services/calls/dist/janus/run.js` (Janus and coturn for `make up` or a VM) reads:
 * the same secrets as the service, plus where Janus listens and how it reaches browsers.
 */
export const janusRunnerEnvSchema = z.object({
  LOG_LEVEL: baseEnvSchema.shape.LOG_LEVEL,
  JANUS_WS_URL: z
    .string()
    .regex(/^ws:\/\/[^/:]+:\d+\/?$/, 'ws://<ip>:<port>')
    .default('ws://127.0.0.1:8188'),
  JANUS_ADMIN_WS_PORT: z.coerce.number().int().min(1).max(65535).default(7188),
  JANUS_API_SECRET: secret,
  JANUS_TOKEN_SECRET: secret,
  JANUS_ADMIN_SECRET: secret,
  /** UDP ports for media */
  JANUS_RTP_PORTS: z
    .string()
    .regex(/^\d+-\d+$/, 'min-max')
    .default('20000-20999'),
  /** the public address when Janus runs behind 1:1 NAT (cloud VM) */
  JANUS_NAT_1_1: optionalEnvString,
  /** only gather candidates on these interfaces/addresses (comma-separated) */
  JANUS_ICE_ENFORCE_LIST: optionalEnvString,
  /** STUN server host:port for Janus's own public candidate */
  JANUS_STUN_SERVER: optionalEnvString,
  JANUS_DEBUG_LEVEL: z.coerce.number().int().min(0).max(7).default(4),
  /** coturn is started when this is set (TURN REST secret shared with the calls service) */
  TURN_SECRET: optionalEnvString,
  /** coturn's listening address and port; default: this machine's first non-loopback IPv4, 3478 */
  TURN_LISTEN: optionalEnvString,
  TURN_RELAY_PORTS: z
    .string()
    .regex(/^\d+-\d+$/, 'min-max')
    .default('21000-21999'),
});
export type JanusRunnerEnv = z.infer<typeof janusRunnerEnvSchema>;

export function loadJanusRunnerEnv(source: Record<string, string | undefined> = process.env): JanusRunnerEnv {
  return loadEnv(janusRunnerEnvSchema, source);
}
