/// <reference types="jest" />
import { acceptAll, acceptSome, consentMode, loadConsent, readPrivacySignals, rejectAll, saveConsent } from './consent';

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}
const none = { doNotTrack: false, globalPrivacyControl: false };

describe('consent', () => {
  test('undecided: nothing stored, everything optional denied, tags wait 500 ms for an update', () => {
    const s = memory();
    expect(loadConsent(s)).toBeUndefined();
    const mode = consentMode(undefined, none);
    expect(mode).toMatchObject({
      ad_storage: 'denied',
      analytics_storage: 'denied',
      security_storage: 'granted',
      wait_for_update: 500,
    });
  });
  test('each choice is stored and read back; necessary is always on', () => {
    const s = memory();
    saveConsent(s, acceptSome({ analytics: true, necessary: false }));
    expect(loadConsent(s)).toEqual({ necessary: true, preferences: false, analytics: true, marketing: false });
    saveConsent(s, rejectAll());
    expect(loadConsent(s)).toEqual({ necessary: true, preferences: false, analytics: false, marketing: false });
    saveConsent(s, acceptAll());
    expect(loadConsent(s)).toEqual({ necessary: true, preferences: true, analytics: true, marketing: true });
  });
  test('accept all grants everything without privacy signals', () => {
    const mode = consentMode(acceptAll(), none);
    expect(mode).toMatchObject({ ad_storage: 'granted', ad_personalization: 'granted', analytics_storage: 'granted' });
    expect(mode.wait_for_update).toBeUndefined();
  });
  test('Do Not Track denies marketing and analytics storage even after accept all', () => {
    const mode = consentMode(acceptAll(), { doNotTrack: true, globalPrivacyControl: false });
    expect(mode).toMatchObject({
      ad_storage: 'denied',
      analytics_storage: 'denied',
      personalization_storage: 'granted',
    });
  });
  test('Global Privacy Control denies ad personalisation only', () => {
    const mode = consentMode(acceptAll(), { doNotTrack: false, globalPrivacyControl: true });
    expect(mode).toMatchObject({ ad_storage: 'granted', ad_personalization: 'denied', analytics_storage: 'granted' });
  });
  test('signals are read from the browser', () => {
    expect(readPrivacySignals({ doNotTrack: '1', globalPrivacyControl: true } as unknown as Navigator)).toEqual({
      doNotTrack: true,
      globalPrivacyControl: true,
    });
    expect(readPrivacySignals({ doNotTrack: null } as unknown as Navigator, { doNotTrack: '1' })).toEqual({
      doNotTrack: true,
      globalPrivacyControl: false,
    });
    expect(readPrivacySignals({ doNotTrack: 'unspecified' } as unknown as Navigator)).toEqual(none);
  });
  test('a broken stored value counts as undecided', () => {
    const s = memory();
    s.setItem('wb.consent', '{nope');
    expect(loadConsent(s)).toBeUndefined();
  });
});
