/**
 * What the calls service signs: Janus tokens, TURN REST credentials, room ids and room secrets.
 * Pure functions (no I/O), shared by the service, the test harness and `make up`.
 *
 * Janus signed tokens (core `token_auth_secret`, janus auth.c): `<expiry>,janus,<descriptors>:<sig>`
 * with expiry in UNIX seconds, realm `janus`, the plugins allowed among the comma-separated
 * descriptors, and sig = base64(HMAC-SHA1(secret, the part before the colon)). Janus checks signature and expiry on every request and the plugin list on attach.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CALL_JANUS_PLUGIN, CALL_TOKEN_ROOM_PREFIX } from '@wb/proto';

export function signJanusToken(
  secret: string,
  expiresAtMs: number,
  opts: {
    /** the VideoRoom the token opens (descriptor `room<id>`): the gateway's /janus lets it reach no other */
    room?: number;
    nonce?: string;
  } = {},
): string {
  // Janus reads the items after the realm as descriptors and only looks for the plugin among them:
  // the nonce makes every token unique (two boards' tokens minted in the same second would
  // otherwise be the same string, and a room's allowed list could not tell them apart)
  const nonce = opts.nonce ?? randomBytes(12).toString('base64url');
  const room = opts.room === undefined ? '' : `,${CALL_TOKEN_ROOM_PREFIX}${opts.room}`;
  const data = `${Math.floor(expiresAtMs / 1000)},janus,${CALL_JANUS_PLUGIN}${room},${nonce}`;
  return `${data}:${createHmac('sha1', secret).update(data).digest('base64')}`;
}

/** the expiry (ms since the epoch) a token of ours carries, or null when it is not one */
export function janusTokenExpiry(token: string): number | null {
  const m = /^(\d{1,12}),janus,[^:]+:[A-Za-z0-9+/=]+$/.exec(token);
  return m ? Number(m[1]) * 1000 : null;
}

/** whether `token` is signed with `secret` and not expired at `nowMs` (what Janus checks) */
export function verifyJanusToken(secret: string, token: string, nowMs: number): boolean {
  const colon = token.lastIndexOf(':');
  const expiry = janusTokenExpiry(token);
  if (colon < 0 || expiry === null || expiry <= nowMs) return false;
  const want = Buffer.from(createHmac('sha1', secret).update(token.slice(0, colon)).digest('base64'));
  const got = Buffer.from(token.slice(colon + 1));
  return want.length === got.length && timingSafeEqual(want, got);
}

/**
 * TURN REST API credentials (coturn `--use-auth-secret --static-auth-secret`): username
 * `<expiry seconds>:<userKey>`, credential base64(HMAC-SHA1(secret, username)).
 */
export function turnCredentials(
  secret: string,
  userKey: string,
  expiresAtMs: number,
): { username: string; credential: string } {
  const username = `${Math.floor(expiresAtMs / 1000)}:${userKey}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}

/**
 * The VideoRoom id of a board: the first 48 bits of sha256(board id), never 0. Every replica and
 * every restart derives the same id, so "create the room if missing" needs no shared state, and
 * 48 bits fit a JSON number exactly (collisions: ~1 in 10⁶ at 24 million boards with calls).
 */
export function roomIdOf(boardId: string): number {
  const n = createHash('sha256').update(`board:${boardId}`).digest().readUIntBE(0, 6);
  return n === 0 ? 1 : n;
}

/** The room's `secret` (needed to destroy, moderate, edit its allowed list): derived, server-only. */
export function roomSecretOf(key: string, room: number): string {
  return createHmac('sha256', key).update(`room:${room}`).digest('base64url');
}
