/** The RequestActor the gateway vouches for: who is asking, from where, in which language. */
import type { Request } from 'express';
import { LOCALES } from '@wb/proto';
import type { RequestActor } from '@wb/proto';
import type { RequestState } from './state';

const LOCALE_SET = new Set<string>(LOCALES);
const COUNTRY_RE = /^[A-Z]{2}$/;

/** First supported language of `x-locale` (the web app's choice) or Accept-Language (order = preference). */
export function localeOf(req: Request): string | undefined {
  const explicit = req.headers['x-locale'];
  if (typeof explicit === 'string' && LOCALE_SET.has(explicit)) return explicit;
  const header = req.headers['accept-language'];
  if (!header) return undefined;
  for (const part of header.split(',', 10)) {
    const tag = part.split(';', 1)[0]!.trim().toLowerCase();
    const primary = tag.split('-', 1)[0]!;
    if (LOCALE_SET.has(primary)) return primary;
  }
  return undefined;
}

/** Country from the edge proxy (Cloudflare or our ingress), only when proxies are trusted. */
function countryOf(req: Request, trustProxy: boolean): string | undefined {
  if (!trustProxy) return undefined;
  const raw = req.headers['cf-ipcountry'] ?? req.headers['x-country-code'];
  if (typeof raw !== 'string') return undefined;
  const c = raw.trim().toUpperCase();
  return COUNTRY_RE.test(c) && c !== 'XX' ? c : undefined;
}

export function actorOf(req: Request, st: RequestState, trustProxy: boolean): RequestActor {
  const actor: RequestActor = { userId: st.session?.userId ?? 0 };
  if (st.session) actor.sessionId = st.session.sessionId;
  if (req.ip) actor.ip = req.ip;
  const country = countryOf(req, trustProxy);
  if (country) actor.country = country;
  const ua = req.headers['user-agent'];
  if (ua) actor.userAgent = ua.slice(0, 512);
  const locale = localeOf(req);
  if (locale) actor.locale = locale;
  return actor;
}
