/**
 * Zod-free decoding of the realtime control frames (WELCOME, PRESENCE, SAVED, ERROR, BOARD_INFO, chat
 * and lesson). The web
 * bundle replaces zod with a stub for proto's sources (app/zodStub.ts), so proto's `decodeJson`
 * cannot run here. The server is trusted: this checks the shapes minimally (types of the fields
 * the client reads) so a protocol mismatch fails loudly instead of corrupting state.
 */
import { BOARD_BACKGROUNDS, FrameError, RT_ERROR_CODES } from '@wb/proto';
import type {
  BoardInfo,
  ChatEvent,
  ChatHistoryPage,
  ChatMessage,
  LessonGatherEvent,
  LessonRect,
  LessonState,
  PresenceEntry,
  RtError,
  Welcome,
} from '@wb/proto';

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

// ---------------------------------------------------------------------------------------------
// Chat (SPEC C*) and lesson (SPEC LS*) frames: the same minimal checks, no zod

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function chatMessage(v: unknown): ChatMessage {
  need(isObj(v), 'chat message');
  need(isInt(v.id) && v.id > 0 && isInt(v.authorId), 'chat message ids');
  need(typeof v.authorName === 'string' && typeof v.guest === 'boolean', 'chat author');
  need(typeof v.text === 'string' && typeof v.createdAt === 'string', 'chat text/time');
  return {
    id: v.id,
    authorId: v.authorId,
    authorName: v.authorName,
    guest: v.guest,
    text: v.text,
    createdAt: v.createdAt,
  };
}
/** CHAT: a new message (with the sender's clientId in the sender's copy) */
export function decodeChatEvent(payload: Uint8Array): ChatEvent {
  const v = parseJsonPayload(payload);
  const m = chatMessage(v);
  const clientId = (v as Obj).clientId;
  need(clientId === undefined || typeof clientId === 'string', 'chat clientId');
  return clientId === undefined ? m : { ...m, clientId };
}
/** CHAT_HISTORY_S: a page of messages, oldest first */
export function decodeChatHistory(payload: Uint8Array): ChatHistoryPage {
  const v = parseJsonPayload(payload);
  need(isObj(v) && Array.isArray(v.messages) && typeof v.more === 'boolean', 'chat history page');
  need(v.before === undefined || isInt(v.before), 'chat history before');
  return { messages: v.messages.map(chatMessage), more: v.more, ...(isInt(v.before) ? { before: v.before } : {}) };
}
/** CHAT_DELETED */
export function decodeChatDeleted(payload: Uint8Array): { id: number } {
  const v = parseJsonPayload(payload);
  need(isObj(v) && isInt(v.id), 'chat deleted id');
  return { id: v.id };
}

function rect(v: unknown, what: string): LessonRect {
  need(isObj(v) && isNum(v.x) && isNum(v.y) && isNum(v.width) && isNum(v.height), what);
  return { x: v.x, y: v.y, width: v.width, height: v.height };
}
const TIMER_STATES = ['idle', 'running', 'paused'] as const;
/** LESSON_STATE: the timer, the presenter and the node's clock */
export function decodeLessonState(payload: Uint8Array): LessonState {
  const v = parseJsonPayload(payload);
  need(isObj(v) && isObj(v.timer) && isNum(v.serverNow), 'lesson state');
  const t = v.timer;
  need((TIMER_STATES as readonly unknown[]).includes(t.state), 'lesson timer state');
  need(isNum(t.remainingMs) && isNum(t.durationMs) && (t.endsAt === undefined || isNum(t.endsAt)), 'lesson timer');
  need(v.paid === null || typeof v.paid === 'boolean', 'lesson paid');
  let presenter: LessonState['presenter'] = null;
  if (v.presenter !== null) {
    const p = v.presenter;
    need(isObj(p) && isInt(p.userId) && isInt(p.peerId) && typeof p.name === 'string', 'lesson presenter');
    presenter = {
      userId: p.userId,
      peerId: p.peerId,
      name: p.name,
      viewport: p.viewport === null ? null : rect(p.viewport, 'presenter viewport'),
    };
  }
  return {
    timer: {
      state: t.state as LessonState['timer']['state'],
      remainingMs: t.remainingMs,
      durationMs: t.durationMs,
      ...(isNum(t.endsAt) ? { endsAt: t.endsAt } : {}),
    },
    presenter,
    paid: v.paid,
    serverNow: v.serverNow,
  };
}
/** LESSON_GATHER_S: the owner's "bring everyone to me" */
export function decodeLessonGather(payload: Uint8Array): LessonGatherEvent {
  const v = parseJsonPayload(payload);
  need(isObj(v) && typeof v.by === 'string', 'lesson gather');
  return { ...rect(v, 'lesson gather rect'), by: v.by };
}
