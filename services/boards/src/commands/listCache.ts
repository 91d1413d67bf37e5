/**
 * Process-local cache of presented board lists, keyed by user and tagged with the user's list
 * version (boards.list_versions, bumped by triggers in every transaction that changes what the
 * user's list shows). A version match means the cached answer is still right, on any replica.
 * Bounded by the number of boards held; least recently used users go first.
 */
import type { BoardList } from '@wb/proto';

interface Entry {
  version: string;
  list: BoardList;
}

/** an empty list still costs an entry */
const weightOf = (list: BoardList): number => list.owned.id.length + list.shared.id.length + 1;

export class ListCache {
  private readonly entries = new Map<number, Entry>();
  private held = 0;

  constructor(private readonly maxBoards: number) {}

  get(userId: number, version: string): BoardList | undefined {
    const e = this.entries.get(userId);
    if (!e) return undefined;
    if (e.version !== version) {
      this.delete(userId);
      return undefined;
    }
    // re-insert: Map order is the LRU order
    this.entries.delete(userId);
    this.entries.set(userId, e);
    return e.list;
  }

  set(userId: number, version: string, list: BoardList): void {
    this.delete(userId);
    const weight = weightOf(list);
    if (weight > this.maxBoards) return;
    for (const [oldest] of this.entries) {
      if (this.held + weight <= this.maxBoards) break;
      this.delete(oldest);
    }
    this.entries.set(userId, { version, list });
    this.held += weight;
  }

  private delete(userId: number): void {
    const e = this.entries.get(userId);
    if (!e) return;
    this.held -= weightOf(e.list);
    this.entries.delete(userId);
  }
}
