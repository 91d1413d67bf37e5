/**
 * Cookie consent (spec §2, §4, §5): undecided shows the banner; a choice hides it and is stored.
 * The necessary category is always on. Do Not Track denies analytics and marketing storage,
 * Global Privacy Control denies ad personalisation, whatever was chosen.
 */
import type { KeyValueStore } from '../../app/chunkReload';

export const CONSENT_BANNER_DELAY_MS = 1000;
export const CONSENT_WAIT_FOR_UPDATE_MS = 500;
const KEY = 'wb.consent';

export const CONSENT_CATEGORIES = ['necessary', 'preferences', 'analytics', 'marketing'] as const;
export type ConsentCategory = (typeof CONSENT_CATEGORIES)[number];
export type ConsentChoice = Record<ConsentCategory, boolean>;

export interface PrivacySignals {
  doNotTrack: boolean;
  globalPrivacyControl: boolean;
}

/** Google consent-mode style states handed to the analytics data layer. */
export interface ConsentMode {
  ad_storage: 'granted' | 'denied';
  ad_user_data: 'granted' | 'denied';
  ad_personalization: 'granted' | 'denied';
  analytics_storage: 'granted' | 'denied';
  functionality_storage: 'granted';
  personalization_storage: 'granted' | 'denied';
  security_storage: 'granted';
  wait_for_update?: number;
}

export function rejectAll(): ConsentChoice {
  return { necessary: true, preferences: false, analytics: false, marketing: false };
}
export function acceptAll(): ConsentChoice {
  return { necessary: true, preferences: true, analytics: true, marketing: true };
}
/** "Accept some": what the visitor ticked; necessary cannot be switched off. */
export function acceptSome(selected: Partial<ConsentChoice>): ConsentChoice {
  return { ...rejectAll(), ...selected, necessary: true };
}

export function loadConsent(storage: KeyValueStore): ConsentChoice | undefined {
  const raw = storage.getItem(KEY);
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<ConsentChoice>;
    return acceptSome({
      preferences: parsed.preferences === true,
      analytics: parsed.analytics === true,
      marketing: parsed.marketing === true,
    });
  } catch {
    return undefined;
  }
}

export function saveConsent(storage: KeyValueStore, choice: ConsentChoice): void {
  storage.setItem(KEY, JSON.stringify(acceptSome(choice)));
}

/** The effective states: a stored choice (or nothing) limited by the browser's privacy signals. */
export function consentMode(choice: ConsentChoice | undefined, signals: PrivacySignals): ConsentMode {
  const c = choice ?? rejectAll();
  const g = (on: boolean): 'granted' | 'denied' => (on ? 'granted' : 'denied');
  const marketing = c.marketing && !signals.doNotTrack;
  const mode: ConsentMode = {
    ad_storage: g(marketing),
    ad_user_data: g(marketing),
    ad_personalization: g(marketing && !signals.globalPrivacyControl),
    analytics_storage: g(c.analytics && !signals.doNotTrack),
    functionality_storage: 'granted',
    personalization_storage: g(c.preferences),
    security_storage: 'granted',
  };
  // the default (before any choice) lets tags wait briefly for the stored choice
  if (!choice) mode.wait_for_update = CONSENT_WAIT_FOR_UPDATE_MS;
  return mode;
}

export function readPrivacySignals(
  nav: Navigator & { globalPrivacyControl?: boolean },
  win?: { doNotTrack?: string },
): PrivacySignals {
  const dnt = nav.doNotTrack ?? win?.doNotTrack;
  return { doNotTrack: dnt === '1' || dnt === 'yes', globalPrivacyControl: nav.globalPrivacyControl === true };
}

type DataLayerWindow = Window & { dataLayer?: unknown[] };

/** Pushes a consent command to the analytics data layer (consumed by tags when any are added). */
export function pushConsent(win: Window, command: 'default' | 'update', mode: ConsentMode): void {
  const w = win as DataLayerWindow;
  w.dataLayer = w.dataLayer ?? [];
  w.dataLayer.push(['consent', command, mode]);
}
