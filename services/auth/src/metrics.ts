/** Auth metrics, registered in the platform's registry (served on /metrics by the health server). */
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';

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

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
): Counter<L> {
  // one metric per registry even if a test builds the service twice in one process
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

export function createAuthMetrics(registry: Registry): AuthMetrics {
  return {
    signups: counter(registry, 'auth_signups_total', 'Signup attempts by outcome (ok or error code)', ['outcome']),
    logins: counter(registry, 'auth_logins_total', 'Login attempts by outcome', ['outcome']),
    mails: counter(registry, 'auth_mails_total', 'Mail jobs by kind and outcome', ['kind', 'outcome']),
    revokedSessions: counter(registry, 'auth_sessions_revoked_total', 'Sessions revoked, by reason', ['reason']),
  };
}
