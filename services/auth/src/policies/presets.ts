/**
 * Preset lists are capped by the plan's maxPresets (starter 3, paid plans 9). Exceeding the
 * plan's cap answers ERR_FEATURE_NOT_ENABLED (403, "not available on your plan"): the value is
 * valid, the plan is what limits it, and the web can offer an upgrade. Beyond the absolute
 * maximum (9) the schema already answers ERR_INVALID_INPUT.
 */
import { AppError } from '@wb/proto';
import type { Plan, SettingsPatch } from '@wb/proto';

export function assertPresetsWithinPlan(patch: SettingsPatch, plan: Plan): void {
  const max = plan.limits.maxPresets;
  const fields: Record<string, string> = {};
  if (patch.penPresets && patch.penPresets.length > max) fields.penPresets = `at most ${max} on the ${plan.name} plan`;
  if (patch.stylePresets && patch.stylePresets.length > max)
    fields.stylePresets = `at most ${max} on the ${plan.name} plan`;
  if (Object.keys(fields).length > 0) {
    throw new AppError('ERR_FEATURE_NOT_ENABLED', `Your plan allows at most ${max} presets`, fields);
  }
}
