/**
 * In-process cache of user rows for the reads behind every page load (GET /api/user, settings,
 * plan), so they cost no database round trip. Correctness comes from PostgreSQL, not from a TTL:
 * a trigger NOTIFYs `auth_user_changed` with the user id when the change commits, on every
 * replica (see UserChangeListener). Two guards close the gaps:
 *   - a read that was in flight while any invalidation arrived is not cached (it may be older);
 *   - while the listener is not connected, nothing is cached (notifications could be missed).
 * The TTL only bounds what a lost notification could cost.
 */
import type { UserRow } from '../repositories/users';

export class UserCache {
  private readonly rows = new Map<number, { row: UserRow; expires: number }>();
  private generation = 0;
  private listening = false;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(id: number): UserRow | undefined {
    const hit = this.rows.get(id);
    if (!hit) return undefined;
    if (hit.expires <= this.now()) {
      this.rows.delete(id);
      return undefined;
    }
    return hit.row;
  }

  /** call before reading from the database; pass the result to `set` */
  beginRead(): number {
    return this.generation;
  }

  set(id: number, row: UserRow, readGeneration: number): void {
    if (!this.listening || this.ttlMs <= 0 || readGeneration !== this.generation) return;
    if (this.rows.size >= this.maxEntries) {
      // Map order is insertion order: drop the oldest entry
      const oldest = this.rows.keys().next();
      if (!oldest.done) this.rows.delete(oldest.value);
    }
    this.rows.set(id, { row, expires: this.now() + this.ttlMs });
  }

  invalidate(id: number): void {
    this.generation++;
    this.rows.delete(id);
  }

  /** forget everything (a write on this replica finished; reads in flight are not cached either) */
  clear(): void {
    this.generation++;
    this.rows.clear();
  }

  /** the listener connected (true) or lost its connection (false: forget everything) */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.clear();
  }
}
