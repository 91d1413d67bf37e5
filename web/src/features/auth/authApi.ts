/** The signed-in user and the calls that change who that is. */
import type { UserDto } from '@wb/proto';
import { api } from '../../app/api';

export type User = UserDto;

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
    /** GET /api/user: the signed-in user, or the guest (id 0) */
    getUser: build.query<User, void>({
      query: () => 'api/user',
      providesTags: ['User'],
    }),
    signup: build.mutation<{ user: User }, SignupInput>({
      query: (body) => ({ url: 'api/auth/signup', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    login: build.mutation<{ user: User }, LoginInput>({
      query: (body) => ({ url: 'api/auth/login', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    logout: build.mutation<unknown, void>({
      query: () => ({ url: 'auth/logout', method: 'POST' }),
    }),
  }),
});

export const { useGetUserQuery, useSignupMutation, useLoginMutation, useLogoutMutation } = authApi;

export const isSignedIn = (user: User | undefined): user is User => !!user && user.id !== 0;
