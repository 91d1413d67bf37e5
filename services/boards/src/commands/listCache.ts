/**
 * Process-local cache of board lists, keyed by user and format and tagged with the user's list version
 * (boards.list_versions, bumped by triggers in every transaction that changes what the user's
 * list shows). A version match means the cached answer is still right, on any replica.
 * It holds the answer already encoded as JSON, and gzip-compressed: a hit is sent as it is
 * (5,000 boards are ~294 KiB that would otherwise be serialised on every request; compressed,
 * what crosses NATS and reaches a browser is a fraction of that). Bounded by the number of boards held;
 * least recently used users go first.
 */
import { EncodedJson } from '@wb/platform';
import type { BoardListFormat } from '@wb/proto';

interface Entry {
  version: string;
  answer: EncodedJson;
  /** boards in the list, +1 so an empty list still costs an entry */
  weight: number;
}

export class ListCache {
  private readonly entries = new Map<string, Entry>();
  private held = 0;

  constructor(private readonly maxBoards: number) {}

  get(userId: number, format: BoardListFormat, version: string): EncodedJson | undefined {
    const key = `${userId}:${format}`;
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.version !== version) {
      this.delete(key);
      return undefined;
    }
    // re-insert: Map order is the LRU order
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.answer;
  }

  /** encodes and compresses `list` (of `boards` boards) once and keeps it when it fits; returns the answer either way */
  async set(
    userId: number,
    format: BoardListFormat,
    version: string,
    list: unknown,
    boards: number,
  ): Promise<EncodedJson> {
    const key = `${userId}:${format}`;
    const answer = await EncodedJson.compressed(list);
    this.delete(key);
    const weight = boards + 1;
    if (weight > this.maxBoards) return answer;
    for (const [oldest] of this.entries) {
      if (this.held + weight <= this.maxBoards) break;
      this.delete(oldest);
    }
    this.entries.set(key, { version, answer, weight });
    this.held += weight;
    return answer;
  }

  private delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.held -= e.weight;
    this.entries.delete(key);
  }
}
