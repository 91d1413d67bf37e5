/** TestClient + the board chat frames (SPEC C*): what the web's chat panel keeps, for tests and the bench. */
import {
  chatDeletedSchema,
  chatEventSchema,
  chatHistoryPageSchema,
  decodeJson,
  encodeJsonFrame,
  MSG,
  splitFrame,
} from '@wb/proto';
import type { ChatEvent, ChatHistoryPage } from '@wb/proto';
import { TestClient } from './client';

export class ChatTestClient extends TestClient {
  /** every CHAT received, in order */
  readonly chat: ChatEvent[] = [];
  readonly pages: ChatHistoryPage[] = [];
  readonly deleted: number[] = [];
  /** called on each CHAT (the bench timestamps arrivals) */
  onChat?: (m: ChatEvent) => void;
  private seq = 0;

  override receive(frame: Uint8Array): void {
    const { type, payload } = splitFrame(frame);
    if (type === MSG.CHAT) {
      const m = decodeJson(payload, chatEventSchema);
      this.chat.push(m);
      this.onChat?.(m);
    } else if (type === MSG.CHAT_HISTORY_S) this.pages.push(decodeJson(payload, chatHistoryPageSchema));
    else if (type === MSG.CHAT_DELETED) this.deleted.push(decodeJson(payload, chatDeletedSchema).id);
    else super.receive(frame);
  }
  /** returns the clientId */
  say(text: string): string {
    const clientId = `c${++this.seq}`;
    this.sendRaw(encodeJsonFrame(MSG.CHAT_SEND, { text, clientId }));
    return clientId;
  }
  deleteMessage(id: number): void {
    this.sendRaw(encodeJsonFrame(MSG.CHAT_DELETE, { id }));
  }
  history(before?: number): void {
    this.sendRaw(encodeJsonFrame(MSG.CHAT_HISTORY, before === undefined ? {} : { before }));
  }
}
