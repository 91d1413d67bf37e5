/**
 * A gateway route is data: method, path, who may call it, the zod schemas it validates with, and
 * the service operation it forwards to. The generic handler (../http/forward.ts) does the rest,
 * and the OpenAPI document (../openapi.ts) is generated from the same definitions.
 */
import type { z } from 'zod';
import type { ErrorCode, ServiceName } from '@wb/proto';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

export interface RouteDef {
  method: HttpMethod;
  /** express-style path, e.g. '/api/user/settings', '/api/boards/:boardId(*)' */
  path: string;
  summary: string;
  /** OpenAPI tag, e.g. 'auth' */
  tag: string;
  /** 'required' answers 401 without a session; 'optional' forwards guests as userId 0 */
  auth: 'required' | 'optional';
  service: ServiceName;
  operation: string;
  params?: z.ZodType;
  query?: z.ZodType;
  /** JSON body (non-GET); validated, unknown keys rejected by the schema itself when strict */
  body?: z.ZodType;
  /** what a 200 answer looks like (documented; the service validates its own output) */
  response: z.ZodType;
  /** service input from the validated parts; default `{ ...params, ...query, ...body }` */
  input?: (parts: { params: unknown; query: unknown; body: unknown }) => unknown;
  /**
   * 'issue': the reply carries `session` (SessionGrant) → new session cookie + csrf token, and the
   *   field is removed from the body; an existing session is ended first (new id on every login).
   * 'end': the current session is ended and its cookies cleared.
   */
  session?: 'issue' | 'end';
  /**
   * 'redirect': answer 302 to the reply's redirect header (links opened from emails).
   * 'file': the reply is a `FileReply` (proto: filename, contentType, base64) and the answer is
   *   its bytes with that content type, as an attachment (e.g. an invoice PDF); `fileType` says
   *   which content type the OpenAPI document promises.
   */
  reply?: 'json' | 'redirect' | 'file';
  /** content type of a `reply: 'file'` route, e.g. 'application/pdf' */
  fileType?: string;
  /**
   * 'json' (default): an application/json body. 'form': an application/x-www-form-urlencoded
   * body (what payment providers post to webhooks); anything else is 415. 'multipart':
   * multipart/form-data, streamed by its own handler (uploads, http/upload.ts); documentation only.
   */
  bodyType?: 'json' | 'form' | 'multipart';
  /**
   * 'browser' (default): session cookie and, on POST/PUT/DELETE, the CSRF token.
   * 'server': a server-to-server callback (a payment provider's webhook): no session is read (the
   *   actor is a guest) and no CSRF token is asked for, so the service must authenticate the call
   *   itself (a signature over the body). Only with `auth: 'optional'`.
   */
  caller?: 'browser' | 'server';
  /** 'credentials': login throttling per account (body.email) and per address */
  throttle?: 'credentials';
  /** error codes this route may answer with (documented in OpenAPI) */
  errors?: ErrorCode[];
  /** bus request timeout for slow operations (default: the bus's, 5000 ms) */
  timeoutMs?: number;
}

export function defineRoutes(routes: RouteDef[]): RouteDef[] {
  return routes;
}
