/**
 * Spec §7 analytics events of the files feature (e_file_upload, e_file_delete), pushed to the
 * data layer only when the visitor allowed analytics (stored consent, limited by Do Not Track).
 */
import { consentMode, loadConsent, readPrivacySignals } from '../consent/consent';

export type FilesEvent = 'e_file_upload' | 'e_file_delete';

export function analyticsAllowed(): boolean {
  try {
    const mode = consentMode(
      loadConsent(localStorage),
      readPrivacySignals(navigator, window as { doNotTrack?: string }),
    );
    return mode.analytics_storage === 'granted';
  } catch {
    return false; // no storage: no choice was made, so no consent
  }
}

export function trackFilesEvent(event: FilesEvent, data: Record<string, string | number> = {}): void {
  if (!analyticsAllowed()) return;
  const w = window as unknown as { dataLayer?: unknown[] };
  (w.dataLayer ??= []).push({ event, ...data });
}
