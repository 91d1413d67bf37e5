/**
 * Process-local cache of list answers (GET /api/boards, GET /api/courses), keyed by the asker
 * (e.g. `userId:format`) and tagged with a version the owning service bumps in every transaction
 * that changes what the list shows (a `list_versions` table maintained by triggers). A version
 * match means the cached answer is still right, on any replica; a mismatch drops the entry.
 * It holds the answer already encoded as JSON, and gzip-compressed: a hit is sent as it is
 * (5,000 boards are ~294 KiB that would otherwise be serialised on every request; compressed,
 * what crosses NATS and reaches a browser is a fraction of that). Bounded by the number of list
 * items held (each entry weighs its items + 1); least recently used keys go first.
 */
import { EncodedJson } from './nats';

interface Entry {
  version: string;
  answer: EncodedJson;
  weight: number;
}

export class VersionedReplyCache {
  private readonly entries = new Map<string, Entry>();
  private held = 0;

  constructor(private readonly maxItems: number) {}

  get(key: string, version: string): EncodedJson | undefined {
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

  /** encodes and compresses `list` (of `items` items) once and keeps it when it fits; returns the answer either way */
  async set(key: string, version: string, list: unknown, items: number): Promise<EncodedJson> {
    const answer = await EncodedJson.compressed(list);
    this.delete(key);
    const weight = items + 1;
    if (weight > this.maxItems) return answer;
    for (const [oldest] of this.entries) {
      if (this.held + weight <= this.maxItems) break;
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
