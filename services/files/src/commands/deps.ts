/** What commands need, built once in main.ts (and by tests with a fake clock or plans). */
import type { Logger, ObjectStore, PlanSource, Pool } from '@wb/platform';
import type { AccessCheckReply, FilesConvertJob, FileFormat } from '@wb/proto';
import type { FilesEnv } from '../env';
import type { FilesMetrics } from '../metrics';

export const SCHEMA = 'files';

/** What the boards service answers about the caller and a board (access.check with the caller as actor). */
export interface BoardAccessSource {
  accessOf(boardId: string, userId: number): Promise<AccessCheckReply>;
}

/** The format sniffed from an upload's first bytes (proto's sniffHead), null when not accepted. */
export type Sniffer = (head: Uint8Array, name: string) => { format: FileFormat; isImage: boolean; mime: string } | null;

/** The conversion worker's queue (BullMQ in main.ts). */
export interface ConversionQueue {
  /** start converting a stored original (one job per document however often it is asked) */
  enqueue(job: FilesConvertJob): Promise<void>;
  /** make a profile picture and wait for it; rejects with the worker's reason or on timeout */
  runDisplayImage(job: FilesConvertJob, timeoutMs: number): Promise<void>;
}

export interface FilesDeps {
  pool: Pool;
  env: Pick<FilesEnv, 'MAX_FILE_BYTES' | 'TOMBSTONE_TTL_MS' | 'DISPLAY_IMAGE_WAIT_MS' | 'FILES_IMAGE_ID_SECRET'>;
  log: Logger;
  plans: PlanSource;
  boards: BoardAccessSource;
  store: ObjectStore;
  converter: ConversionQueue;
  sniff: Sniffer;
  metrics: FilesMetrics;
  now(): Date;
}
