import { join, resolve } from 'node:path';

/** Repository root (this file is scripts/lib/paths.ts). */
export const ROOT = resolve(__dirname, '..', '..');
/** Local state of `make up` / `make test`: databases, NATS store, mails. Ignored by git. */
export const DATA_DIR = join(ROOT, '.data');
export const MAIL_DIR = join(DATA_DIR, 'mail');
export const ARTIFACTS_DIR = join(ROOT, 'artifacts');
