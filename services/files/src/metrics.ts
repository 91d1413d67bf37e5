/** Files metrics, registered in the platform's registry (served on /metrics by the health server). */
import { counter } from '@wb/platform';
import type { Counter, Registry } from 'prom-client';

export interface FilesMetrics {
  /** operation: the NATS operation; outcome: ok or the error code */
  commands: Counter<'operation' | 'outcome'>;
  /** purpose: doc | displayImage; outcome: stored (new bytes), deduped (bytes already held), or the error code */
  uploads: Counter<'purpose' | 'outcome'>;
  /** via: upload (the bytes came again) | add (POST /api/docs/add, no second upload) */
  dedupeHits: Counter<'via'>;
  /** bytes of new originals moved into storage */
  bytesStored: Counter<never>;
  /** bytes of originals deleted (nobody held them any more, or their conversion failed) */
  bytesDeleted: Counter<never>;
  /** status: ready | failed (final conversion reports) */
  conversions: Counter<'status'>;
  /** proof of possession (issue 25 §4): issued | proven | wrong | missing | unknown (spent, expired, another's) | unreadable */
  possession: Counter<'outcome'>;
  /** stored objects no record points at, removed by the orphan sweep (prefix: staging | originals | images) */
  orphansSwept: Counter<'prefix'>;
}

export function createFilesMetrics(registry: Registry): FilesMetrics {
  return {
    commands: counter(registry, 'files_commands_total', 'Files operations by outcome (ok or error code)', [
      'operation',
      'outcome',
    ]),
    uploads: counter(registry, 'files_uploads_total', 'Uploads registered, by purpose and outcome', [
      'purpose',
      'outcome',
    ]),
    dedupeHits: counter(registry, 'files_dedupe_hits_total', 'Registrations of bytes already stored', ['via']),
    bytesStored: counter(registry, 'files_bytes_stored_total', 'Bytes of new originals stored', []),
    bytesDeleted: counter(registry, 'files_bytes_deleted_total', 'Bytes of originals deleted', []),
    conversions: counter(registry, 'files_conversions_total', 'Finished conversions by final status', ['status']),
    possession: counter(registry, 'files_possession_total', 'Possession challenges issued and answers by outcome', [
      'outcome',
    ]),
    orphansSwept: counter(registry, 'files_orphans_swept_total', 'Stored objects with no record, removed', ['prefix']),
  };
}
