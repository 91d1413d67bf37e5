/** Spec §4: the verification mail can be sent again only after 5 minutes; the time is kept locally. */
import { VERIFICATION_RESEND_WAIT_MS } from '@wb/proto';
import type { KeyValueStore } from '../../app/chunkReload';

const KEY = 'wb.verificationSentAt';

export function verificationSentRecently(storage: KeyValueStore, now: number): boolean {
  const at = Number(storage.getItem(KEY) ?? 0);
  return Number.isFinite(at) && at > 0 && now - at < VERIFICATION_RESEND_WAIT_MS;
}

export function rememberVerificationSent(storage: KeyValueStore, now: number): void {
  storage.setItem(KEY, String(now));
}
