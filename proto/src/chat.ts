/**
 * Board chat over the board socket (services/realtime SPEC C1–C9). Frames are JSON; the message
 * numbers are in `MSG` (CHAT_SEND 6, CHAT_DELETE 7, CHAT_HISTORY 8 → CHAT 20, CHAT_HISTORY_S 21,
 * CHAT_DELETED 22) and the limits in `RT_LIMITS` (maxChatChars, chatRate*, chatHistoryPage).
 */
import { z } from 'zod';

/** ids are PostgreSQL bigserials, far below 2^53 for any real chat */
export const chatIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** client → server. `text` is checked by the node (C3: trimmed, not empty, ≤ maxChatChars). */
export const chatSendSchema = z.strictObject({
  text: z.string(),
  /** the sender's own id for the message, echoed back to it only (optimistic UI reconciliation) */
  clientId: z.string().min(1).max(64),
});
export type ChatSend = z.infer<typeof chatSendSchema>;
export const chatDeleteSchema = z.strictObject({ id: chatIdSchema });
export const chatHistorySchema = z.strictObject({ before: chatIdSchema.optional() });

/** one stored message as every peer sees it */
export const chatMessageSchema = z.object({
  id: chatIdSchema,
  /** user id of the author, 0 for a guest */
  authorId: z.number().int().nonnegative(),
  authorName: z.string(),
  guest: z.boolean(),
  text: z.string(),
  /** ISO 8601, the node's clock */
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;
/** CHAT: a new message; `clientId` only in the copy sent back to its sender */
export const chatEventSchema = chatMessageSchema.extend({ clientId: z.string().optional() });
export type ChatEvent = z.infer<typeof chatEventSchema>;
/** CHAT_HISTORY_S: oldest first; `more`: older messages exist (ask with before = messages[0].id) */
export const chatHistoryPageSchema = z.object({
  messages: z.array(chatMessageSchema),
  more: z.boolean(),
  /** the `before` this page answers (none: the newest page) */
  before: chatIdSchema.optional(),
});
export type ChatHistoryPage = z.infer<typeof chatHistoryPageSchema>;
export const chatDeletedSchema = z.object({ id: chatIdSchema });

/**
 * The pieces of a chat text: plain text and http(s) links. Rendering only ever creates text nodes
 * and anchors from this (no HTML), so a message can never inject markup (C7).
 */
export type ChatTextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };
const LINK = /\bhttps?:\/\/[^\s<>"'`]+/giu;
/** punctuation that usually ends a sentence rather than a URL */
const TRAILING = /[.,;:!?)\]}]+$/u;
export function splitChatText(text: string): ChatTextPart[] {
  const parts: ChatTextPart[] = [];
  let last = 0;
  for (const m of text.matchAll(LINK)) {
    let url = m[0];
    const trail = TRAILING.exec(url);
    if (trail) url = url.slice(0, url.length - trail[0].length);
    const start = m.index;
    let href: string | null = null;
    try {
      const u = new URL(url);
      if (u.protocol === 'http:' || u.protocol === 'https:') href = u.href;
    } catch {
      href = null;
    }
    if (!href || url.length === 0) continue;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', text: url, href });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
