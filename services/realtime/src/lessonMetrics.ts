/** Lesson metrics on the health server's /metrics (SPEC LS*). */
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import type { LessonMetrics } from './room/lesson';

export function createLessonMetrics(registry: Registry): LessonMetrics {
  const events = new Counter({
    name: 'realtime_lesson_events_total',
    help: 'Timer and presentation changes, and lesson frames refused (by error code)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return { event: (outcome) => events.inc({ outcome }) };
}
