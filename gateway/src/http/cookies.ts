/** Minimal cookie parsing and Set-Cookie writing: only what the gateway's own cookies need. */
import type { Response } from 'express';

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in out) continue; // first wins, like browsers send the most specific first
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (value.includes('%')) {
      try {
        value = decodeURIComponent(value);
      } catch {
        continue;
      }
    }
    out[name] = value;
  }
  return out;
}

export interface CookieOptions {
  httpOnly: boolean;
  secure: boolean;
  /** seconds; omitted = browser-session cookie; 0 = delete */
  maxAge?: number;
}

export function serializeCookie(name: string, value: string, opts: CookieOptions): string {
  let s = `${name}=${value}; Path=/; SameSite=Lax`;
  if (opts.maxAge !== undefined) s += `; Max-Age=${Math.max(0, Math.floor(opts.maxAge))}`;
  if (opts.httpOnly) s += '; HttpOnly';
  if (opts.secure) s += '; Secure';
  return s;
}

/**
 * Set (or replace) one cookie on the response. Replacing matters: a login first issues a CSRF
 * token for the anonymous binding and then one for the new session; only the last may be sent.
 */
export function setCookie(res: Response, name: string, value: string, opts: CookieOptions): void {
  const line = serializeCookie(name, value, opts);
  const prev = res.getHeader('Set-Cookie');
  if (prev === undefined) {
    res.setHeader('Set-Cookie', [line]);
    return;
  }
  const list = (Array.isArray(prev) ? prev : [String(prev)]).filter((c) => !c.startsWith(`${name}=`));
  list.push(line);
  res.setHeader('Set-Cookie', list);
}

export function clearCookie(res: Response, name: string, opts: Omit<CookieOptions, 'maxAge'>): void {
  setCookie(res, name, '', { ...opts, maxAge: 0 });
}
