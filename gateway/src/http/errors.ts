/**
 * Every failure leaves the gateway as `ErrorBody` ({ message, code, statusCode, fields? }).
 * AppErrors (ours or a service's) keep their code; body-parser failures get transport codes;
 * anything else is a 500 with the catalogue's generic message, logged here, never leaked.
 */
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { AppError, ERROR_CATALOGUE } from '@wb/proto';
import type { ErrorBody } from '@wb/proto';
import type { Logger } from '@wb/platform';
import { peekState } from './state';

export function sendError(res: Response, body: ErrorBody, headers?: Record<string, string>): void {
  if (headers) for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(body.statusCode).json(body);
}

/** Errors raised by express.json()/raw-body carry a `type`; map the ones a client can cause. */
function clientError(err: unknown): AppError | null {
  if (typeof err !== 'object' || err === null) return null;
  switch ((err as { type: unknown }).type) {
    case 'entity.too.large':
      return new AppError('ERR_PAYLOAD_TOO_LARGE');
    case 'entity.parse.failed':
      return new AppError('ERR_INVALID_INPUT', 'Malformed JSON body');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppError('ERR_INVALID_INPUT', 'The request body could not be read');
    default:
      return clientHttpError(err);
  }
}

/**
 * Any other error that http-errors marked as the client's (a 4xx `status`): the router's URIError
 * for broken percent-encoding in a path, a body labelled gzip/deflate that does not inflate
 * (body-parser wraps zlib's error). Never a 500, and never the library's own message.
 */
function clientHttpError(err: object): AppError | null {
  const status = (err as { status?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
  if (status === 413) return new AppError('ERR_PAYLOAD_TOO_LARGE');
  if (status === 415) return new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
  if (err instanceof URIError) return new AppError('ERR_INVALID_INPUT', 'The path is not valid percent-encoding');
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('Z_'))
    return new AppError('ERR_INVALID_INPUT', 'The request body could not be decompressed');
  return new AppError('ERR_INVALID_INPUT', 'The request could not be read');
}

/** Extra headers an error wants on its response (e.g. Retry-After on 429). */
export class HttpAppError extends AppError {
  constructor(
    code: ConstructorParameters<typeof AppError>[0],
    message: string | undefined,
    readonly headers: Record<string, string>,
  ) {
    super(code, message);
  }
}

/** the request's trace id for a log line (no span is active in the gateway: see observe.ts) */
function traceOf(req: Request): { trace_id?: string } {
  const id = peekState(req)?.traceId;
  return id ? { trace_id: id } : {};
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    const known = err instanceof AppError ? err : clientError(err);
    if (known) {
      if (known.statusCode >= 500) log.warn({ code: known.code, path: req.path, ...traceOf(req) }, 'request failed');
      return sendError(res, known.toBody(), known instanceof HttpAppError ? known.headers : undefined);
    }
    log.error({ err, method: req.method, path: req.path, ...traceOf(req) }, 'unhandled error');
    return sendError(res, { message: ERROR_CATALOGUE.ERR_UNKNOWN.message, code: 'ERR_UNKNOWN', statusCode: 500 });
  };
}

export const apiNotFound: RequestHandler = (_req, res) => {
  sendError(res, new AppError('ERR_NOT_FOUND').toBody());
};
