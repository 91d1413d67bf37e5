/**
 * The chat of one board room (SPEC C1–C9). Everyone in the room may read and write (viewers and
 * guests too); the owner deletes any message, a user their own, a guest those sent from the same
 * connection. Messages are stored before anyone sees them (a reload or a late joiner gets the
 * same history) and are broadcast in id order: stores of one room run one after another.
 * A chat frame that breaks a rule gets an ERROR naming it; the socket stays open (C8).
 */
import { chatDeleteSchema, chatHistorySchema, chatSendSchema, encodeJsonFrame, MSG, RT_LIMITS } from '@wb/proto';
import type { ChatEvent, ChatHistoryPage, RtError } from '@wb/proto';
import type { Logger } from '@wb/platform';
import type { z } from 'zod';
import { parseJsonFrame } from './jsonFrame';
import type { ChatStore } from '../repositories/chat';
import type { ChatMetrics } from '../chatMetrics';
import type { Clock, Peer } from './room';

export interface ChatHost {
  readonly boardId: string;
  peerList(): Peer[];
}

/** C4: one bucket per person (user id; a guest per connection) and per guest address, refilled continuously */
interface Bucket {
  tokens: number;
  at: number;
}

class ChatRuleError extends Error {
  constructor(
    readonly code: RtError['code'],
    message: string,
  ) {
    super(message);
  }
}

export class RoomChat {
  private readonly buckets = new Map<string, Bucket>();
  /** C6: ids a guest connection sent (guests have no stable identity to match the author on) */
  private readonly sentBy = new WeakMap<Peer, Set<number>>();
  /** C2: stores run in order, so broadcast order is id order */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly host: ChatHost,
    private readonly store: ChatStore | undefined,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly metrics?: ChatMetrics,
  ) {}

  /** One CHAT_SEND / CHAT_DELETE / CHAT_HISTORY frame; never throws (errors become ERROR frames). */
  receive(peer: Peer, type: number, payload: Uint8Array): void {
    try {
      if (!this.store) throw new ChatRuleError('chat_unavailable', 'chat is not available on this node');
      if (type === MSG.CHAT_SEND) this.send(peer, parse(payload, chatSendSchema));
      else if (type === MSG.CHAT_DELETE) this.delete(peer, parse(payload, chatDeleteSchema).id);
      else this.history(peer, parse(payload, chatHistorySchema).before);
    } catch (err) {
      this.fail(peer, err);
    }
  }

  private send(peer: Peer, { text: raw, clientId }: z.infer<typeof chatSendSchema>): void {
    // C3: plain text, trimmed, 1…maxChatChars characters (code points: an emoji is one)
    const text = raw.trim();
    if (text.length === 0) throw new ChatRuleError('chat_invalid', 'C3: a message must not be empty');
    const chars = [...text].length;
    if (chars > RT_LIMITS.maxChatChars)
      throw new ChatRuleError(
        'chat_invalid',
        `C3: a message may have at most ${RT_LIMITS.maxChatChars} characters, this one has ${chars}`,
      );
    this.take(peer);
    const { userId, name, guest } = peer.identity;
    const store = this.store!;
    this.enqueue(peer, async () => {
      const started = performance.now();
      const msg = await store.insert(this.host.boardId, guest ? 0 : userId, name, text);
      this.metrics?.stored(performance.now() - started);
      if (guest) this.sentOf(peer).add(msg.id);
      const all = encodeJsonFrame(MSG.CHAT, msg satisfies ChatEvent);
      const mine = encodeJsonFrame(MSG.CHAT, { ...msg, clientId } satisfies ChatEvent);
      // C2: everyone in the room, the sender included (with its clientId to reconcile)
      for (const p of this.host.peerList()) p.socket.send(p === peer ? mine : all);
      this.metrics?.event('sent');
    });
  }

  private delete(peer: Peer, id: number): void {
    const store = this.store!;
    this.enqueue(peer, async () => {
      const found = await store.author(this.host.boardId, id);
      if (!found) throw new ChatRuleError('chat_not_found', `C6: message ${id} does not exist or was deleted`);
      const { userId, guest } = peer.identity;
      const allowed =
        peer.role === 'owner' ||
        (guest ? this.sentOf(peer).has(id) : found.authorId !== 0 && found.authorId === userId);
      if (!allowed)
        throw new ChatRuleError(
          'chat_forbidden',
          'C6: only the board owner or the message’s author may delete a message',
        );
      if (!(await store.markDeleted(this.host.boardId, id)))
        throw new ChatRuleError('chat_not_found', `C6: message ${id} does not exist or was deleted`);
      const frame = encodeJsonFrame(MSG.CHAT_DELETED, { id });
      for (const p of this.host.peerList()) p.socket.send(frame);
      this.metrics?.event('deleted');
    });
  }

  private history(peer: Peer, before: number | undefined): void {
    const store = this.store!;
    // reads need no ordering with writes: a page is a consistent snapshot of committed rows
    void (async () => {
      try {
        const started = performance.now();
        const page = await store.page(this.host.boardId, before, RT_LIMITS.chatHistoryPage);
        this.metrics?.historyLoaded(performance.now() - started);
        if (peer.closed) return;
        const reply: ChatHistoryPage = { ...page, ...(before !== undefined ? { before } : {}) };
        peer.socket.send(encodeJsonFrame(MSG.CHAT_HISTORY_S, reply));
      } catch (err) {
        this.fail(peer, err);
      }
    })();
  }

  /**
   * C4: token bucket per person (a burst of chatRateMessages, then one per window/messages), and
   * for a guest also one per client address on this board (guestChatPerAddressMessages): opening
   * more sockets does not multiply a guest's rate. Both must have a token; both are spent.
   */
  private take(peer: Peer): void {
    const { chatRateMessages, chatRateWindowMs: windowMs, guestChatPerAddressMessages } = RT_LIMITS;
    const { guest, userId, address } = peer.identity;
    const buckets = [this.bucket(guest ? `g${peer.id}` : `u${userId}`, chatRateMessages, windowMs)];
    if (guest && address !== undefined) buckets.push(this.bucket(`a${address}`, guestChatPerAddressMessages, windowMs));
    const empty = buckets.find((b) => b.tokens < 1);
    if (empty) {
      const waitMs = Math.ceil(((1 - empty.tokens) * windowMs) / empty.cap);
      if (empty !== buckets[0]) this.metrics?.event('guest_address_limited');
      throw new ChatRuleError(
        'chat_rate_limited',
        empty === buckets[0]
          ? `C4: at most ${empty.cap} messages per ${windowMs / 1000} s; try again in ${Math.ceil(waitMs / 1000)} s`
          : `C4: the guests of your network may send at most ${empty.cap} messages per ${windowMs / 1000} s together; try again in ${Math.ceil(waitMs / 1000)} s`,
      );
    }
    for (const b of buckets) b.tokens -= 1;
  }

  /** the bucket `key`, refilled up to now */
  private bucket(key: string, cap: number, windowMs: number): Bucket & { cap: number } {
    const now = this.clock.now();
    const b = this.buckets.get(key) ?? { tokens: cap, at: now };
    b.tokens = Math.min(cap, b.tokens + ((now - b.at) * cap) / windowMs);
    b.at = now;
    this.buckets.set(key, b);
    return Object.assign(b, { cap });
  }

  private sentOf(peer: Peer): Set<number> {
    let s = this.sentBy.get(peer);
    if (!s) this.sentBy.set(peer, (s = new Set()));
    return s;
  }

  private enqueue(peer: Peer, job: () => Promise<void>): void {
    this.queue = this.queue.then(job).catch((err: unknown) => this.fail(peer, err));
  }

  private fail(peer: Peer, err: unknown): void {
    let error: RtError;
    if (err instanceof ChatRuleError) error = { code: err.code, message: err.message };
    else {
      // storage trouble: the sender hears about it, the room and the socket carry on
      this.log.error({ err, boardId: this.host.boardId, peer: peer.id }, 'chat storage failed');
      error = { code: 'chat_unavailable', message: 'the chat could not be saved or read; try again' };
    }
    this.metrics?.event(error.code);
    if (!peer.closed) peer.socket.send(encodeJsonFrame(MSG.ERROR, error));
  }
}

/** C8: JSON, then unsafe strings (NUL, lone surrogates), then the schema */
function parse<S extends z.ZodType>(payload: Uint8Array, schema: S): z.infer<S> {
  return parseJsonFrame(payload, schema, (problem) => new ChatRuleError('chat_invalid', `C8: ${problem}`));
}
