/**
 * GET /api/boards/{boardId}/preview.webp?v={version}: a board's dashboard preview, which its
 * realtime node stored in the snapshot store (proto boardPreviewKey). Whoever may open the board
 * (boards board.get: its errors as they are, e.g. 403 on another user's private board) gets it;
 * with the board list's current version in `v` it is cached for a year (the URL changes with
 * each new preview), otherwise it must be revalidated. No preview yet: 404.
 */
import type { Request, RequestHandler, Response } from 'express';
import { AppError, boardDtoSchema, boardIdSchema, boardPreviewKey } from '@wb/proto';
import type { ObjectStore } from '@wb/platform';
import type { GatewayConfig } from '../config';
import { actorOf } from './actor';
import { getState } from './state';
import type { GatewayBus } from './state';

export interface PreviewDeps {
  config: GatewayConfig;
  bus: GatewayBus;
  /** the realtime nodes' snapshot store */
  store: ObjectStore;
}

export function boardPreview(deps: PreviewDeps): RequestHandler {
  const trustProxy = deps.config.trustProxy !== false;
  return async (req: Request, res: Response) => {
    const st = getState(req);
    st.routeLabel = '/api/boards/{boardId}/preview.webp';
    if (st.sessionError) throw st.sessionError;
    if (!st.session) throw new AppError('ERR_UNAUTHORIZED');
    const raw = req.params.boardId as unknown;
    const boardId = boardIdSchema.safeParse(Array.isArray(raw) ? raw.join('/') : raw);
    if (!boardId.success)
      throw new AppError('ERR_INVALID_INPUT', 'Invalid input: boardId', { boardId: 'not a board id' });
    const reply = await deps.bus.request(
      'boards',
      'board.get',
      { boardId: boardId.data },
      actorOf(req, st, trustProxy),
      {
        parent: st.traceContext,
      },
    );
    const board = boardDtoSchema.safeParse(reply.data);
    if (!board.success) throw new Error('board.get reply malformed');
    const version = board.data.preview;
    if (!version) throw new AppError('ERR_NOT_FOUND');
    const bytes = await deps.store.get(boardPreviewKey(boardId.data));
    if (!bytes) throw new AppError('ERR_NOT_FOUND');
    res.setHeader('Content-Type', 'image/webp');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader(
      'Cache-Control',
      req.query.v === String(version) ? 'private, max-age=31536000, immutable' : 'private, no-cache',
    );
    res.setHeader('Content-Length', String(bytes.length));
    res.statusCode = 200;
    res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  };
}
