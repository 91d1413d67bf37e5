/** Plans, their prices, limits and feature sets: spec §3 (Plan), §6 (feature sets), §9 (table). */
import { z } from 'zod';

export const PLAN_NAMES = ['starter', 'standard', 'premium', 'ultimate'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const FEATURE_NAMES = [
  'folders',
  'fileUpload',
  'othersUpload',
  'call',
  'team',
  'guests',
  'courses',
  'tutorProfile',
  'powerTools',
  'prioritySupport',
  'advancedGraphs',
  'assignments',
  'collaborationControls',
] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];

const MB = 1024 * 1024;
const GB = 1024 * MB;

export const planFeaturesSchema = z.object(
  Object.fromEntries(FEATURE_NAMES.map((f) => [f, z.boolean()])) as Record<FeatureName, z.ZodBoolean>,
);
export const planSchema = z.object({
  name: z.enum(PLAN_NAMES),
  price: z.object({ monthly: z.number(), yearly: z.number() }),
  features: planFeaturesSchema,
  limits: z.object({
    maxBoards: z.number().int(),
    /** bytes */
    maxData: z.number().int(),
    maxPresets: z.number().int(),
    maxCollaborationMinutesPerWeek: z.number().int(),
  }),
});
export type Plan = z.infer<typeof planSchema>;
export type PlanFeatures = z.infer<typeof planFeaturesSchema>;

function features(on: readonly FeatureName[]): PlanFeatures {
  return Object.fromEntries(FEATURE_NAMES.map((f) => [f, on.includes(f)])) as PlanFeatures;
}
const STANDARD_FEATURES: FeatureName[] = [
  'fileUpload',
  'call',
  'team',
  'guests',
  'folders',
  'courses',
  'tutorProfile',
  'powerTools',
  'advancedGraphs',
  'assignments',
  'collaborationControls',
];
const PREMIUM_FEATURES: FeatureName[] = [...STANDARD_FEATURES, 'othersUpload'];
const ULTIMATE_FEATURES: FeatureName[] = [...PREMIUM_FEATURES, 'prioritySupport'];

export const PLANS: Record<PlanName, Plan> = {
  starter: {
    name: 'starter',
    price: { monthly: 0, yearly: 0 },
    features: features([]),
    limits: { maxBoards: 5, maxData: 50 * MB, maxPresets: 3, maxCollaborationMinutesPerWeek: 300 },
  },
  standard: {
    name: 'standard',
    price: { monthly: 10, yearly: 9 },
    features: features(STANDARD_FEATURES),
    limits: { maxBoards: 50, maxData: 1 * GB, maxPresets: 9, maxCollaborationMinutesPerWeek: 3000 },
  },
  premium: {
    name: 'premium',
    price: { monthly: 29, yearly: 25 },
    features: features(PREMIUM_FEATURES),
    limits: { maxBoards: 1000, maxData: 5 * GB, maxPresets: 9, maxCollaborationMinutesPerWeek: 6000 },
  },
  ultimate: {
    name: 'ultimate',
    price: { monthly: 179, yearly: 149 },
    features: features(ULTIMATE_FEATURES),
    limits: { maxBoards: 10000, maxData: 30 * GB, maxPresets: 9, maxCollaborationMinutesPerWeek: 6000 },
  },
};

/** The fallback the web client uses when the plan cannot be loaded (spec §3: all off, zero limits). */
export const FALLBACK_STARTER_PLAN: Plan = {
  name: 'starter',
  price: { monthly: 0, yearly: 0 },
  features: features([]),
  limits: { maxBoards: 0, maxData: 0, maxPresets: 3, maxCollaborationMinutesPerWeek: 0 },
};

/**
 * Where a user's plan can come from (issue 12): their own subscription (billing service) and a
 * licence in a team (teams service). Each is the plan name while it is active, else null.
 */
export interface PlanSources {
  subscription: PlanName | null;
  teamLicence: PlanName | null;
}

/**
 * THE rule for a user's effective plan, used by auth (which stores it and answers plan.get): their
 * own active subscription's plan, else their team's plan while they hold an active licence in that
 * team, else starter.
 */
export function effectivePlanName(sources: PlanSources): PlanName {
  return sources.subscription ?? sources.teamLicence ?? 'starter';
}
