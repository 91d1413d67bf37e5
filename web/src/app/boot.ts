/**
 * What a page starts before the app's code has loaded (main.tsx runs this, then imports the app):
 * the session requests (bootRequests.ts), the strings of a language other than English and, on a
 * board, the board's socket (S9: it joins once the session says the person is signed in) and the
 * board page's chunk and strings. Kept to a few light modules, so the entry chunk that runs it is
 * small and runs early. (Compiling the Automerge wasm here too was measured slower on 2 cores: its
 * 3.6 MB download and compile held back the app's chunks by ~0.2 s.)
 */
import { boardSocketUrl, openBoardSocketEarly } from '../features/board/realtime/transport';
import { initialLocale, preloadStrings } from '../i18n/locale';
import { SIGNED_IN_KEY, startBootRequests } from './bootRequests';
import { matchPattern, ROUTES, splitLocale } from './routes';

const BOARD_PATTERN = ROUTES.find((r) => r.page === 'board')!.pattern;

/** Starts the boot's work; resolves whether the session says someone is signed in. */
export function boot(location: Location): Promise<boolean> {
  performance.mark('wb:boot');
  const signedIn = startBootRequests({
    fetch: (url, init) => fetch(url, init),
    cookies: () => document.cookie,
    now: () => performance.now(),
    rememberedSignedIn: () => readStorage(SIGNED_IN_KEY) === '1',
    rememberSignedIn: (yes) => writeStorage(SIGNED_IN_KEY, yes ? '1' : '0'),
  });
  const { prefix, rest } = splitLocale(location.pathname);
  const id = matchPattern(BOARD_PATTERN, rest)?.id;
  // the same modules the app and its pages load later (the module map keeps them): each starts
  // here, in parallel with the app's code, instead of after it; a failure is theirs to report
  preloadStrings(initialLocale(prefix), id ? ['board'] : []);
  if (id) {
    openBoardSocketEarly(boardSocketUrl(location, id), signedIn);
    import('../features/board/BoardPage').catch(() => undefined);
  }
  return signedIn;
}

/** localStorage may be blocked (privacy settings): then nothing is remembered */
function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // nothing remembered
  }
}
