/**
 * RTK Query base for every call to the gateway: JSON, same-origin cookies, the CSRF token echoed
 * in `x-csrf-token` on every unsafe request, and a 401 outside the login/signup forms treated as
 * an expired session (toast, then back to the home page).
 */
import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { sessionExpired } from './session';

/** The gateway's readable CSRF cookie (`__Host-` prefixed when served over https). */
const CSRF_COOKIES = ['__Host-csrf-token', 'csrf-token'];
export const CSRF_HEADER = 'x-csrf-token';

export function readCookie(name: string, cookies: string = document.cookie): string | undefined {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function csrfToken(cookies?: string): string | undefined {
  for (const name of CSRF_COOKIES) {
    const value = readCookie(name, cookies);
    if (value) return value;
  }
  return undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/',
  credentials: 'same-origin',
  prepareHeaders: (headers) => {
    headers.set('Accept', 'application/json');
    return headers;
  },
});

/** Requests whose 401 is an answer for the form, not an expired session. */
const isCredentialsForm = (url: string) => /^\/?api\/auth\//.test(url);

export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
  const method = (request.method ?? 'GET').toUpperCase();
  const headers = new Headers(request.headers as HeadersInit | undefined);
  if (!SAFE_METHODS.has(method)) {
    const token = csrfToken();
    if (token) headers.set(CSRF_HEADER, token);
  }
  const result = await rawBaseQuery({ ...request, headers }, api, extra);
  if (result.error?.status === 401 && !isCredentialsForm(request.url)) {
    api.dispatch(sessionExpired());
  }
  return result;
};

/** The gateway's error body: `{ message, code, statusCode }`. */
export interface ApiErrorBody {
  message: string;
  code: string;
  statusCode: number;
  fields?: Record<string, string>;
}

/** A message to show for a failed call. */
export function errorMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'data' in error) {
    const data = (error as { data?: unknown }).data;
    if (data && typeof data === 'object' && typeof (data as ApiErrorBody).message === 'string') {
      return (data as ApiErrorBody).message;
    }
  }
  if (
    error &&
    typeof error === 'object' &&
    'status' in error &&
    (error as { status: unknown }).status === 'FETCH_ERROR'
  ) {
    return 'Cannot reach the server. Check your connection and try again.';
  }
  return 'Something went wrong. Please try again.';
}

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['User'],
  endpoints: () => ({}),
});
