/**
 * Realtime wire protocol and board document schema (shared by the realtime nodes, the gateway and
 * the web app). The rules are numbered in services/realtime/SPEC.md; this file is their code.
 *
 * Pure TypeScript on purpose (no Automerge, no node:*): the gateway and the web import it too.
 * Automerge bytes (sync messages, changes) travel raw inside binary frames.
 *
 * Frame = 1 type byte + payload. Control payloads are UTF-8 JSON; SYNC is one Automerge sync
 * message; CHANGES is a list of change bytes; EPHEMERAL carries opaque client bytes.
 *   list        = u32 count, then per item u32 length + bytes          (big-endian)
 *   ephemeral   = u8 kind + bytes                                       (client → server)
 *   eph. batch  = u32 count, then per item u32 peer + u8 kind + u32 length + bytes
 */
import { z } from 'zod';
import { BOARD_ACCESS_LEVELS, boardIdSchema, READ_ONLY_REASONS } from './boards';
import { BOARD_BACKGROUNDS } from './settings';

/** Bumped on any incompatible change; a client with another version is closed with 4426 (reload). */
export const REALTIME_PROTOCOL_VERSION = 1;
/** Board document schema version, stored in the document root as `schema`. */
export const BOARD_DOC_SCHEMA_VERSION = 1;

/** Upgrade path through the gateway: /rt/boards/<board id, may contain slashes>. */
export const REALTIME_PATH_PREFIX = '/rt/boards/';
/** Header the gateway sets on the proxied upgrade: signed actor (see services/realtime/SPEC.md A1). */
export const REALTIME_ACTOR_HEADER = 'x-wb-actor';
/**
 * Development-only HMAC key of that header, used by the gateway and the nodes when
 * RT_SHARED_SECRET is unset (both refuse to start without it in production).
 */
export const REALTIME_DEV_SHARED_SECRET = 'dev-only-insecure-realtime-shared-secret';

// ---------------------------------------------------------------------------------------------
// Limits (SPEC L1–L4)

/**
 * Heartbeat (SPEC K1–K4). The node pings every socket with websocket ping frames every
 * `serverPingMs` and drops one that answered neither the previous ping nor sent anything since
 * (presence drops a silent peer within 2 × serverPingMs). Browsers cannot see ping frames, so a
 * client that heard nothing for `clientIdleMs` sends PING and gives the connection up when it
 * still hears nothing `clientDeadMs` after the last frame (`clientJoinDeadMs` until it is in
 * sync: a big DOC arrives as one long frame).
 */
export const RT_HEARTBEAT = {
  serverPingMs: 4000,
  clientIdleMs: 3000,
  clientDeadMs: 7000,
  clientJoinDeadMs: 30_000,
  /** after the browser says it is online again or the tab comes back: answer within this or reconnect */
  clientProbeMs: 1500,
} as const;

export const RT_LIMITS = {
  /** one websocket frame */
  maxFrameBytes: 1024 * 1024,
  /** one Automerge change (images and documents are file references, never inline data) */
  maxChangeBytes: 512 * 1024,
  /** one ephemeral message (cursor, in-progress stroke delta, selection, viewport) */
  maxEphemeralBytes: 4096,
  /** sum of the journal + snapshot bytes a board may grow to */
  maxBoardBytes: 64 * 1024 * 1024,
  /** guest display name */
  maxNameLength: 60,
  /**
   * operations in one Automerge change (SPEC L4), as `A.decodeChange(bytes).ops.length` counts
   * them: one per field written or deleted, one per object made (a new shape: 1 + its fields),
   * one per shape deleted, one per character of collaborative text inserted or deleted.
   */
  maxChangeOps: 10_000,
  /**
   * of those, operations that replace or remove an existing map value (SPEC L4): every field
   * written or deleted on a shape that existed before the change (a move is 2: x and y), every
   * shape deleted or replaced. Applying them is what stalls a node: Automerge rewrites its stored
   * columns around every old value, and on a freshly loaded 20,000-stroke board the cost jumps
   * past ~50 per change (25 moves ~50 ms, 50 moves ~0.5–0.6 s, 4,000 moves ~19 s), while new
   * shapes and text cost ~20–40 µs per op. A bigger edit is split by the client into changes of
   * at most this many (25 moves each).
   */
  maxChangeOverwrites: 50,
  /** chat (SPEC C3): characters of one message after trimming */
  maxChatChars: 1000,
  /** chat (SPEC C4): messages one person may send per window (token bucket: burst, then refill) */
  chatRateMessages: 5,
  chatRateWindowMs: 5000,
  /**
   * chat (SPEC C4): messages all the guests of one client address may send on one board per
   * window, besides each guest's own bucket (a guest has no identity beyond the socket: without it
   * opening sockets multiplied the rate). A classroom of guests behind one school address shares it.
   */
  guestChatPerAddressMessages: 10,
  /** admission (SPEC J7): guest sockets one client address may hold on one board; more → 4430 */
  guestSocketsPerAddress: 8,
  /** chat (SPEC C5): messages per history page */
  chatHistoryPage: 50,
} as const;

/** Server tick: committed changes and ephemeral traffic are batched per tick (~60 Hz). */
export const RT_TICK_MS = 16;
/** Clients send ephemeral messages at most this often (~30 Hz). */
export const RT_CLIENT_EPHEMERAL_MS = 33;

// ---------------------------------------------------------------------------------------------
// Close codes (SPEC C1–C12). 4xxx: application codes the web maps to lock screens / reconnects.

export const RT_CLOSE = {
  /** the node is not the board's owner: reconnect through the gateway (reason = {"node": id}) */
  WRONG_NODE: 4307,
  /** frame could not be decoded or violated the protocol */
  MALFORMED: 4400,
  /** no (valid) actor header / session */
  UNAUTHENTICATED: 4401,
  /** read-only due to plan limits or used-up collaboration minutes (lock screen) */
  READ_ONLY_PLAN: 4402,
  /** no access (lock screen "restricted") */
  RESTRICTED: 4403,
  /** board does not exist (lock screen "not found") */
  NOT_FOUND: 4404,
  /** no hello within the join timeout */
  JOIN_TIMEOUT: 4408,
  /** the board was trashed or purged while connected */
  BOARD_GONE: 4410,
  /** the room is moving (node shutting down, lease lost): reconnect at once, nothing is lost */
  ROOM_MOVED: 4412,
  /** frame or change over the size limit */
  TOO_LARGE: 4413,
  /** the board reached its size limit */
  BOARD_FULL: 4414,
  /** incompatible protocol version: reload the app */
  PROTOCOL_VERSION: 4426,
  /** the client does not read fast enough (committed data is never dropped) */
  SLOW_CONSUMER: 4429,
  /** SPEC J7: this client address already holds guestSocketsPerAddress guest sockets on the board (no reconnect) */
  GUEST_LIMIT: 4430,
  /** unexpected server error: reconnect */
  INTERNAL: 4500,
} as const;
export type RtCloseCode = (typeof RT_CLOSE)[keyof typeof RT_CLOSE];
/** Codes after which a client reconnects by itself (through the gateway). */
export const RT_RECONNECT_CODES: readonly number[] = [
  RT_CLOSE.WRONG_NODE,
  RT_CLOSE.ROOM_MOVED,
  RT_CLOSE.INTERNAL,
  RT_CLOSE.SLOW_CONSUMER,
  RT_CLOSE.JOIN_TIMEOUT,
];

// ---------------------------------------------------------------------------------------------
// Message types

export const MSG = {
  // client → server
  HELLO: 1,
  SYNC: 2,
  CHANGES: 3,
  EPHEMERAL: 4,
  /** JSON {hidden}: the tab was hidden/shown (collaboration insights: hidden minutes) */
  VISIBILITY: 5,
  /** chat (SPEC C*): JSON {text, clientId} — a new message */
  CHAT_SEND: 6,
  /** chat: JSON {id} — delete a message (owner: any; author: own) */
  CHAT_DELETE: 7,
  /** chat: JSON {before?} — a page of history older than `before` (newest first page without) */
  CHAT_HISTORY: 8,
  /** lesson (SPEC LS*): JSON {action: set|start|pause|reset|addMinute, durationMs?} — the shared timer */
  LESSON_TIMER: 9,
  /** lesson: JSON {action: start|stop} — presentation mode */
  LESSON_PRESENT: 30,
  /** lesson: JSON {x, y, width, height} or {} — the owner brings everyone to a view */
  LESSON_GATHER: 31,
  /** empty: "are you there?" — a client that heard nothing for a while (SPEC K2); answered by PONG */
  PING: 32,
  // server → client
  WELCOME: 10,
  SYNC_S: 11,
  CHANGES_S: 12,
  EPHEMERAL_BATCH: 13,
  PRESENCE: 14,
  SAVED: 15,
  ERROR: 16,
  SYNCED: 17,
  /** a recent whole document (Automerge save bytes) for a client that joined with none (S6) */
  DOC: 18,
  /** JSON {title, background, deleteOwnOnly}: the board's facts changed while connected (B1) */
  BOARD_INFO: 19,
  /**
   * S9: the DOC that follows as plain shape records (renderSnapshot.ts), so a fresh client paints
   * the board before its Automerge has loaded that DOC; sent only to a HELLO with `render: true`
   */
  RENDER: 23,
  /** chat: JSON ChatMessage (+ clientId for its sender) — a new message for everyone in the room */
  CHAT: 20,
  /** chat: JSON {messages (oldest first), more} — one page of history */
  CHAT_HISTORY_S: 21,
  /** chat: JSON {id} — a message was deleted */
  CHAT_DELETED: 22,
  /** lesson: JSON LessonState (timer, presenter, paid, serverNow) — on join and every change */
  LESSON_STATE: 40,
  /** lesson: JSON {x, y, width, height, by} — go to this view (the owner's "bring everyone") */
  LESSON_GATHER_S: 41,
  /** empty: the answer to PING (SPEC K2) */
  PONG: 42,
} as const;
export type MsgType = (typeof MSG)[keyof typeof MSG];

/**
 * Ephemeral kinds: state kinds keep only the latest per tick; STROKE deltas are appended.
 * INSTRUMENT: the geometry instruments (ruler, protractor, compass) someone has on the board.
 */
export const EPHEMERAL_KIND = { CURSOR: 1, STROKE: 2, SELECTION: 3, VIEWPORT: 4, LASER: 5, INSTRUMENT: 6 } as const;
export type EphemeralKind = (typeof EPHEMERAL_KIND)[keyof typeof EPHEMERAL_KIND];
export const EPHEMERAL_KINDS: readonly number[] = Object.values(EPHEMERAL_KIND);

export const helloSchema = z.strictObject({
  protocol: z.number().int(),
  /** guests pick a display name; logged-in users' names come from the signed actor */
  name: z.string().trim().min(1).max(RT_LIMITS.maxNameLength).optional(),
  /** the client has no document yet: send a recent whole one first (DOC), then sync the rest (S6) */
  fresh: z.boolean().optional(),
  /** with `fresh`: the client can paint a render snapshot (RENDER) before the DOC (S9) */
  render: z.boolean().optional(),
});
export type Hello = z.infer<typeof helloSchema>;
export const visibilitySchema = z.strictObject({ hidden: z.boolean() });

export const presenceEntrySchema = z.object({
  /** per-connection id, also the id in ephemeral batches */
  peerId: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  /** #rrggbb */
  color: z.string(),
  role: z.enum(['owner', 'editor', 'viewer']),
  guest: z.boolean(),
});
export type PresenceEntry = z.infer<typeof presenceEntrySchema>;

export const welcomeSchema = z.object({
  protocol: z.number().int(),
  peerId: z.number().int(),
  boardId: z.string(),
  /** the board's title and background at join; later changes arrive as BOARD_INFO (B1) */
  title: z.string(),
  background: z.enum(BOARD_BACKGROUNDS),
  access: z.enum(BOARD_ACCESS_LEVELS),
  role: z.enum(['owner', 'editor', 'viewer']),
  readOnlyReason: z.enum(READ_ONLY_REASONS).nullable(),
  deleteOwnOnly: z.boolean(),
  ownerId: z.number().int(),
  presence: z.array(presenceEntrySchema),
});
export type Welcome = z.infer<typeof welcomeSchema>;

export const presenceMsgSchema = z.object({ presence: z.array(presenceEntrySchema) });
/** B1: what every peer shows of the board, sent to all of a room's peers whenever it changes */
export const boardInfoSchema = z.object({
  title: z.string(),
  background: z.enum(BOARD_BACKGROUNDS),
  deleteOwnOnly: z.boolean(),
});
export type BoardInfo = z.infer<typeof boardInfoSchema>;
/** the change hashes (sent by this client) that are now durable in the journal */
export const savedSchema = z.object({ hashes: z.array(z.string()) });
export const RT_ERROR_CODES = [
  'read_only',
  'delete_own_only',
  'invalid_change',
  'board_full',
  /** more operations in one change than RT_LIMITS.maxChangeOps / maxChangeOverwrites allow (L4) */
  'change_too_big',
  /** chat (SPEC C*): a message or request that breaks a chat rule (message names the rule) */
  'chat_invalid',
  'chat_rate_limited',
  'chat_forbidden',
  'chat_not_found',
  /** chat: the node could not store or read messages right now (try again) */
  'chat_unavailable',
  /** lesson (SPEC LS*): a malformed lesson request (message names the rule) */
  'lesson_invalid',
  /** lesson: this person may not do that (role, not the presenter) */
  'lesson_forbidden',
  /** lesson: the board owner's plan lacks the feature (message names it) */
  'lesson_upgrade',
  /** lesson: the owner's plan could not be read right now (try again) */
  'lesson_unavailable',
] as const;
export const rtErrorSchema = z.object({
  code: z.enum(RT_ERROR_CODES),
  message: z.string(),
  /** refused change hashes: the client must drop its local document and rejoin (SPEC D7) */
  hashes: z.array(z.string()).optional(),
});
export type RtError = z.infer<typeof rtErrorSchema>;

// ---------------------------------------------------------------------------------------------
// Framing

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder('utf-8', { fatal: true });

export class FrameError extends Error {}

export function encodeJsonFrame(type: MsgType, value: unknown): Uint8Array {
  const body = textEncoder.encode(JSON.stringify(value));
  const out = new Uint8Array(1 + body.length);
  out[0] = type;
  out.set(body, 1);
  return out;
}
export function encodeBytesFrame(type: MsgType, bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + bytes.length);
  out[0] = type;
  out.set(bytes, 1);
  return out;
}
export function encodeListFrame(type: MsgType, items: readonly Uint8Array[]): Uint8Array {
  let size = 1 + 4;
  for (const it of items) size += 4 + it.length;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out[0] = type;
  dv.setUint32(1, items.length);
  let o = 5;
  for (const it of items) {
    dv.setUint32(o, it.length);
    out.set(it, o + 4);
    o += 4 + it.length;
  }
  return out;
}
export function decodeList(payload: Uint8Array): Uint8Array[] {
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  if (payload.length < 4) throw new FrameError('list too short');
  const n = dv.getUint32(0);
  const out: Uint8Array[] = [];
  let o = 4;
  for (let i = 0; i < n; i++) {
    if (o + 4 > payload.length) throw new FrameError('list truncated');
    const len = dv.getUint32(o);
    o += 4;
    if (o + len > payload.length) throw new FrameError('list item truncated');
    out.push(payload.subarray(o, o + len));
    o += len;
  }
  if (o !== payload.length) throw new FrameError('trailing bytes after list');
  return out;
}
export function decodeJson<S extends z.ZodType>(payload: Uint8Array, schema: S): z.infer<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(textDecoder.decode(payload));
  } catch {
    throw new FrameError('payload is not JSON');
  }
  const r = schema.safeParse(raw);
  if (!r.success) throw new FrameError(`invalid payload: ${r.error.issues[0]?.message ?? ''}`);
  return r.data;
}

export interface EphemeralItem {
  peerId: number;
  kind: number;
  data: Uint8Array;
}
export function encodeEphemeral(kind: EphemeralKind, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(2 + data.length);
  out[0] = MSG.EPHEMERAL;
  out[1] = kind;
  out.set(data, 2);
  return out;
}
export function encodeEphemeralBatch(items: readonly EphemeralItem[]): Uint8Array {
  let size = 1 + 4;
  for (const it of items) size += 9 + it.data.length;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out[0] = MSG.EPHEMERAL_BATCH;
  dv.setUint32(1, items.length);
  let o = 5;
  for (const it of items) {
    dv.setUint32(o, it.peerId);
    out[o + 4] = it.kind;
    dv.setUint32(o + 5, it.data.length);
    out.set(it.data, o + 9);
    o += 9 + it.data.length;
  }
  return out;
}
export function decodeEphemeralBatch(payload: Uint8Array): EphemeralItem[] {
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  if (payload.length < 4) throw new FrameError('batch too short');
  const n = dv.getUint32(0);
  const out: EphemeralItem[] = [];
  let o = 4;
  for (let i = 0; i < n; i++) {
    if (o + 9 > payload.length) throw new FrameError('batch truncated');
    const len = dv.getUint32(o + 5);
    if (o + 9 + len > payload.length) throw new FrameError('batch item truncated');
    out.push({ peerId: dv.getUint32(o), kind: payload[o + 4]!, data: payload.subarray(o + 9, o + 9 + len) });
    o += 9 + len;
  }
  return out;
}

/** Split a frame into its type and payload (no copy). */
export function splitFrame(frame: Uint8Array): { type: number; payload: Uint8Array } {
  if (frame.length < 1) throw new FrameError('empty frame');
  return { type: frame[0]!, payload: frame.subarray(1) };
}

// ---------------------------------------------------------------------------------------------
// Board document schema v1 (SPEC D1–D4)
//
// root = { schema: 1, shapes: { "00" … "ff": { <shape id>: ShapeRecord } } }
// The 256 buckets exist from the first change (the "genesis", identical on every node), so no
// two peers ever create the same bucket concurrently. A shape lives in bucket bucketOf(id).
// Strings that are never edited character by character are Automerge ImmutableStrings; stroke
// points are packed bytes (packPoints: x0,y0,x1,y1,… relative to the shape's x,y).

export const SHAPE_BUCKETS = 256;
export const SHAPE_KINDS = [
  'pen',
  'line',
  'arc',
  'polyline',
  'curve',
  'connector',
  'shape',
  'sticky',
  'text',
  'formula',
  'graph',
  'image',
  'documentPage',
] as const;
export type ShapeKind = (typeof SHAPE_KINDS)[number];
export const GEOMETRIC_SHAPES = ['rectangle', 'ellipse', 'triangle', 'diamond', 'star', 'hexagon', 'arrow'] as const;
/** How a closed shape is filled with its fillColor: none (outline only), solid, or semi (≈30 % alpha). */
export const FILL_STYLES = ['none', 'solid', 'semi'] as const;
export type FillStyle = (typeof FILL_STYLES)[number];

/** Fields every shape has. Colours are 0xRRGGBB integers (settings keep [r,g,b]). */
export interface ShapeBase {
  /** the record's key in its bucket; not stored in the record (SPEC D4) */
  id: string;
  kind: ShapeKind;
  /** user id of the creator (0 = guest): decides deletes when the board restricts them (SPEC D6) */
  creator: number;
  /** fractional index: shapes are drawn in ascending string order */
  z: string;
  x: number;
  y: number;
  rotation?: number;
  locked?: boolean;
  strokeColor?: number;
  strokeWidth?: number;
  linePattern?: string;
  fillColor?: number | null;
  /** absent = 'solid' when fillColor is set, else none */
  fill?: FillStyle;
  opacity?: number;
  /** shapes with the same groupId select, move and resize together (group/ungroup) */
  groupId?: string;
}
export interface PenShape extends ShapeBase {
  kind: 'pen';
  points: Uint8Array;
  pressures?: Uint8Array;
}
export interface LineShape extends ShapeBase {
  kind: 'line';
  points: Uint8Array;
  arrowStart?: boolean;
  arrowEnd?: boolean;
}
export interface ArcShape extends ShapeBase {
  kind: 'arc';
  r: number;
  startAngle: number;
  endAngle: number;
}
export interface PolylineShape extends ShapeBase {
  kind: 'polyline' | 'curve';
  points: Uint8Array;
  closed?: boolean;
}
export interface ConnectorShape extends ShapeBase {
  kind: 'connector';
  points: Uint8Array;
  fromId: string | null;
  toId: string | null;
  fromAnchor?: string;
  toAnchor?: string;
  arrowStart?: boolean;
  arrowEnd?: boolean;
  /** right-angled route instead of a straight line */
  elbow?: boolean;
}
export interface GeometricShape extends ShapeBase {
  kind: 'shape';
  shapeType: (typeof GEOMETRIC_SHAPES)[number];
  w: number;
  h: number;
  /** a label inside the shape (collaborative text) */
  text?: string;
}
export interface StickyShape extends ShapeBase {
  kind: 'sticky';
  w: number;
  h: number;
  text: string;
  color: number;
}
export interface TextShape extends ShapeBase {
  kind: 'text';
  text: string;
  font: string;
  fontSize: number;
  color: number;
  w: number;
}
export interface FormulaShape extends ShapeBase {
  kind: 'formula';
  latex: string;
  fontSize: number;
  color: number;
  alignment: string;
  /** rendered size in world units (so every peer's bounds match); older records lack them */
  w?: number;
  h?: number;
}
export interface GraphShape extends ShapeBase {
  kind: 'graph';
  /** JSON of the graphing tool's state (expressions, domain) */
  spec: string;
  w: number;
  h: number;
}
export interface ImageShape extends ShapeBase {
  kind: 'image';
  fileId: string;
  w: number;
  h: number;
}
export interface DocumentPageShape extends ShapeBase {
  kind: 'documentPage';
  fileId: string;
  page: number;
  w: number;
  h: number;
}
export type ShapeRecord =
  | PenShape
  | LineShape
  | ArcShape
  | PolylineShape
  | ConnectorShape
  | GeometricShape
  | StickyShape
  | TextShape
  | FormulaShape
  | GraphShape
  | ImageShape
  | DocumentPageShape;

/** Settings defaults (spec §3) as shape style defaults. */
export const SHAPE_STYLE_DEFAULTS = {
  strokeColor: 0x000000,
  strokeWidth: 3,
  linePattern: 'pen',
  textColor: 0x000000,
  textSize: 16,
  textFont: 'Open Sans',
  formulaColor: 0x000000,
  formulaSize: 20,
  formulaAlignment: 'equation',
} as const;

/** FNV-1a 32 over UTF-16 code units: stable across runtimes, cheap. */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
export function bucketName(index: number): string {
  return index.toString(16).padStart(2, '0');
}
/** The bucket key ("00"…"ff") a shape id lives in (SPEC D2). */
export function bucketOf(shapeId: string): string {
  return bucketName(fnv1a32(shapeId) % SHAPE_BUCKETS);
}
export const BUCKET_NAMES: readonly string[] = Array.from({ length: SHAPE_BUCKETS }, (_, i) => bucketName(i));

/**
 * Stroke points (SPEC D3). Points are written in the compact form: a header byte with the grid
 * exponent e (coordinates are rounded to multiples of 2^-e world units), the point count as a
 * LEB128 varint, then per coordinate the zigzag LEB128 varint of its step from the previous one on
 * that grid (the first from 0). A hand-drawn step of a few units takes one byte per coordinate,
 * so a stroke is ~4× smaller than as Float32 pairs: the document loads faster everywhere, since
 * Automerge hashes every change's bytes on load. Rounding to the grid (not rounding each step)
 * keeps the error at ≤ 2^-(e+1) without drift.
 *
 * Documents written before hold little-endian Float32 pairs, whose length is a multiple of 8; the
 * compact form never is (a 0 byte is appended when it would be), so the two never mix up.
 */
export const POINTS_GRID_EXP = { min: 0, max: 12, default: 2 } as const;

/** The grid for a stroke drawn at `zoom`: a quarter of a screen pixel, at least. */
export function pointsGridExp(zoom: number): number {
  const e = Math.ceil(Math.log2(Math.max(zoom, 1e-9))) + 2;
  return Math.min(POINTS_GRID_EXP.max, Math.max(POINTS_GRID_EXP.min, e));
}

/** Pack [x0,y0,x1,y1,…] in the compact form on a 2^-gridExp grid (SPEC D3). */
export function packPoints(points: ArrayLike<number>, gridExp: number = POINTS_GRID_EXP.default): Uint8Array {
  if (points.length % 2 !== 0) throw new RangeError('points must be x,y pairs');
  if (!Number.isInteger(gridExp) || gridExp < POINTS_GRID_EXP.min || gridExp > POINTS_GRID_EXP.max) {
    throw new RangeError(`grid exponent must be an integer from ${POINTS_GRID_EXP.min} to ${POINTS_GRID_EXP.max}`);
  }
  const scale = 2 ** gridExp;
  const out: number[] = [gridExp];
  pushVarint(out, points.length / 2);
  const prev = [0, 0];
  for (let i = 0; i < points.length; i++) {
    const v = points[i]!;
    const q = Math.round(v * scale);
    if (!Number.isSafeInteger(q) || Math.abs(q) > MAX_GRID_UNITS)
      throw new RangeError(`point coordinate out of range: ${v}`);
    const step = q - prev[i % 2]!;
    prev[i % 2] = q;
    // zigzag without 32-bit operators: steps can exceed 2^31 grid units
    pushVarint(out, step >= 0 ? step * 2 : -step * 2 - 1);
  }
  if (out.length % 8 === 0) out.push(0);
  return Uint8Array.from(out);
}

/** Points of either form as [x0,y0,…]; RangeError on bytes that are neither. */
export function unpackPoints(bytes: Uint8Array): Float32Array {
  if (bytes.length % 8 === 0) return unpackFloat32Points(bytes);
  const gridExp = bytes[0]!;
  if (gridExp > POINTS_GRID_EXP.max) throw new RangeError('bad points header');
  const scale = 2 ** -gridExp;
  const r = { o: 1 };
  const count = readVarint(bytes, r);
  // every coordinate takes at least one byte: a count beyond that is a lie, not an allocation
  if (count * 2 > bytes.length - r.o) throw new RangeError('truncated points');
  const out = new Float32Array(count * 2);
  const prev = [0, 0];
  for (let i = 0; i < out.length; i++) {
    const z = readVarint(bytes, r);
    const step = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    const q = prev[i % 2]! + step;
    prev[i % 2] = q;
    out[i] = q * scale;
  }
  // at most the one pad byte may follow
  if (bytes.length - r.o > 1) throw new RangeError('trailing bytes after points');
  return out;
}

function unpackFloat32Points(bytes: Uint8Array): Float32Array {
  const out = new Float32Array(bytes.length / 4);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = dv.getFloat32(i * 4, true);
  return out;
}

/** 2^40 grid units: ±1e12 world units on the coarsest grid, ±2.7e8 on the finest */
const MAX_GRID_UNITS = 2 ** 40;

function pushVarint(out: number[], v: number): void {
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}
function readVarint(bytes: Uint8Array, r: { o: number }): number {
  let v = 0;
  let mul = 1;
  for (;;) {
    if (r.o >= bytes.length) throw new RangeError('truncated points');
    const b = bytes[r.o++]!;
    v += (b & 0x7f) * mul;
    if ((b & 0x80) === 0) return v;
    mul *= 0x80;
    if (mul > 2 ** 42) throw new RangeError('points varint too long');
  }
}

// ---------------------------------------------------------------------------------------------
// Sharding (shared with the gateway, which routes upgrades to the owner node)

/** Redis keys of the realtime registry under a deployment's REDIS_PREFIX (SPEC R1–R4). */
export function realtimeKeys(prefix: string): {
  nodes: string;
  node(nodeId: string): string;
  lease(boardId: string): string;
  fence(boardId: string): string;
} {
  return {
    /** sorted set: member node id, score = last heartbeat (ms) */
    nodes: `${prefix}rt:nodes`,
    /** string JSON {nodeId, url}, expires with the heartbeat TTL */
    node: (nodeId) => `${prefix}rt:node:${nodeId}`,
    /** string "<nodeId> <token>", PX lease */
    lease: (boardId) => `${prefix}rt:lease:${boardId}`,
    /** INCR counter: fencing tokens of one board */
    fence: (boardId) => `${prefix}rt:fence:${boardId}`,
  };
}
export const realtimeNodeInfoSchema = z.object({ nodeId: z.string(), url: z.string() });
export type RealtimeNodeInfo = z.infer<typeof realtimeNodeInfoSchema>;

/** Rendezvous (highest random weight) choice of a board's owner among live node ids. */
export function rendezvousOwner(boardId: string, nodeIds: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const id of nodeIds) {
    // second round decorrelates ids that share prefixes
    const score = fnv1a32(`${fnv1a32(`${id}\u0000${boardId}`).toString(36)}${id}`);
    if (score > bestScore || (score === bestScore && best !== undefined && id < best)) {
      best = id;
      bestScore = score;
    }
  }
  return best;
}
/** Parse a lease value "<nodeId> <token>". */
export function parseLease(value: string | null): { nodeId: string; token: number } | null {
  if (!value) return null;
  const i = value.lastIndexOf(' ');
  if (i <= 0) return null;
  const token = Number(value.slice(i + 1));
  return Number.isSafeInteger(token) ? { nodeId: value.slice(0, i), token } : null;
}

/** The few Redis commands the owner lookup needs (ioredis satisfies it). */
export interface RealtimeRegistryReader {
  get(key: string): Promise<string | null>;
  zrangebyscore(key: string, min: number | string, max: number | string): Promise<string[]>;
}
/**
 * Where a board's upgrade goes (gateway, SPEC R2/R3): the lease holder when it is live, else the
 * rendezvous choice among live nodes; null when no node is live.
 */
export async function resolveRealtimeOwner(
  redis: RealtimeRegistryReader,
  prefix: string,
  boardId: string,
  now: number,
  nodeTtlMs: number,
): Promise<RealtimeNodeInfo | null> {
  const keys = realtimeKeys(prefix);
  const [live, leaseValue] = await Promise.all([
    redis.zrangebyscore(keys.nodes, now - nodeTtlMs, '+inf'),
    redis.get(keys.lease(boardId)),
  ]);
  const lease = parseLease(leaseValue);
  const nodeId = lease && live.includes(lease.nodeId) ? lease.nodeId : rendezvousOwner(boardId, live);
  if (!nodeId) return null;
  const raw = await redis.get(keys.node(nodeId));
  if (!raw) return null;
  try {
    const info = realtimeNodeInfoSchema.safeParse(JSON.parse(raw));
    return info.success ? info.data : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Ephemeral payloads (SPEC E1–E3): the bytes after the kind byte of an EPHEMERAL frame, and of
// an EPHEMERAL_BATCH item. The server never reads them; these are the encodings the web client
// (and benchmarks) use. Little-endian, world coordinates as Float32.
//
//   cursor    (1) = f32 x, f32 y                                               8 bytes
//   stroke    (2) = u8 flags (1 start, 2 end), u8 id length, id (ASCII),
//                   u24 colour 0xRRGGBB, u8 reserved, f32 width, u32 index of the first point,
//                   then f32 x, f32 y per point (absolute world coordinates)  ≤ 4 KiB
//   selection (3) = u16 count, then per id: u8 length + id (UTF-8)
//   viewport  (4) = f32 x, f32 y, f32 width, f32 height (the visible world rectangle)  16 bytes
//   laser     (5) = f32 x, f32 y (the pointer's latest position; receivers draw a fading trail;
//                   never stored; anyone may point, viewers too)                   8 bytes

export interface CursorPayload {
  x: number;
  y: number;
}
export function encodeCursor(c: CursorPayload): Uint8Array {
  const out = new Uint8Array(8);
  const dv = new DataView(out.buffer);
  dv.setFloat32(0, c.x, true);
  dv.setFloat32(4, c.y, true);
  return out;
}
export function decodeCursor(bytes: Uint8Array): CursorPayload {
  if (bytes.length !== 8) throw new FrameError('cursor must be 8 bytes');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { x: dv.getFloat32(0, true), y: dv.getFloat32(4, true) };
}

export const STROKE_FLAG = { START: 1, END: 2 } as const;
/** A piece of a stroke being drawn: points `from` index `first` on (SPEC E2: deltas accumulate). */
export interface StrokeDelta {
  /** the shape id the stroke will be committed under (the committed shape replaces the preview) */
  id: string;
  flags: number;
  /** 0xRRGGBB */
  color: number;
  width: number;
  /** index (in points, not numbers) of the first point of this delta within the stroke */
  first: number;
  /** x0,y0,x1,y1,… */
  points: ArrayLike<number>;
}
const STROKE_HEADER = 2 + 4 + 4 + 4;
/** Most points one stroke delta may carry within RT_LIMITS.maxEphemeralBytes (with a 64-char id). */
export const STROKE_DELTA_MAX_POINTS = Math.floor((RT_LIMITS.maxEphemeralBytes - STROKE_HEADER - 64) / 8);

export function encodeStrokeDelta(d: StrokeDelta): Uint8Array {
  const id = textEncoder.encode(d.id);
  if (id.length > 64) throw new RangeError('stroke id too long');
  if (d.points.length % 2 !== 0) throw new RangeError('points must be x,y pairs');
  if (d.points.length / 2 > STROKE_DELTA_MAX_POINTS) throw new RangeError('too many points in one delta');
  const out = new Uint8Array(STROKE_HEADER + id.length + d.points.length * 4);
  const dv = new DataView(out.buffer);
  out[0] = d.flags;
  out[1] = id.length;
  out.set(id, 2);
  let o = 2 + id.length;
  dv.setUint32(o, (d.color & 0xffffff) << 8, false); // u24 colour + reserved byte
  dv.setFloat32(o + 4, d.width, true);
  dv.setUint32(o + 8, d.first, true);
  o += 12;
  for (let i = 0; i < d.points.length; i++) dv.setFloat32(o + i * 4, d.points[i]!, true);
  return out;
}
export function decodeStrokeDelta(bytes: Uint8Array): StrokeDelta & { points: Float32Array } {
  if (bytes.length < 2) throw new FrameError('stroke delta too short');
  const idLen = bytes[1]!;
  const o = 2 + idLen;
  if (bytes.length < o + 12 || (bytes.length - o - 12) % 8 !== 0) throw new FrameError('bad stroke delta length');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = (bytes.length - o - 12) / 4;
  const points = new Float32Array(n);
  for (let i = 0; i < n; i++) points[i] = dv.getFloat32(o + 12 + i * 4, true);
  let id: string;
  try {
    id = textDecoder.decode(bytes.subarray(2, o));
  } catch {
    throw new FrameError('stroke id is not UTF-8');
  }
  return {
    flags: bytes[0]!,
    id,
    color: dv.getUint32(o, false) >>> 8,
    width: dv.getFloat32(o + 4, true),
    first: dv.getUint32(o + 8, true),
    points,
  };
}

export function encodeSelection(ids: readonly string[]): Uint8Array {
  const parts = ids.map((id) => textEncoder.encode(id));
  if (parts.length > 0xffff) throw new RangeError('too many ids');
  let size = 2;
  for (const p of parts) {
    if (p.length > 255) throw new RangeError('id too long');
    size += 1 + p.length;
  }
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint16(0, parts.length, true);
  let o = 2;
  for (const p of parts) {
    out[o] = p.length;
    out.set(p, o + 1);
    o += 1 + p.length;
  }
  return out;
}
export function decodeSelection(bytes: Uint8Array): string[] {
  if (bytes.length < 2) throw new FrameError('selection too short');
  const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint16(0, true);
  const out: string[] = [];
  let o = 2;
  for (let i = 0; i < n; i++) {
    if (o >= bytes.length) throw new FrameError('selection truncated');
    const len = bytes[o]!;
    if (o + 1 + len > bytes.length) throw new FrameError('selection id truncated');
    try {
      out.push(textDecoder.decode(bytes.subarray(o + 1, o + 1 + len)));
    } catch {
      throw new FrameError('selection id is not UTF-8');
    }
    o += 1 + len;
  }
  if (o !== bytes.length) throw new FrameError('trailing bytes after selection');
  return out;
}

export interface ViewportPayload {
  x: number;
  y: number;
  width: number;
  height: number;
}
export function encodeViewport(v: ViewportPayload): Uint8Array {
  const out = new Uint8Array(16);
  const dv = new DataView(out.buffer);
  dv.setFloat32(0, v.x, true);
  dv.setFloat32(4, v.y, true);
  dv.setFloat32(8, v.width, true);
  dv.setFloat32(12, v.height, true);
  return out;
}
export function decodeViewport(bytes: Uint8Array): ViewportPayload {
  if (bytes.length !== 16) throw new FrameError('viewport must be 16 bytes');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    x: dv.getFloat32(0, true),
    y: dv.getFloat32(4, true),
    width: dv.getFloat32(8, true),
    height: dv.getFloat32(12, true),
  };
}

/**
 * svc.realtime.board.copy (NATS only: the boards service's `board.duplicate`; never routed by the
 * gateway, any node answers): the committed content of board `from` (latest snapshot + journal
 * tail) stored as the first snapshot of the new, never-opened board `to`. `bytes` = the stored
 * document's size (0: the source had no content; `to` then starts empty, like any new board).
 */
export const boardCopyInputSchema = z.strictObject({ from: boardIdSchema, to: boardIdSchema });
export const boardCopyReplySchema = z.object({ bytes: z.number().int().nonnegative() });
export const realtimeOperations = {
  'board.copy': { input: boardCopyInputSchema, output: boardCopyReplySchema },
} as const;
