/** Teams metrics, registered in the platform's registry (served on /metrics by the health server). */
import { counter } from '@wb/platform';
import type { Counter, Registry } from 'prom-client';

export interface TeamsMetrics {
  /** operation: the NATS operation; outcome: ok or the error code */
  commands: Counter<'operation' | 'outcome'>;
  /** teams.licence.changed.v1 written to the outbox, by what the licence gives now (plan or none) */
  licenceEvents: Counter<'plan'>;
  /** kind: invitation | member_joined; outcome: sent | skipped | failed */
  mails: Counter<'kind' | 'outcome'>;
}

export function createTeamsMetrics(registry: Registry): TeamsMetrics {
  return {
    commands: counter(registry, 'teams_commands_total', 'Teams operations by outcome (ok or error code)', [
      'operation',
      'outcome',
    ]),
    licenceEvents: counter(registry, 'teams_licence_events_total', 'Licence changes announced, by plan given', [
      'plan',
    ]),
    mails: counter(registry, 'teams_mails_total', 'Teams mails by kind and outcome', ['kind', 'outcome']),
  };
}
