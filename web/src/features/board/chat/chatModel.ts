/**
 * The board chat's state in the browser (SPEC C* of services/realtime), no UI: messages by id
 * (oldest first), sends waiting for their echo (matched by clientId), "load earlier" paging, the
 * unread count while the panel is closed, and the last error. History is asked for again on every
 * (re)connection, so a reload, a late join or a node restart shows the stored messages.
 */
import { encodeJsonFrame, MSG, RT_LIMITS } from '@wb/proto';
import type { ChatMessage, RtError, Welcome } from '@wb/proto';
import { decodeChatDeleted, decodeChatEvent, decodeChatHistory } from '../realtime/messages';

/** what the model needs of BoardClient (tests pass a fake) */
export interface ChatTransport {
  onFrame(fn: (f: { type: number; payload: Uint8Array }) => void): () => void;
  onError(fn: (e: RtError) => void): () => void;
  sendFrame(frame: Uint8Array): boolean;
  subscribe(fn: (s: { welcome: Welcome | null }) => void): () => void;
  getSnapshot(): { welcome: Welcome | null };
}

export interface ChatPending {
  clientId: string;
  text: string;
}
export interface ChatState {
  messages: readonly ChatMessage[];
  pending: readonly ChatPending[];
  /** ids sent from this page (a guest may delete those: C6) */
  sentHere: ReadonlySet<number>;
  more: boolean;
  loadingEarlier: boolean;
  loaded: boolean;
  unread: number;
  open: boolean;
  error: RtError | null;
}

/**
 * A server frame decoded without zod (the web bundle stubs it: app/zodStub.ts); a malformed one
 * is dropped rather than breaking the chat.
 */
function decode<T>(payload: Uint8Array, decoder: (p: Uint8Array) => T): T | null {
  try {
    return decoder(payload);
  } catch {
    return null;
  }
}

export class ChatModel {
  private state: ChatState = {
    messages: [],
    pending: [],
    sentHere: new Set(),
    more: false,
    loadingEarlier: false,
    loaded: false,
    unread: 0,
    open: false,
    error: null,
  };
  private readonly listeners = new Set<() => void>();
  private seq = 0;
  private welcome: Welcome | null = null;

  constructor(private readonly client: ChatTransport) {}

  /** listen to the board client (an effect: React may attach, detach and attach again) */
  attach(): () => void {
    const { client } = this;
    const offs = [
      client.onFrame((f) => this.receive(f.type, f.payload)),
      client.onError((e) => {
        if (e.code.startsWith('chat_')) this.set({ error: e, loadingEarlier: false });
      }),
    ];
    const onSnapshot = (s: { welcome: Welcome | null }): void => {
      // a new WELCOME is a new connection: the newest page again (what we missed while away)
      if (s.welcome && s.welcome !== this.welcome) {
        this.welcome = s.welcome;
        client.sendFrame(encodeJsonFrame(MSG.CHAT_HISTORY, {}));
      }
    };
    offs.push(client.subscribe(onSnapshot));
    onSnapshot(client.getSnapshot());
    return () => {
      for (const off of offs) off();
      this.welcome = null;
    };
  }
  getState = (): ChatState => this.state;
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  private set(patch: Partial<ChatState>): void {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn();
  }

  setOpen(open: boolean): void {
    this.set({ open, ...(open ? { unread: 0 } : {}) });
  }
  clearError(): void {
    if (this.state.error) this.set({ error: null });
  }

  /** C3 checked here too, so the user hears about it before a round trip; the node decides */
  send(raw: string): 'sent' | 'empty' | 'tooLong' | 'offline' {
    const text = raw.trim();
    if (!text) return 'empty';
    if ([...text].length > RT_LIMITS.maxChatChars) return 'tooLong';
    const clientId = `m${Date.now().toString(36)}${++this.seq}`;
    if (!this.client.sendFrame(encodeJsonFrame(MSG.CHAT_SEND, { text, clientId }))) return 'offline';
    this.set({ pending: [...this.state.pending, { clientId, text }], error: null });
    return 'sent';
  }
  delete(id: number): void {
    this.client.sendFrame(encodeJsonFrame(MSG.CHAT_DELETE, { id }));
  }
  loadEarlier(): void {
    const first = this.state.messages[0];
    if (!first || !this.state.more || this.state.loadingEarlier) return;
    if (this.client.sendFrame(encodeJsonFrame(MSG.CHAT_HISTORY, { before: first.id })))
      this.set({ loadingEarlier: true });
  }

  private receive(type: number, payload: Uint8Array): void {
    if (type === MSG.CHAT) {
      const m = decode(payload, decodeChatEvent);
      if (!m) return;
      const { clientId, ...msg } = m;
      const mine = clientId !== undefined && this.state.pending.some((p) => p.clientId === clientId);
      const pending = mine ? this.state.pending.filter((p) => p.clientId !== clientId) : this.state.pending;
      const sentHere = mine ? new Set([...this.state.sentHere, msg.id]) : this.state.sentHere;
      const fresh = !this.state.messages.some((x) => x.id === msg.id);
      this.set({
        messages: fresh ? merge(this.state.messages, [msg]) : this.state.messages,
        pending,
        sentHere,
        unread: this.state.open || mine || !fresh ? this.state.unread : this.state.unread + 1,
      });
    } else if (type === MSG.CHAT_HISTORY_S) {
      const page = decode(payload, decodeChatHistory);
      if (!page) return;
      // the newest page replaces the range it covers (messages deleted while away go); older
      // pages already loaded and live messages newer than the page stay
      if (page.before === undefined) {
        const first = page.messages[0]?.id ?? Infinity;
        const last = page.messages.at(-1)?.id ?? 0;
        const older = this.state.messages.filter((m) => m.id < first);
        const newer = this.state.messages.filter((m) => m.id > last && m.id >= first);
        this.set({
          messages: merge(merge(older, page.messages), newer),
          more: older.length ? this.state.more : page.more,
          loaded: true,
          loadingEarlier: false,
        });
      } else {
        this.set({ messages: merge(this.state.messages, page.messages), more: page.more, loadingEarlier: false });
      }
    } else if (type === MSG.CHAT_DELETED) {
      const d = decode(payload, decodeChatDeleted);
      if (d) this.set({ messages: this.state.messages.filter((m) => m.id !== d.id) });
    }
  }
}

/** ids ascending, no duplicates */
function merge(a: readonly ChatMessage[], b: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map<number, ChatMessage>();
  for (const m of a) byId.set(m.id, m);
  for (const m of b) byId.set(m.id, m);
  return [...byId.values()].sort((x, y) => x.id - y.id);
}
