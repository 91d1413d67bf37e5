/**
 * The call semantics of spec §7 and §8, free of React and Redux so they are unit tested:
 * JSON headers, the CSRF token on unsafe methods, notice and redirect headers, text for non-JSON
 * answers, error extraction and the 401 "session expired" flow.
 */
export const CSRF_HEADER = 'x-csrf-token';
/** The gateway's readable CSRF cookie (`__Host-` prefixed when served over https). */
const CSRF_COOKIES = ['__Host-csrf-token', 'csrf-token'];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const REDIRECT_DELAY_MS = 50;
export const SESSION_EXPIRED_REDIRECT_MS = 2000;
export const SESSION_EXPIRED_MESSAGE = 'Session expired';

/** A failed call as the app sees it: message, code and HTTP status (0 = no answer). */
export interface ApiError {
  message: string;
  code: string;
  status: number;
  fields?: Record<string, string>;
}

export interface RequestSpec {
  url: string;
  method?: string;
  body?: unknown;
}

/** What the client needs from the page; injected so tests drive it with fakes. */
export interface ClientEffects {
  fetch: (url: string, init: RequestInit) => Promise<ResponseLike>;
  cookies: () => string;
  /** info notice (x-notice header: a code to translate) */
  notice: (code: string) => void;
  /** the session-expired error toast */
  sessionExpired: () => void;
  /** in-app navigation (x-redirect) */
  navigate: (path: string) => void;
  /** full page load */
  assign: (url: string) => void;
  setTimeout: (fn: () => void, ms: number) => unknown;
}

export interface ResponseLike {
  ok: boolean;
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export function readCookie(name: string, cookies: string): string | undefined {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function csrfToken(cookies: string): string | undefined {
  for (const name of CSRF_COOKIES) {
    const value = readCookie(name, cookies);
    if (value) return value;
  }
  return undefined;
}

/** Headers and body of a request: JSON both ways, the CSRF token on every non-GET call. */
export function buildRequest(spec: RequestSpec, cookies: string): { url: string; init: RequestInit } {
  const method = (spec.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
  if (!SAFE_METHODS.has(method)) {
    const token = csrfToken(cookies);
    if (token) headers[CSRF_HEADER] = token;
  }
  const url = spec.url.startsWith('/') ? spec.url : `/${spec.url}`;
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (!SAFE_METHODS.has(method)) init.body = JSON.stringify(spec.body ?? {});
  return { url, init };
}

/** JSON answers are parsed; anything else is returned as text. */
export async function readBody(res: ResponseLike): Promise<unknown> {
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Message from message, else error, else the status text; code from code, else statusCode, else ERR_UNKNOWN. */
export function toApiError(body: unknown, status: number, statusText: string): ApiError {
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const statusCode = typeof b.statusCode === 'number' ? String(b.statusCode) : str(b.statusCode);
  const error: ApiError = {
    message: str(b.message) ?? str(b.error) ?? (statusText || (typeof body === 'string' && body) || 'Error'),
    code: str(b.code) ?? statusCode ?? 'ERR_UNKNOWN',
    status,
  };
  if (b.fields && typeof b.fields === 'object') error.fields = b.fields as Record<string, string>;
  return error;
}

let expiring = false;
/** Test hook: forget that a session-expired redirect is under way. */
export function resetSessionExpiry(): void {
  expiring = false;
}

/** One call with every rule of spec §7/§8 applied. */
export async function callApi(spec: RequestSpec, fx: ClientEffects): Promise<{ data: unknown } | { error: ApiError }> {
  const { url, init } = buildRequest(spec, fx.cookies());
  let res: ResponseLike;
  try {
    res = await fx.fetch(url, init);
  } catch (err) {
    return { error: { message: err instanceof Error ? err.message : String(err), code: 'ERR_NETWORK', status: 0 } };
  }
  const notice = res.headers.get('x-notice');
  if (notice) fx.notice(notice);
  const redirect = res.headers.get('x-redirect');
  if (redirect) fx.setTimeout(() => fx.navigate(redirect), REDIRECT_DELAY_MS);

  if (res.status === 401) {
    if (!expiring) {
      expiring = true;
      fx.sessionExpired();
      fx.setTimeout(() => fx.assign('/'), SESSION_EXPIRED_REDIRECT_MS);
    }
    return { error: { message: SESSION_EXPIRED_MESSAGE, code: 'ERR_UNAUTHORIZED', status: 401 } };
  }
  const body = await readBody(res);
  if (!res.ok) return { error: toApiError(body, res.status, res.statusText) };
  return { data: body };
}

export function isApiError(value: unknown): value is ApiError {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as ApiError).message === 'string' &&
    typeof (value as ApiError).code === 'string'
  );
}

/**
 * The text a notification shows for an error (spec §8): FST_ERR_VALIDATION shows only the
 * message, other coded errors message and code, strings as they are, anything else as JSON.
 * `translate` turns a code into the user's language when a translation exists.
 */
export function errorDisplayText(error: unknown, translate: (code: string) => string | undefined): string {
  if (typeof error === 'string') return error;
  if (isApiError(error)) {
    const message = translate(error.code) ?? error.message;
    if (error.code === 'FST_ERR_VALIDATION') return message;
    return `${message} (${error.code})`;
  }
  if (error instanceof Error) return error.message;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** The message a form shows under its fields: the translated code, else the server's text. */
export function formErrorText(error: unknown, translate: (code: string) => string | undefined): string {
  if (isApiError(error)) return translate(error.code) ?? error.message;
  return errorDisplayText(error, translate);
}
