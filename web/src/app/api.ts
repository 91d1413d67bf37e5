/**
 * The one RTK Query API of the app; features add endpoints with `api.injectEndpoints`. Every call
 * goes through `callApi` (spec §7/§8 rules) with the page's fetch, cookies and timers.
 */
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { takeBootResponse } from './bootRequests';
import { callApi, type ApiError, type ClientEffects, type RequestSpec } from './apiClient';
import { navigateTo } from './navigation';
import { notify } from '../ui/toastsSlice';

export type { ApiError } from './apiClient';

export const baseQuery: BaseQueryFn<string | RequestSpec, unknown, ApiError> = async (args, { dispatch }) => {
  const spec = typeof args === 'string' ? { url: args } : args;
  const fx: ClientEffects = {
    // the first GET of the session's URLs takes what boot.ts asked for already
    fetch: (url, init) => takeBootResponse(url, init, performance.now()) ?? fetch(url, init),
    cookies: () => document.cookie,
    notice: (code) => dispatch(notify({ type: 'info', message: code, code })),
    sessionExpired: () =>
      dispatch(
        notify({ type: 'error', message: 'Session expired, redirecting to login page...', code: 'SESSION_EXPIRED' }),
      ),
    navigate: (path) => {
      try {
        navigateTo(path);
      } catch {
        window.location.assign(path);
      }
    },
    assign: (url) => window.location.assign(url),
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  };
  const result = await callApi(spec, fx);
  return 'error' in result ? { error: result.error } : { data: result.data };
};

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['User', 'Settings', 'Plan', 'Config'],
  endpoints: () => ({}),
});
