/**
 * The billing facts other parts of the app need: whether the trial-ended banner shows (proto
 * `showTrialEndedBanner`, spec §4), whether the header shows its upgrade button, and which upgrade
 * prompt variant a locked feature shows (spec §2).
 */
import { useLocation } from 'react-router-dom';
import { showTrialEndedBanner } from '@wb/proto';
import { useGetConfigQuery, useGetPlanQuery } from '../session/sessionApi';
import { useSession } from '../session/useSession';
import { showUpgradeButton, upgradeVariant, type UpgradeVariant } from '../../ui/upgradePrompt';
import { useGetBusinessInfoQuery, useGetFreeTrialQuery, useGetSubscriptionQuery } from './billingApi';

/** An expired trial is on the starter plan again: only then is the subscription worth asking for. */
export function useTrialEndedBanner(): boolean {
  const { user, settings } = useSession();
  const location = useLocation();
  const planQuery = useGetPlanQuery(undefined, { skip: !user });
  const ask = !!user && planQuery.data?.name === 'starter' && !settings.roleOnboarding;
  const sub = useGetSubscriptionQuery(undefined, { skip: !ask });
  const config = useGetConfigQuery(undefined, { skip: !ask });
  if (!ask || !sub.data) return false;
  return showTrialEndedBanner(sub.data, {
    country: config.data?.country ?? null,
    page: location.pathname,
    now: new Date(),
  });
}

/** Only once the plan is known: a paid user must not see the button flash while it loads. */
export function useShowUpgradeButton(): boolean {
  const { user, plan, settings } = useSession();
  const planQuery = useGetPlanQuery(undefined, { skip: !user });
  const banner = useTrialEndedBanner();
  return showUpgradeButton({
    loggedIn: !!user && planQuery.data !== undefined,
    planName: plan.name,
    roleOnboarding: settings.roleOnboarding,
    trialEndedBanner: banner,
  });
}

/** The user's team as the menus and prompts need it (null: in no team). */
export function useTeam(): { isOwner: boolean } | null {
  const { user } = useSession();
  const info = useGetBusinessInfoQuery(undefined, { skip: !user });
  return info.data ? { isOwner: info.data.role === 'owner' } : null;
}

/**
 * The person's upgrade prompt variant, or null while it is not known yet (the session, the team
 * or the trial still loading): a signed-in person must not see "sign up" or "upgrade now" flash
 * before "try it for free". A failed trial question counts as no trial.
 */
export function useUpgradeVariant(): UpgradeVariant | null {
  const { session, user } = useSession();
  const info = useGetBusinessInfoQuery(undefined, { skip: !user });
  const team = info.data ? { isOwner: info.data.role === 'owner' } : null;
  const trial = useGetFreeTrialQuery(undefined, { skip: !user || !!team });
  if (session.status === 'loading') return null;
  if (user && (info.isLoading || (!team && trial.isLoading))) return null;
  return upgradeVariant({ loggedIn: !!user, team, canHaveFreeTrial: trial.data?.canHaveFreeTrial === true });
}
