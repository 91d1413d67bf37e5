/** Stored settings (only what differs from the defaults) → the whole settings object. */
import { DEFAULT_SETTINGS, settingsSchema } from '@wb/proto';
import type { Settings } from '@wb/proto';

const FIELDS = settingsSchema.shape;

/**
 * Merge stored values over DEFAULT_SETTINGS field by field; a stored value that no longer passes
 * its field's schema (a default or rule changed since it was saved) falls back to the default
 * instead of failing the whole read.
 */
export function presentSettings(stored: Record<string, unknown> | null | undefined): Settings {
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const [key, value] of Object.entries(stored ?? {})) {
    if (!(key in FIELDS)) continue;
    const parsed = FIELDS[key as keyof typeof FIELDS].safeParse(value);
    if (parsed.success) out[key] = parsed.data;
  }
  if (out.role === undefined) delete out.role;
  return out as Settings;
}
