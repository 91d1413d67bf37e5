/**
 * svc.teams.owner.check, asked by auth before it terminates an account: spec §6 "The owner cannot
 * terminate their own account until the business is closed".
 */
import { findOpenBusinessOfOwner } from '../repositories/businesses';
import type { TeamsDeps } from './deps';

/** svc.teams.owner.check (auth, before terminating an account) */
export async function checkOwner(
  deps: TeamsDeps,
  input: { userId: number },
): Promise<{ owner: boolean; businessId: number | null }> {
  const business = await findOpenBusinessOfOwner(deps.pool, input.userId);
  return { owner: business !== null, businessId: business?.id ?? null };
}
