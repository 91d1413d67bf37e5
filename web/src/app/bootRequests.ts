/**
 * The requests every page starts with, sent by the boot code (main.tsx) while the app's code is
 * still loading: the session (`/api/user`), then a signed-in person's settings and plan, which
 * decide what the first route shows. Before this, they left only once React had started (~0.5 s
 * into opening a board on the editor bench), one after the other. The app's first GET of each
 * takes the boot response instead of asking again, if it comes within TAKE_WITHIN_MS; every later
 * GET asks the server.
 */
import { buildRequest } from './apiClient';

export const BOOT_URLS = { user: '/api/user', settings: '/api/user/settings', plan: '/api/plan' } as const;
/** a boot response older than this is not used (the app asks again) */
export const TAKE_WITHIN_MS = 30_000;

interface BootEffects {
  fetch(url: string, init: RequestInit): Promise<Response>;
  cookies(): string;
  now(): number;
  /** the last boot on this device found someone signed in (SIGNED_IN_KEY) */
  rememberedSignedIn(): boolean;
  rememberSignedIn(yes: boolean): void;
}
/** localStorage: '1' when this device's last boot found someone signed in */
export const SIGNED_IN_KEY = 'wb.signedIn';

const started = new Map<string, { response: Promise<Response>; at: number }>();

/**
 * Starts the boot requests; resolves whether the session says someone is signed in. When the
 * last boot on this device found someone signed in, settings and plan leave together with the
 * session instead of after it: a board's ~20 chunk requests would otherwise queue ahead of them on
 * HTTP/1.1's six connections (bench-editor: 0.56 s). A guest answer drops them unused.
 */
export function startBootRequests(fx: BootEffects): Promise<boolean> {
  started.clear();
  const get = (url: string) => {
    const { init } = buildRequest({ url }, fx.cookies());
    const response = fx.fetch(url, { ...init, priority: 'high' });
    response.catch(() => undefined); // the app sees the failure when it takes the response
    started.set(url, { response, at: fx.now() });
    return response;
  };
  const user = get(BOOT_URLS.user);
  const early = fx.rememberedSignedIn();
  if (early) {
    void get(BOOT_URLS.settings);
    void get(BOOT_URLS.plan);
  }
  return user
    .then((res) => (res.ok ? (res.clone().json() as Promise<unknown>) : null))
    .then(isSignedInUser, () => false)
    .then((signedIn) => {
      fx.rememberSignedIn(signedIn);
      if (signedIn && !early) {
        void get(BOOT_URLS.settings);
        void get(BOOT_URLS.plan);
      }
      if (!signedIn) {
        // asked on a stale guess: a later sign-in must ask again
        started.delete(BOOT_URLS.settings);
        started.delete(BOOT_URLS.plan);
      }
      return signedIn;
    });
}

/** The boot response for this GET, once; undefined when there is none (ask the server). */
export function takeBootResponse(url: string, init: RequestInit, now: number): Promise<Response> | undefined {
  if ((init.method ?? 'GET').toUpperCase() !== 'GET') return undefined;
  const boot = started.get(url);
  if (!boot) return undefined;
  started.delete(url);
  return now - boot.at <= TAKE_WITHIN_MS ? boot.response : undefined;
}

/** `/api/user` answers `{id: 0}` for a guest (spec §7) */
export function isSignedInUser(user: unknown): boolean {
  return (
    typeof user === 'object' &&
    user !== null &&
    typeof (user as { id?: unknown }).id === 'number' &&
    (user as { id: number }).id !== 0
  );
}
