/**
 * The browser events the board client reacts to (realtime SPEC K3, K4), kept out of the UI-free
 * client: `online`, focus and the tab becoming visible reconnect at once (`wake`), `offline`
 * gives the socket up (`networkLost`), and leaving the page while changes are unsent asks first
 * (`beforeunload`; the changes are kept in IndexedDB either way).
 */
import type { BoardClient } from './boardClient';

export function attachBrowserLifecycle(
  client: Pick<BoardClient, 'wake' | 'networkLost' | 'hasUnsent'>,
  win: Window = window,
): () => void {
  const wake = () => client.wake();
  const lost = () => client.networkLost();
  const visible = () => {
    if (win.document.visibilityState === 'visible') client.wake();
  };
  const leaving = (e: BeforeUnloadEvent) => {
    if (!client.hasUnsent()) return;
    e.preventDefault();
    e.returnValue = ''; // older browsers ask only when it is set
  };
  win.addEventListener('online', wake);
  win.addEventListener('focus', wake);
  win.addEventListener('offline', lost);
  win.addEventListener('beforeunload', leaving);
  win.document.addEventListener('visibilitychange', visible);
  return () => {
    win.removeEventListener('online', wake);
    win.removeEventListener('focus', wake);
    win.removeEventListener('offline', lost);
    win.removeEventListener('beforeunload', leaving);
    win.document.removeEventListener('visibilitychange', visible);
  };
}
