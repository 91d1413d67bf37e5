/** Auth metrics, registered in the platform's registry (served on /metrics by the health server). */
import { counter } from '@wb/platform';
import type { Counter, Registry } from 'prom-client';

export interface AuthMetrics {
  /** outcome: ok or the error code */
  signups: Counter<'outcome'>;
  /** outcome: ok, failed (wrong email or password) */
  logins: Counter<'outcome'>;
  /** kind: mail job kind; outcome: sent, skipped, failed */
  mails: Counter<'kind' | 'outcome'>;
  /** reason: logout, login, password_change, recovery, email_revert, terminate */
  revokedSessions: Counter<'reason'>;
}

export function createAuthMetrics(registry: Registry): AuthMetrics {
  return {
    signups: counter(registry, 'auth_signups_total', 'Signup attempts by outcome (ok or error code)', ['outcome']),
    logins: counter(registry, 'auth_logins_total', 'Login attempts by outcome', ['outcome']),
    mails: counter(registry, 'auth_mails_total', 'Mail jobs by kind and outcome', ['kind', 'outcome']),
    revokedSessions: counter(registry, 'auth_sessions_revoked_total', 'Sessions revoked, by reason', ['reason']),
  };
}
