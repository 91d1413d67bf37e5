/** Boards test helpers; the browser itself is the platform's (`@wb/platform/testing`). */
import { givePlan } from '@wb/platform/testing';
import type { PlanStack } from '@wb/platform/testing';
import type { PlanName } from '@wb/proto';

export { Browser, eventually, signUp, sleep, uniqueEmail } from '@wb/platform/testing';
export type { Reply } from '@wb/platform/testing';

/** A subscription plan for a test user, through billing's plan source (starter: no subscription). */
export async function setPlan(stack: PlanStack, userId: number, plan: PlanName): Promise<void> {
  await givePlan(stack, userId, plan === 'starter' ? null : plan);
}
