/** Conversion worker metrics, registered in the platform's registry (served on /metrics by the health server). */
import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { counter } from '@wb/platform';

export interface ConverterMetrics {
  /** purpose: doc | displayImage; outcome: ready | failed | error (unexpected, retried) */
  jobs: Counter<'purpose' | 'outcome'>;
  /** seconds per job by purpose and kind (document | image) */
  duration: Histogram<'purpose' | 'kind'>;
  /** pages drawn */
  pages: Counter;
  /** jobs sent back to the queue for a moment: their lane was full or their owner busy in it */
  sentBack: Counter<'lane'>;
}

function histogram<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: L[],
  buckets: number[],
): Histogram<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Histogram<L>;
  return new Histogram({ name, help, labelNames, buckets, registers: [registry] });
}

export function createConverterMetrics(registry: Registry): ConverterMetrics {
  const pages = registry.getSingleMetric('converter_pages_total') as Counter | undefined;
  return {
    jobs: counter(registry, 'converter_jobs_total', 'Conversion jobs by purpose and outcome', ['purpose', 'outcome']),
    duration: histogram(
      registry,
      'converter_job_seconds',
      'Conversion job duration',
      ['purpose', 'kind'],
      [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120],
    ),
    sentBack: counter(
      registry,
      'converter_jobs_sent_back_total',
      'Jobs sent back to the queue (lane full or owner busy)',
      ['lane'],
    ),
    pages: pages ?? new Counter({ name: 'converter_pages_total', help: 'Document pages drawn', registers: [registry] }),
  };
}
