/**
 * Starts the hashing worker. Kept apart so only this file carries `import.meta` (Vite bundles the
 * worker as its own chunk from this URL); jest replaces this module in unit tests.
 */
export function createHashWorker(): Worker {
  return new Worker(new URL('./hashWorker.ts', import.meta.url), { type: 'module', name: 'sha256' });
}
