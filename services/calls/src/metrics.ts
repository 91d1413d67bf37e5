/** Calls metrics, registered in the platform's registry (served on /metrics by the health server). */
import { Gauge } from 'prom-client';
import { counter } from '@wb/platform';
import type { Counter, Registry } from 'prom-client';

export interface CallsMetrics {
  /** operation: the NATS operation; outcome: ok or the error code */
  commands: Counter<'operation' | 'outcome'>;
  /** outcome: ok, or why a join was refused (no_access, board_not_found, plan, janus_unavailable, …) */
  joins: Counter<'outcome'>;
  /** call rooms of ours that exist in Janus (as of the last sweep) */
  rooms: Gauge;
  /** participants (publishers, active or not) in those rooms (as of the last sweep) */
  participants: Gauge;
  roomsDestroyed: Counter<never>;
  /** 1 while the service's link to Janus is up */
  janusUp: Gauge;
}

function gauge(registry: Registry, name: string, help: string): Gauge {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Gauge;
  return new Gauge({ name, help, registers: [registry] });
}

export function createCallsMetrics(registry: Registry): CallsMetrics {
  return {
    commands: counter(registry, 'calls_commands_total', 'Calls operations by outcome (ok or error code)', [
      'operation',
      'outcome',
    ]),
    joins: counter(registry, 'calls_joins_total', 'Call joins by outcome (ok or the refusal reason)', ['outcome']),
    rooms: gauge(registry, 'calls_rooms', 'Call rooms in Janus (last sweep)'),
    participants: gauge(registry, 'calls_participants', 'Participants in call rooms (last sweep)'),
    roomsDestroyed: counter(registry, 'calls_rooms_destroyed_total', 'Empty call rooms destroyed', []),
    janusUp: gauge(registry, 'calls_janus_up', '1 while the link to Janus is up'),
  };
}
