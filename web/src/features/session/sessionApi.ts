/**
 * The initial loads every page needs: user, plan and settings. A failed load falls back to no
 * user, the starter plan and empty settings (spec §7) so the app still opens.
 */
import {
  DEFAULT_SETTINGS,
  FALLBACK_STARTER_PLAN,
  type AppConfig,
  type Plan,
  type Settings,
  type SettingsPatch,
  type UserDto,
} from '@wb/proto';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { api, baseQuery } from '../../app/api';
import { isSignedInUser } from '../../app/bootRequests';

/** GET with a fallback value instead of an error. */
async function getOr<T>(url: string, fallback: T, qapi: BaseQueryApi, extra: object): Promise<{ data: T }> {
  const result = await baseQuery(url, qapi, extra);
  return { data: 'error' in result && result.error ? fallback : (result.data as T) };
}

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUser: build.query<UserDto | null, void>({
      queryFn: (_arg, qapi, extra) => getOr<UserDto | null>('api/user', null, qapi, extra as object),
      providesTags: ['User'],
    }),
    getPlan: build.query<Plan, void>({
      queryFn: (_arg, qapi, extra) => getOr<Plan>('api/plan', FALLBACK_STARTER_PLAN, qapi, extra as object),
      providesTags: ['Plan'],
    }),
    getSettings: build.query<Partial<Settings>, void>({
      queryFn: (_arg, qapi, extra) => getOr<Partial<Settings>>('api/user/settings', {}, qapi, extra as object),
      providesTags: ['Settings'],
    }),
    getConfig: build.query<AppConfig | null, void>({
      queryFn: (_arg, qapi, extra) => getOr<AppConfig | null>('api/config', null, qapi, extra as object),
      providesTags: ['Config'],
    }),
    /** Saves changed fields; the cache shows them at once and rolls back on failure. */
    updateSettings: build.mutation<Settings, SettingsPatch>({
      query: (body) => ({ url: 'api/user/settings', method: 'POST', body }),
      async onQueryStarted(patch, { dispatch, queryFulfilled }) {
        const undo = dispatch(
          sessionApi.util.updateQueryData('getSettings', undefined, (draft) => Object.assign(draft, patch)),
        );
        try {
          const { data } = await queryFulfilled;
          void dispatch(sessionApi.util.upsertQueryData('getSettings', undefined, data));
        } catch {
          undo.undo();
        }
      },
    }),
    sendVerification: build.mutation<{ ok: true }, void>({
      query: () => ({ url: 'api/user/send-verification', method: 'POST' }),
    }),
  }),
});

export const {
  useGetUserQuery,
  useGetPlanQuery,
  useGetSettingsQuery,
  useGetConfigQuery,
  useUpdateSettingsMutation,
  useSendVerificationMutation,
} = sessionApi;

export const isLoggedIn = (user: UserDto | null | undefined): user is UserDto => isSignedInUser(user);

/** Settings with the defaults filled in (empty settings after a failed load). */
export function withDefaults(settings: Partial<Settings> | undefined): Settings {
  return { ...DEFAULT_SETTINGS, ...settings };
}
