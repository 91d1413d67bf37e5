/**
 * A chunk that fails to load usually means a new deployment replaced the files: reload once to
 * get the new index, but at most once per 5 minutes so a real outage does not loop (spec §4).
 */
export const CHUNK_RELOAD_GUARD_MS = 5 * 60 * 1000;
const KEY = 'wb.chunkReloadAt';

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Reloads (and returns true) unless a reload for the same reason happened within 5 minutes. */
export function reloadForChunkError(storage: KeyValueStore, now: number, reload: () => void): boolean {
  const last = Number(storage.getItem(KEY) ?? 0);
  if (Number.isFinite(last) && now - last < CHUNK_RELOAD_GUARD_MS) return false;
  storage.setItem(KEY, String(now));
  reload();
  return true;
}

export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Unable to preload CSS/i.test(
    text,
  );
}
