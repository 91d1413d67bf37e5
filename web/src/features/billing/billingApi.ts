/**
 * Billing and teams endpoints (issue 12): exactly the gateway's paths of
 * gateway/src/routes/billing.ts and gateway/src/routes/teams.ts. Every write refreshes the
 * subscription, the team and the plan (a subscription or a licence changes the effective plan).
 */
import type {
  BillingFormInput,
  BillingPeriod,
  BusinessDetails,
  BusinessInfo,
  CollaborationUsage,
  Invoice,
  InvitationsReply,
  PaidPlanName,
  Subscription,
} from '@wb/proto';
import { api } from '../../app/api';

export interface TrialBody {
  plan: PaidPlanName;
  billing_period: BillingPeriod;
  terms: boolean;
}
export interface SubscribeBody {
  plan: PaidPlanName;
  billing_period: BillingPeriod;
  seats: number;
  nonce: string;
  billing: BillingFormInput;
  promo?: string;
}
export interface ChangeBody {
  plan?: PaidPlanName;
  billing_period?: BillingPeriod;
  seats?: number;
  nonce?: string;
}

const withTags = api.enhanceEndpoints({ addTagTypes: ['Subscription', 'Team', 'Invoices', 'Trial'] });
const all = ['Subscription', 'Team', 'Invoices', 'Trial', 'Plan'] as const;

export const billingApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    getSubscription: build.query<Subscription | null, void>({
      query: () => 'api/billing/subscription',
      providesTags: ['Subscription'],
    }),
    getFreeTrial: build.query<{ canHaveFreeTrial: boolean }, void>({
      query: () => 'api/billing/free-trial',
      providesTags: ['Trial'],
    }),
    startTrial: build.mutation<Subscription, TrialBody>({
      query: (body) => ({ url: 'api/billing/trial', method: 'POST', body }),
      invalidatesTags: [...all],
    }),
    getClientToken: build.query<{ clientToken: string }, void>({
      query: () => 'api/billing/client-token',
      keepUnusedDataFor: 0,
    }),
    subscribe: build.mutation<Subscription, SubscribeBody>({
      query: (body) => ({ url: 'api/billing/subscription', method: 'POST', body }),
      invalidatesTags: [...all],
    }),
    changeSubscription: build.mutation<Subscription, ChangeBody>({
      query: (body) => ({ url: 'api/billing/subscription', method: 'PUT', body }),
      invalidatesTags: [...all],
    }),
    cancelSubscription: build.mutation<Subscription, { confirmation: string }>({
      query: (body) => ({ url: 'api/billing/subscription/cancel', method: 'POST', body }),
      invalidatesTags: [...all],
    }),
    /** the weekly collaboration minutes (GET /api/collaboration/usage; a plan change refreshes it) */
    getCollaborationUsage: build.query<CollaborationUsage, void>({
      query: () => 'api/collaboration/usage',
      providesTags: ['Plan'],
    }),
    getInvoices: build.query<Invoice[], void>({
      query: () => 'api/billing/invoices',
      providesTags: ['Invoices'],
    }),
    getBusinessDetails: build.query<BusinessDetails, void>({
      query: () => 'api/business',
      providesTags: ['Team'],
    }),
    getBusinessInfo: build.query<BusinessInfo | null, void>({
      query: () => 'api/business/info',
      providesTags: ['Team'],
    }),
    invite: build.mutation<InvitationsReply, { emails: string[] }>({
      query: (body) => ({ url: 'api/business/invitations', method: 'POST', body }),
      invalidatesTags: ['Team'],
    }),
    cancelInvitation: build.mutation<BusinessInfo, number>({
      query: (id) => ({ url: `api/business/invitations/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Team'],
    }),
    joinTeam: build.mutation<BusinessInfo, { token: string }>({
      query: (body) => ({ url: 'api/business/join', method: 'POST', body }),
      invalidatesTags: [...all],
    }),
    memberAction: build.mutation<BusinessInfo, { userId: number; action: 'activate' | 'deactivate' | 'remove' }>({
      query: ({ userId, action }) =>
        action === 'remove'
          ? { url: `api/business/members/${userId}`, method: 'DELETE' }
          : { url: `api/business/members/${userId}/${action}`, method: 'POST', body: {} },
      invalidatesTags: ['Team'],
    }),
    leaveTeam: build.mutation<{ ok: true }, { confirmation: string }>({
      query: (body) => ({ url: 'api/business/leave', method: 'POST', body }),
      invalidatesTags: [...all],
    }),
    closeBusiness: build.mutation<{ ok: true }, { confirmation: string }>({
      query: (body) => ({ url: 'api/business/close', method: 'POST', body }),
      invalidatesTags: [...all],
    }),
  }),
});

export const {
  useGetSubscriptionQuery,
  useGetFreeTrialQuery,
  useStartTrialMutation,
  useGetClientTokenQuery,
  useSubscribeMutation,
  useChangeSubscriptionMutation,
  useCancelSubscriptionMutation,
  useGetInvoicesQuery,
  useGetCollaborationUsageQuery,
  useGetBusinessDetailsQuery,
  useGetBusinessInfoQuery,
  useInviteMutation,
  useCancelInvitationMutation,
  useJoinTeamMutation,
  useMemberActionMutation,
  useLeaveTeamMutation,
  useCloseBusinessMutation,
} = billingApi;
