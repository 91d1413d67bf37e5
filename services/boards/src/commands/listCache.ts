/**
 * Process-local cache of board lists, keyed by user and tagged with the user's list version
 * (boards.list_versions, bumped by triggers in every transaction that changes what the user's
 * list shows). A version match means the cached answer is still right, on any replica.
 * It holds the answer already encoded as JSON, and gzip-compressed: a hit is sent as it is
 * (5,000 boards are ~294 KiB that would otherwise be serialised on every request; compressed,
 * what crosses NATS and reaches a browser is a fraction of that). Bounded by the number of boards held;
 * least recently used users go first.
 */
import { EncodedJson } from '@wb/platform';
import type { BoardList } from '@wb/proto';

interface Entry {
  version: string;
  answer: EncodedJson;
  /** boards in the list, +1 so an empty list still costs an entry */
  weight: number;
}

export class ListCache {
  private readonly entries = new Map<number, Entry>();
  private held = 0;

  constructor(private readonly maxBoards: number) {}

  get(userId: number, version: string): EncodedJson | undefined {
    const e = this.entries.get(userId);
    if (!e) return undefined;
    if (e.version !== version) {
      this.delete(userId);
      return undefined;
    }
    // re-insert: Map order is the LRU order
    this.entries.delete(userId);
    this.entries.set(userId, e);
    return e.answer;
  }

  /** encodes and compresses `list` once and keeps it (when it fits); returns the answer either way */
  async set(userId: number, version: string, list: BoardList): Promise<EncodedJson> {
    const answer = await EncodedJson.compressed(list);
    this.delete(userId);
    const weight = list.owned.id.length + list.shared.id.length + 1;
    if (weight > this.maxBoards) return answer;
    for (const [oldest] of this.entries) {
      if (this.held + weight <= this.maxBoards) break;
      this.delete(oldest);
    }
    this.entries.set(userId, { version, answer, weight });
    this.held += weight;
    return answer;
  }

  private delete(userId: number): void {
    const e = this.entries.get(userId);
    if (!e) return;
    this.held -= e.weight;
    this.entries.delete(userId);
  }
}
