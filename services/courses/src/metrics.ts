/** Courses metrics, registered in the platform's registry (served on /metrics by the health server). */
import { counter } from '@wb/platform';
import type { Counter, Registry } from 'prom-client';

export interface CoursesMetrics {
  /** operation: the NATS operation; outcome: ok or the error code */
  commands: Counter<'operation' | 'outcome'>;
  /** kind: invitation; outcome: sent, skipped, failed */
  mails: Counter<'kind' | 'outcome'>;
  /** outcome: made, failed */
  copies: Counter<'outcome'>;
  /** GET /api/courses answers: hit (from the list cache) or miss */
  listCache: Counter<'result'>;
}

export function createCoursesMetrics(registry: Registry): CoursesMetrics {
  return {
    commands: counter(registry, 'courses_commands_total', 'Courses operations by outcome (ok or error code)', [
      'operation',
      'outcome',
    ]),
    mails: counter(registry, 'courses_mails_total', 'Course mails by kind and outcome', ['kind', 'outcome']),
    copies: counter(registry, 'courses_board_copies_total', 'Participants’ board copies by outcome', ['outcome']),
    listCache: counter(registry, 'courses_list_cache_total', 'GET /api/courses answers by cache result', ['result']),
  };
}
