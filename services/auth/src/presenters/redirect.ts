import type { RequestContext } from '@wb/platform';
import { AUTH_REDIRECTS } from '@wb/proto';

const FAILURE_PAGES: string[] = [AUTH_REDIRECTS.invalidVerificationLink, AUTH_REDIRECTS.invalidUnsubscribeLink];

/** link operations answer with a redirect header (the gateway turns it into a 302) */
export function redirectTo(ctx: RequestContext, path: string): { ok: boolean } {
  ctx.redirect(path);
  return { ok: !FAILURE_PAGES.includes(path) };
}
