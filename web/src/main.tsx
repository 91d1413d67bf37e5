/**
 * The entry: small on purpose. It starts what the first page needs from the server (boot.ts) and
 * then loads the app (start.tsx) as its own chunk, so those requests and a board's socket leave
 * before React and the app have been downloaded and evaluated.
 */
import { boot } from './app/boot';
import { isChunkLoadError, reloadForChunkError } from './app/chunkReload';
import './ui/styles.css';

// a stale chunk after a deployment: one reload, at most every 5 minutes
window.addEventListener('vite:preloadError', (event) => {
  if (reloadForChunkError(localStorage, Date.now(), () => window.location.reload())) event.preventDefault();
});
window.addEventListener('unhandledrejection', (event) => {
  if (isChunkLoadError(event.reason)) reloadForChunkError(localStorage, Date.now(), () => window.location.reload());
});

const signedIn = boot(window.location);
void import('./app/start').then((app) => app.startApp(signedIn));
