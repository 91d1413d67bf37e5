/**
 * POST /docs and POST /display-image: a multipart upload streamed into object storage while it is
 * hashed (spec §7; issue 15: never the whole file in memory, never bytes on NATS).
 *
 *   session (a guest is refused before the body is read) → CSRF → multipart? → files `upload.check`
 *   (quota/plan/board rules, answered before the body is read) → busboy: one part named "file" →
 *   Transform (SHA-256 + byte count, aborts past maxBytes) → store.putStream('staging/<hex>') →
 *   files `upload.register` / `displayImage.register` about the stored object → 200 with its answer.
 *
 * Any failure answers the catalogue error body and deletes the staged object, a client that
 * disconnects mid-upload included. A refusal sent before the body is read is answered first and
 * the rest of the body is then read and dropped for at most DRAIN_MS / DRAIN_MAX_BYTES before the
 * connection is cut (issue 25 §5: closing at once, as `Connection: close` makes Node do, resets a
 * client still sending, and Node clients lost the answer for 9 of 30 refused 4 MB uploads).
 * The file name (part header) is checked before any of the file is read.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import busboy from 'busboy';
import { trace } from '@opentelemetry/api';
import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { AppError, boardIdSchema, cutFileName, filesOperations, findInputProblem } from '@wb/proto';
import type { ErrorBody } from '@wb/proto';
import type { Logger, ObjectStore } from '@wb/platform';
import type { GatewayConfig } from '../config';
import { actorOf } from './actor';
import type { SessionBinder } from './session';
import { getState } from './state';
import type { GatewayBus } from './state';

export type UploadPurpose = 'doc' | 'displayImage';

export interface UploadDeps {
  config: GatewayConfig;
  bus: GatewayBus;
  binder: SessionBinder;
  store: ObjectStore;
  log: Logger;
  registry: Registry;
  /** bus timeout of the register call (display-image waits for its conversion); default 30 s */
  registerTimeoutMs?: number;
}

/** Multipart limits: one file, a few small fields, bounded part headers (busboy's defaults are unbounded). */
const LIMITS = { files: 1, fields: 10, parts: 12, fieldSize: 1024, fieldNameSize: 100, headerPairs: 20 };
const CHECK_TIMEOUT_MS = 5000;
const REGISTER_TIMEOUT_MS = 30_000;
/** after refusing an upload mid-body: how long, and how many more bytes, are read and dropped */
export const DRAIN_MS = 2000;
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

interface UploadMetrics {
  bytes: Counter<'purpose' | 'outcome'>;
  uploads: Counter<'purpose' | 'outcome'>;
  seconds: Histogram<'purpose'>;
}

function metricsIn(registry: Registry): UploadMetrics {
  // createApp may run more than once per registry (tests): reuse registered metrics.
  const get = <T>(name: string, make: () => T): T => (registry.getSingleMetric(name) as T | undefined) ?? make();
  return {
    bytes: get(
      'gateway_upload_bytes_total',
      () =>
        new Counter({
          name: 'gateway_upload_bytes_total',
          help: 'Bytes received by uploads, by purpose and outcome',
          labelNames: ['purpose', 'outcome'],
          registers: [registry],
        }),
    ),
    uploads: get(
      'gateway_uploads_total',
      () =>
        new Counter({
          name: 'gateway_uploads_total',
          help: 'Uploads by purpose and outcome (ok or the error code)',
          labelNames: ['purpose', 'outcome'],
          registers: [registry],
        }),
    ),
    seconds: get(
      'gateway_upload_duration_seconds',
      () =>
        new Histogram({
          name: 'gateway_upload_duration_seconds',
          help: 'Time from the first byte of an upload to its answer',
          labelNames: ['purpose'],
          buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
          registers: [registry],
        }),
    ),
  };
}

/** An upload went past the bytes upload.check allowed. */
class OverLimit extends AppError {
  constructor(readonly bytes: number) {
    super('ERR_FILE_TOO_LARGE');
  }
}

/** Counts and hashes what passes through; fails with OverLimit past `maxBytes`. */
class MeasuringStream extends Transform {
  readonly hash: Hash = createHash('sha256');
  bytes = 0;
  constructor(
    private readonly maxBytes: number,
    private readonly progress: (bytes: number) => void,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    this.progress(this.bytes);
    if (this.bytes > this.maxBytes) return done(new OverLimit(this.bytes));
    this.hash.update(chunk);
    done(null, chunk);
  }
}

/**
 * the client's filename as a library name: control characters dropped, trimmed, cut to 255 UTF-16
 * units at a code-point boundary (never half a surrogate pair), 'file' when empty
 */
export function uploadName(raw: string | undefined): string {
  const name = cutFileName(
    (raw ?? '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .trim(),
  ).trim();
  return name || 'file';
}

function contentLength(req: Request): number {
  const n = Number(req.headers['content-length']);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

function toBody(err: unknown): ErrorBody {
  if (err instanceof AppError) return err.toBody();
  return new AppError('ERR_UPLOAD_FAILED').toBody();
}

/**
 * After the answer to a request whose body was not (fully) read: read the rest and drop it, so a
 * client still sending is not reset before it reads the answer; a body that goes on past
 * DRAIN_MS or DRAIN_MAX_BYTES has the connection cut. A body that ends in time leaves the
 * connection usable (keep-alive).
 */
function drainAfterAnswer(req: Request, res: Response): void {
  const socket = req.socket;
  const start = socket.bytesRead;
  res.once('finish', () => {
    if (req.complete || socket.destroyed) return;
    const stop = (): void => {
      clearTimeout(timer);
      clearInterval(poll);
      req.off('end', stop);
      socket.off('close', stop);
    };
    const cut = (): void => {
      stop();
      socket.destroy();
    };
    const timer = setTimeout(cut, DRAIN_MS).unref();
    const poll = setInterval(() => {
      if (socket.bytesRead - start > DRAIN_MAX_BYTES) cut();
    }, 50).unref();
    req.once('end', stop);
    socket.once('close', stop);
    req.resume();
  });
}

/** Answer an error; a body not (fully) read is drained for a bounded time after the answer. */
function refuse(req: Request, res: Response, body: ErrorBody): void {
  if (res.headersSent || res.destroyed) return;
  if (!req.complete) drainAfterAnswer(req, res);
  res.statusCode = body.statusCode;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

export function uploadHandler(purpose: UploadPurpose, deps: UploadDeps): RequestHandler {
  const metrics = metricsIn(deps.registry);
  const trustProxy = deps.config.trustProxy !== false;
  const operation = purpose === 'doc' ? 'upload.register' : 'displayImage.register';
  const label = purpose === 'doc' ? '/docs' : '/display-image';
  const log = deps.log.child({ component: 'upload', purpose });

  return async (req, res) => {
    const st = getState(req);
    st.routeLabel = label;
    const started = process.hrtime.bigint();
    const span = st.traceContext ? trace.getSpan(st.traceContext) : undefined;
    span?.setAttribute('upload.purpose', purpose);
    let stagingKey: string | undefined;
    let received = 0;
    const done = (outcome: string): void => {
      metrics.uploads.inc({ purpose, outcome });
      metrics.bytes.inc({ purpose, outcome }, received);
      metrics.seconds.observe({ purpose }, Number(process.hrtime.bigint() - started) / 1e9);
    };

    try {
      if (st.sessionError) throw st.sessionError;
      if (!st.session) throw new AppError('ERR_UPLOAD_GUEST');
      deps.binder.verifyCsrf(req);
      if (!req.is('multipart/form-data'))
        throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Uploads must be sent as multipart/form-data');
      let boardId: string | undefined;
      if (purpose === 'doc' && req.query.boardId !== undefined) {
        const parsed = boardIdSchema.safeParse(req.query.boardId);
        if (!parsed.success)
          throw new AppError('ERR_INVALID_INPUT', 'Invalid input: boardId (not a board id)', {
            boardId: 'not a board id',
          });
        boardId = parsed.data;
      }
      const actor = actorOf(req, st, trustProxy);
      const size = contentLength(req);
      const check = await deps.bus.request(
        'files',
        'upload.check',
        { purpose, size, ...(boardId ? { boardId } : {}) },
        actor,
        { timeoutMs: CHECK_TIMEOUT_MS, parent: st.traceContext },
      );
      const { maxBytes } = filesOperations['upload.check'].output.parse(check.data);
      stagingKey = `staging/${randomBytes(16).toString('hex')}`;
      const stored = await receive(req, res, deps.store, stagingKey, maxBytes, (n) => (received = n)).catch(
        async (err: unknown) => {
          if (!(err instanceof OverLimit)) throw err;
          // past maxBytes: whether that is the largest file or the quota left is the service's
          // to say (ERR_FILE_TOO_LARGE or ERR_MAX_STORAGE_REACHED, with its readable message)
          const again = { purpose, size: err.bytes, ...(boardId ? { boardId } : {}) };
          await deps.bus.request('files', 'upload.check', again, actor, {
            timeoutMs: CHECK_TIMEOUT_MS,
            parent: st.traceContext,
          });
          throw err;
        },
      );
      span?.setAttributes({
        'upload.bytes': stored.size,
        'upload.sha256': stored.sha256.slice(0, 12),
        'upload.receive_ms': Number(process.hrtime.bigint() - started) / 1e6,
      });
      const registered = await deps.bus.request(
        'files',
        operation,
        {
          purpose,
          stagingKey,
          sha256: stored.sha256,
          size: stored.size,
          name: stored.name,
          ...(boardId ? { boardId } : {}),
        },
        actor,
        { timeoutMs: deps.registerTimeoutMs ?? REGISTER_TIMEOUT_MS, parent: st.traceContext },
      );
      // the files service owns the staged object from here (moved or deleted by it)
      stagingKey = undefined;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      span?.setAttribute('upload.duration_ms', ms);
      log.info(
        { userId: st.session.userId, bytes: stored.size, sha256: stored.sha256.slice(0, 12), ms: Math.round(ms) },
        'upload stored',
      );
      done('ok');
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(registered.data ?? null));
    } catch (err) {
      const body = toBody(err);
      done(body.code);
      if (!(err instanceof AppError)) log.warn({ err, trace_id: st.traceId }, 'upload failed');
      else if (body.statusCode >= 500) log.warn({ code: body.code, trace_id: st.traceId }, 'upload failed');
      else log.info({ code: body.code, bytes: received }, 'upload refused');
      if (stagingKey) {
        const key = stagingKey;
        await deps.store.delete([key]).catch((e: unknown) => log.warn({ err: e, key }, 'staged upload not deleted'));
      }
      refuse(req, res, body);
    }
  };
}

interface Stored {
  sha256: string;
  size: number;
  name: string;
}

/**
 * Parse the multipart body and stream its one file part into `key`. Resolves once the body is
 * fully read and the object is stored; rejects (the object not stored, or deleted by the caller)
 * on a malformed body, a second file, a missing file, an oversize file or a client gone.
 */
function receive(
  req: Request,
  res: Response,
  store: ObjectStore,
  key: string,
  maxBytes: number,
  progress: (bytes: number) => void,
): Promise<Stored> {
  return new Promise<Stored>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      // browsers send the filename as raw UTF-8 (busboy would read it as latin1)
      bb = busboy({ headers: req.headers, limits: LIMITS, defParamCharset: 'utf8' });
    } catch {
      // busboy throws on a multipart Content-Type without a boundary
      reject(new AppError('ERR_INVALID_INPUT', 'The multipart body has no boundary'));
      return;
    }
    let settled = false;
    let measuring: MeasuringStream | undefined;
    let putting: Promise<unknown> | undefined;
    let name = 'file';
    let parsed = false;

    const fail = (err: AppError): void => {
      if (settled) return;
      settled = true;
      cleanup();
      measuring?.destroy(err);
      req.unpipe(bb);
      bb.removeAllListeners();
      bb.on('error', () => {});
      req.resume(); // never block the socket; the answer closes the connection anyway
      // wait for the store to give up the object before the caller deletes it
      void (putting ?? Promise.resolve()).catch(() => {}).then(() => reject(err));
    };
    const finish = (): void => {
      if (settled || !parsed || !putting || !measuring) return;
      const m = measuring;
      putting.then(
        () => {
          if (settled) return;
          settled = true;
          cleanup();
          resolve({ sha256: m.hash.digest('hex'), size: m.bytes, name });
        },
        (err: unknown) => fail(err instanceof AppError ? err : new AppError('ERR_UPLOAD_FAILED')),
      );
    };
    // the client went away before the body was read: abort (the staged object is deleted)
    const onClose = (): void => {
      if (!res.writableFinished) fail(new AppError('ERR_UPLOAD_FAILED', 'The upload was interrupted'));
    };
    const cleanup = (): void => {
      res.off('close', onClose);
    };
    res.on('close', onClose);

    bb.on('file', (field, file, info) => {
      if (field !== 'file' || measuring) {
        file.resume();
        return fail(new AppError('ERR_INVALID_INPUT', 'Send exactly one file, in the part named "file"'));
      }
      name = uploadName(info.filename);
      // checked before any of the file is read (issue 25 §5: was refused after the whole upload)
      const problem = findInputProblem(name);
      if (problem) {
        file.resume();
        return fail(
          new AppError('ERR_INVALID_INPUT', `Invalid input: file name (${problem.message})`, { name: problem.message }),
        );
      }
      const m = new MeasuringStream(maxBytes, progress);
      measuring = m;
      // its failure is seen through putStream's rejection (and must not crash as an unheard 'error')
      m.on('error', () => {});
      file.on('error', (err: Error) => m.destroy(err));
      file.pipe(m);
      putting = store.putStream(key, m, { contentType: 'application/octet-stream' });
      putting.then(finish, (err: unknown) =>
        fail(
          err instanceof AppError
            ? err
            : m.bytes > maxBytes
              ? new OverLimit(m.bytes)
              : new AppError('ERR_UPLOAD_FAILED'),
        ),
      );
    });
    bb.on('filesLimit', () => fail(new AppError('ERR_INVALID_INPUT', 'Send exactly one file per upload')));
    bb.on('partsLimit', () => fail(new AppError('ERR_INVALID_INPUT', 'The multipart body has too many parts')));
    bb.on('fieldsLimit', () => fail(new AppError('ERR_INVALID_INPUT', 'The multipart body has too many fields')));
    bb.on('error', () => fail(new AppError('ERR_INVALID_INPUT', 'The multipart body is malformed')));
    bb.on('close', () => {
      parsed = true;
      if (!measuring) return fail(new AppError('ERR_INVALID_INPUT', 'The upload has no file (part named "file")'));
      finish();
    });
    req.on('error', () => fail(new AppError('ERR_UPLOAD_FAILED', 'The upload was interrupted')));
    req.pipe(bb);
  });
}
