/** Calls that change who is logged in, and the account operations of the auth service. */
import type { Role, UserDto } from '@wb/proto';
import { api } from '../../app/api';
import type { AppDispatch } from '../../app/store';
import { sessionApi } from '../session/sessionApi';

export interface SignupInput {
  name: string;
  email: string;
  password: string;
}
export interface LoginInput {
  email: string;
  password: string;
}

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    signup: build.mutation<{ user: UserDto }, SignupInput>({
      query: (body) => ({ url: 'api/auth/signup', method: 'POST', body }),
    }),
    login: build.mutation<{ user: UserDto }, LoginInput>({
      query: (body) => ({ url: 'api/auth/login', method: 'POST', body }),
    }),
    logout: build.mutation<unknown, void>({
      query: () => ({ url: 'auth/logout', method: 'POST' }),
    }),
    requestRecovery: build.mutation<{ ok: true }, { email: string }>({
      query: (body) => ({ url: 'api/auth/password-recovery/request', method: 'POST', body }),
    }),
    completeRecovery: build.mutation<{ ok: true }, { token: string; password: string }>({
      query: (body) => ({ url: 'api/auth/password-recovery/complete', method: 'POST', body }),
    }),
    changePassword: build.mutation<{ ok: true }, { currentPassword: string; newPassword: string }>({
      query: (body) => ({ url: 'api/user/password', method: 'POST', body }),
    }),
    changeEmail: build.mutation<{ ok: true }, { email: string; password: string }>({
      query: (body) => ({ url: 'api/user/email', method: 'POST', body }),
    }),
    updateProfile: build.mutation<UserDto, { name?: string; role?: Role; picture?: string | null }>({
      query: (body) => ({ url: 'api/user/profile', method: 'POST', body }),
      invalidatesTags: ['Settings'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) void dispatch(sessionApi.util.upsertQueryData('getUser', undefined, data));
      },
    }),
    terminate: build.mutation<{ ok: true }, { confirmation: string }>({
      query: (body) => ({ url: 'api/user/terminate', method: 'POST', body }),
    }),
  }),
});

export const {
  useSignupMutation,
  useLoginMutation,
  useLogoutMutation,
  useRequestRecoveryMutation,
  useCompleteRecoveryMutation,
  useChangePasswordMutation,
  useChangeEmailMutation,
  useUpdateProfileMutation,
  useTerminateMutation,
} = authApi;

/**
 * After login or signup: the user is known from the answer; settings and plan are fetched before
 * navigating so the route rules (onboarding) see the new account, not the guest's.
 */
export async function enterSession(dispatch: AppDispatch, user: UserDto): Promise<void> {
  await dispatch(sessionApi.util.upsertQueryData('getUser', undefined, user));
  const loads = [
    dispatch(sessionApi.endpoints.getSettings.initiate(undefined, { forceRefetch: true })),
    dispatch(sessionApi.endpoints.getPlan.initiate(undefined, { forceRefetch: true })),
  ];
  await Promise.all(loads);
  for (const l of loads) l.unsubscribe();
}
