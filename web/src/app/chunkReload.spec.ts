/// <reference types="jest" />
import { CHUNK_RELOAD_GUARD_MS, isChunkLoadError, reloadForChunkError } from './chunkReload';

test('a chunk-load failure reloads at most once per 5 minutes', () => {
  const m = new Map<string, string>();
  const s = { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
  const reload = jest.fn();
  expect(reloadForChunkError(s, 1_000_000, reload)).toBe(true);
  expect(reloadForChunkError(s, 1_000_000 + CHUNK_RELOAD_GUARD_MS - 1, reload)).toBe(false);
  expect(reloadForChunkError(s, 1_000_000 + CHUNK_RELOAD_GUARD_MS, reload)).toBe(true);
  expect(reload).toHaveBeenCalledTimes(2);
});

test('chunk-load errors are recognised', () => {
  expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
  expect(isChunkLoadError(new Error('boom'))).toBe(false);
});
