/**
 * JSON only: a request that carries a body must say application/json (415 otherwise), stay under
 * BODY_LIMIT (413) and parse (400). Parse failures become ErrorBody in errors.ts. Routes with
 * `bodyType: 'form'` (webhooks) take application/x-www-form-urlencoded instead (`formBody`).
 */
import express from 'express';
import type { RequestHandler } from 'express';
import { AppError } from '@wb/proto';

function hasBody(req: { headers: Record<string, string | string[] | undefined> }): boolean {
  const len = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (len !== undefined && len !== '0');
}

export function jsonBody(limit: string): RequestHandler {
  const parse = express.json({ limit, strict: true, type: 'application/json' });
  // One layer, and nothing at all for body-less requests (most of the traffic).
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || !hasBody(req)) return next();
    if (!req.is('application/json')) return next(new AppError('ERR_UNSUPPORTED_MEDIA_TYPE'));
    parse(req, res, next);
  };
}

/**
 * application/x-www-form-urlencoded only (RouteDef `bodyType: 'form'`): flat `key=value` pairs
 * (no nested `a[b]` syntax), same limit and error mapping as JSON; anything else is 415.
 */
export function formBody(limit: string): RequestHandler {
  const parse = express.urlencoded({ limit, extended: false, type: 'application/x-www-form-urlencoded' });
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || !hasBody(req)) return next();
    if (!req.is('application/x-www-form-urlencoded')) return next(new AppError('ERR_UNSUPPORTED_MEDIA_TYPE'));
    parse(req, res, next);
  };
}
