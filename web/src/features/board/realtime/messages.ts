/**
 * Zod-free decoding of the realtime control frames (WELCOME, PRESENCE, SAVED, ERROR, BOARD_INFO). The web
 * bundle replaces zod with a stub for proto's sources (app/zodStub.ts), so proto's `decodeJson`
 * cannot run here. The server is trusted: this checks the shapes minimally (types of the fields
 * the client reads) so a protocol mismatch fails loudly instead of corrupting state.
 */
import { BOARD_BACKGROUNDS, FrameError, RT_ERROR_CODES } from '@wb/proto';
import type { BoardInfo, PresenceEntry, RtError, Welcome } from '@wb/proto';

const decoder = new TextDecoder('utf-8', { fatal: true });

export function parseJsonPayload(payload: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(payload)) as unknown;
  } catch {
    throw new FrameError('payload is not JSON');
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
function need(cond: boolean, what: string): asserts cond {
  if (!cond) throw new FrameError(`invalid payload: ${what}`);
}
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const ROLES = ['owner', 'editor', 'viewer'] as const;
const isRole = (v: unknown): v is PresenceEntry['role'] => ROLES.includes(v as PresenceEntry['role']);

function presenceEntry(v: unknown): PresenceEntry {
  need(isObj(v), 'presence entry');
  need(isInt(v.peerId) && isInt(v.userId), 'presence ids');
  need(typeof v.name === 'string' && typeof v.color === 'string', 'presence name/color');
  need(isRole(v.role) && typeof v.guest === 'boolean', 'presence role/guest');
  return { peerId: v.peerId, userId: v.userId, name: v.name, color: v.color, role: v.role, guest: v.guest };
}
function presenceList(v: unknown): PresenceEntry[] {
  need(Array.isArray(v), 'presence list');
  return v.map(presenceEntry);
}
const isBackground = (v: unknown): v is BoardInfo['background'] =>
  (BOARD_BACKGROUNDS as readonly unknown[]).includes(v);

function stringList(v: unknown, what: string): string[] {
  need(Array.isArray(v) && v.every((h) => typeof h === 'string'), what);
  return v as string[];
}

export function decodeWelcome(payload: Uint8Array): Welcome {
  const v = parseJsonPayload(payload);
  need(isObj(v), 'welcome');
  need(isInt(v.protocol) && isInt(v.peerId) && isInt(v.ownerId), 'welcome numbers');
  need(typeof v.boardId === 'string' && typeof v.access === 'string', 'welcome board/access');
  need(typeof v.title === 'string' && isBackground(v.background), 'welcome title/background');
  need(isRole(v.role), 'welcome role');
  need(v.readOnlyReason === null || typeof v.readOnlyReason === 'string', 'welcome readOnlyReason');
  need(typeof v.deleteOwnOnly === 'boolean', 'welcome deleteOwnOnly');
  return {
    protocol: v.protocol,
    peerId: v.peerId,
    boardId: v.boardId,
    title: v.title,
    background: v.background,
    access: v.access as Welcome['access'],
    role: v.role,
    readOnlyReason: v.readOnlyReason as Welcome['readOnlyReason'],
    deleteOwnOnly: v.deleteOwnOnly,
    ownerId: v.ownerId,
    presence: presenceList(v.presence),
  };
}

/** B1: the board's title, background or deleteOwnOnly changed while connected */
export function decodeBoardInfo(payload: Uint8Array): BoardInfo {
  const v = parseJsonPayload(payload);
  need(isObj(v), 'board info');
  need(typeof v.title === 'string' && isBackground(v.background), 'board info title/background');
  need(typeof v.deleteOwnOnly === 'boolean', 'board info deleteOwnOnly');
  return { title: v.title, background: v.background, deleteOwnOnly: v.deleteOwnOnly };
}

export function decodePresence(payload: Uint8Array): PresenceEntry[] {
  const v = parseJsonPayload(payload);
  need(isObj(v), 'presence');
  return presenceList(v.presence);
}

export function decodeSaved(payload: Uint8Array): string[] {
  const v = parseJsonPayload(payload);
  need(isObj(v), 'saved');
  return stringList(v.hashes, 'saved hashes');
}

export function decodeRtError(payload: Uint8Array): RtError {
  const v = parseJsonPayload(payload);
  need(isObj(v), 'error');
  need((RT_ERROR_CODES as readonly unknown[]).includes(v.code), 'error code');
  need(typeof v.message === 'string', 'error message');
  const out: RtError = { code: v.code as RtError['code'], message: v.message };
  if (v.hashes !== undefined) out.hashes = stringList(v.hashes, 'error hashes');
  return out;
}
