/**
 * What the owner's plan allows (spec §5 board limit, §6 plan features). Plan limits answer
 * ERR_MAX_BOARDS_REACHED / ERR_FEATURE_NOT_ENABLED (403), so the web can offer an upgrade.
 */
import { AppError } from '@wb/proto';
import type { FeatureName, Plan } from '@wb/proto';

export function assertFeature(plan: Plan, feature: FeatureName, field?: string): void {
  if (!plan.features[feature]) {
    throw new AppError(
      'ERR_FEATURE_NOT_ENABLED',
      undefined,
      field ? { [field]: `needs the ${feature} feature (not on the ${plan.name} plan)` } : undefined,
    );
  }
}

/**
 * Spec §5: the limit is reached when non-trashed owned boards are at or above maxBoards; adding
 * `adding` boards (a create, a restore of several) may not take the count above it.
 */
export function assertWithinBoardLimit(plan: Plan, activeOwned: number, adding: number): void {
  if (adding > 0 && activeOwned + adding > plan.limits.maxBoards) {
    const available = Math.max(0, plan.limits.maxBoards - activeOwned);
    throw new AppError(
      'ERR_MAX_BOARDS_REACHED',
      `Your plan allows ${plan.limits.maxBoards} boards; ${available} more can be created or restored`,
    );
  }
}
