/** Which upgrade prompt a person sees (spec §2 "Upgrade prompt variants"). */
export type UpgradeVariant = 'teamOwner' | 'teamMember' | 'tryFree' | 'upgradeNow' | 'visitor';

export function upgradeVariant(input: {
  loggedIn: boolean;
  team: { isOwner: boolean } | null | undefined;
  canHaveFreeTrial: boolean;
}): UpgradeVariant {
  if (!input.loggedIn) return 'visitor';
  if (input.team) return input.team.isOwner ? 'teamOwner' : 'teamMember';
  return input.canHaveFreeTrial ? 'tryFree' : 'upgradeNow';
}

/** Header upgrade button: starter plan, onboarding finished, no trial-ended banner. */
export function showUpgradeButton(input: {
  loggedIn: boolean;
  planName: string;
  roleOnboarding: boolean;
  trialEndedBanner: boolean;
}): boolean {
  return input.loggedIn && input.planName === 'starter' && !input.roleOnboarding && !input.trialEndedBanner;
}
