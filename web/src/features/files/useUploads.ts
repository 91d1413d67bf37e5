/**
 * The files page's upload cards (spec §3 Upload entry, §4 Upload states): uploading with %,
 * processing with pages done of total, done; a failure shows its message and the card goes after
 * 5 s. A few files upload at once, the rest wait their turn.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { DocumentDto } from '@wb/proto';
import { useAppDispatch } from '../../app/store';
import { invalidateDocs } from './filesApi';
import { UPLOAD_DONE_REMOVAL_MS, UPLOAD_FAILURE_REMOVAL_MS } from './filesLogic';
import { trackFilesEvent } from './analytics';
import { UploadError, uploadFile, type UploadProgress } from './upload/uploadFile';

export type UploadStatus = 'queued' | 'hashing' | 'uploading' | 'processing' | 'done' | 'failed';
export interface UploadEntry {
  key: string;
  name: string;
  status: UploadStatus;
  /** 0..1 within the status */
  progress: number;
  pagesDone?: number;
  pages?: number;
  /** processing, but the converter is retrying after a passing fault */
  retrying?: boolean;
  /** the readable reason when failed */
  error?: string;
  docId?: string;
}

/** parallel uploads: enough to keep the line busy, few enough that hashing does not starve the page */
const CONCURRENT_UPLOADS = 3;
/** codes that open the upgrade prompt rather than a failed card (spec §8) */
const UPGRADE_CODES = new Set(['ERR_UPLOAD_NOT_ENABLED']);

let seq = 0;

export function useUploads(opts: {
  boardId?: string;
  onUpgrade: (code: string) => void;
  /** the person's language for a refusal's code (errors.*), else the server's message */
  translate?: (code: string) => string | undefined;
}) {
  const dispatch = useAppDispatch();
  const [entries, setEntries] = useState<UploadEntry[]>([]);
  const queue = useRef<{ key: string; file: File }[]>([]);
  const running = useRef(new Map<string, AbortController>());
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const optsRef = useRef(opts);
  useLayoutEffect(() => {
    optsRef.current = opts;
  });

  const patch = useCallback((key: string, change: Partial<UploadEntry>) => {
    setEntries((list) => list.map((e) => (e.key === key ? { ...e, ...change } : e)));
  }, []);
  const removeLater = useCallback((key: string, ms: number) => {
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setEntries((list) => list.filter((e) => e.key !== key));
    }, ms);
    timers.current.add(timer);
  }, []);

  // named: it calls itself as each upload ends
  const pump = useCallback(
    function pump() {
      while (running.current.size < CONCURRENT_UPLOADS && queue.current.length > 0) {
        const { key, file } = queue.current.shift()!;
        const ctl = new AbortController();
        running.current.set(key, ctl);
        const onProgress = (u: UploadProgress) =>
          patch(key, {
            status: u.phase,
            progress: u.progress,
            pagesDone: u.pagesDone,
            pages: u.pages,
            retrying: u.retrying,
          });
        uploadFile(file, { boardId: optsRef.current.boardId, signal: ctl.signal, onProgress })
          .then((doc: DocumentDto) => {
            patch(key, { status: 'done', progress: 1, docId: doc.id, pagesDone: doc.pages, pages: doc.pages });
            trackFilesEvent('e_file_upload', { format: doc.format });
            dispatch(invalidateDocs());
            removeLater(key, UPLOAD_DONE_REMOVAL_MS);
          })
          .catch((err: unknown) => {
            if (err instanceof Error && err.name === 'AbortError') return;
            if (err instanceof UploadError && UPGRADE_CODES.has(err.code)) {
              setEntries((list) => list.filter((e) => e.key !== key));
              optsRef.current.onUpgrade(err.code);
              return;
            }
            const text =
              err instanceof UploadError
                ? (optsRef.current.translate?.(err.code) ?? err.message)
                : err instanceof Error
                  ? err.message
                  : String(err);
            patch(key, { status: 'failed', error: text });
            removeLater(key, UPLOAD_FAILURE_REMOVAL_MS);
          })
          .finally(() => {
            running.current.delete(key);
            pump();
          });
      }
    },
    [dispatch, patch, removeLater],
  );

  const start = useCallback(
    (files: Iterable<File>) => {
      const added: UploadEntry[] = [];
      for (const file of files) {
        const key = `u${++seq}`;
        queue.current.push({ key, file });
        added.push({ key, name: file.name, status: 'queued', progress: 0 });
      }
      if (added.length === 0) return;
      setEntries((list) => [...list, ...added]);
      pump();
    },
    [pump],
  );

  const cancel = useCallback((key: string) => {
    running.current.get(key)?.abort();
    queue.current = queue.current.filter((q) => q.key !== key);
    setEntries((list) => list.filter((e) => e.key !== key));
  }, []);

  // leaving the page cancels what is still going and forgets the pending removals
  useEffect(() => {
    const run = running.current;
    const pending = timers.current;
    return () => {
      queue.current = [];
      for (const ctl of run.values()) ctl.abort();
      for (const timer of pending) clearTimeout(timer);
    };
  }, []);

  return { entries, start, cancel };
}
