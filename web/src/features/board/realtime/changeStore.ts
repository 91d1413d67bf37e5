/**
 * SPEC K4: own changes not yet SAVED, kept outside the tab so a tab closed while offline loses
 * nothing. One IndexedDB database (`wb-board-outbox`, store `changes`), keys
 * `[board id + person, change hash]`, values `{bytes, seq}` (Automerge change bytes, in the order
 * they were made). The board client puts each change as it makes it, removes it on SAVED, and
 * loads what is left when the board opens again (applied and sent like any unsaved change: the
 * same bytes, the same hash, nothing doubled).
 *
 * Plain IndexedDB, no library: four requests, and the app supports only browsers that have it.
 */

export interface ChangeStore {
  /** the changes kept for this board and person, in the order they were made */
  load(): Promise<Uint8Array[]>;
  put(hash: string, bytes: Uint8Array): void;
  remove(hashes: Iterable<string>): void;
}

const DB_NAME = 'wb-board-outbox';
const STORE = 'changes';

interface Row {
  bytes: Uint8Array;
  seq: number;
}

let opening: Promise<IDBDatabase> | null = null;
function openDb(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('indexedDB open failed'));
    req.onblocked = () => reject(new Error('indexedDB open blocked'));
  }).catch((err: unknown) => {
    opening = null;
    throw err;
  });
  return opening;
}

/** whose changes: a signed-in user by id, a guest by the name they joined with (guests have no id) */
export function outboxKey(boardId: string, userId: number, name: string): string {
  return userId > 0 ? `${boardId}\u0000u${userId}` : `${boardId}\u0000g:${name.trim().toLowerCase()}`;
}

export class IndexedDbChangeStore implements ChangeStore {
  private seq = Date.now() * 1000;

  constructor(private readonly key: string) {}

  /** null where IndexedDB is missing (old or locked-down browsers): changes then live in memory only */
  static create(key: string): IndexedDbChangeStore | null {
    return typeof indexedDB === 'undefined' ? null : new IndexedDbChangeStore(key);
  }

  async load(): Promise<Uint8Array[]> {
    const db = await openDb();
    const rows = await new Promise<Row[]>((resolve, reject) => {
      const req = db
        .transaction(STORE, 'readonly')
        .objectStore(STORE)
        .getAll(IDBKeyRange.bound([this.key], [this.key, []]));
      req.onsuccess = () => resolve(req.result as Row[]);
      req.onerror = () => reject(req.error ?? new Error('indexedDB read failed'));
    });
    rows.sort((a, b) => a.seq - b.seq);
    for (const r of rows) this.seq = Math.max(this.seq, r.seq + 1);
    return rows.map((r) => new Uint8Array(r.bytes));
  }

  put(hash: string, bytes: Uint8Array): void {
    const row: Row = { bytes: bytes.slice(), seq: this.seq++ };
    void this.write((s) => s.put(row, [this.key, hash]));
  }

  remove(hashes: Iterable<string>): void {
    const list = [...hashes];
    if (list.length) void this.write((s) => list.forEach((h) => s.delete([this.key, h])));
  }

  private async write(fn: (store: IDBObjectStore) => void): Promise<void> {
    try {
      const db = await openDb();
      const tx = db.transaction(STORE, 'readwrite');
      fn(tx.objectStore(STORE));
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error ?? new Error('indexedDB write failed'));
      });
    } catch (err) {
      // storage full, private mode: the change still goes to the server; only the tab-close safety is lost
      console.warn('board outbox write failed', err);
    }
  }
}

/** TEST/fallback: the same contract in memory (one Map shared by "tabs" that share it) */
export class MemoryChangeStore implements ChangeStore {
  constructor(readonly rows = new Map<string, Uint8Array>()) {}
  load(): Promise<Uint8Array[]> {
    return Promise.resolve([...this.rows.values()]);
  }
  put(hash: string, bytes: Uint8Array): void {
    this.rows.set(hash, bytes.slice());
  }
  remove(hashes: Iterable<string>): void {
    for (const h of hashes) this.rows.delete(h);
  }
}
