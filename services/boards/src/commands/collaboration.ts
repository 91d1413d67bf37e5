/**
 * The weekly collaboration-minutes counter (spec §4, §9): realtime nodes checkpoint collaboration
 * spans (event consumer and the checkpoint request both land here), and the owner's usage is
 * read by the web's figure, the node's meter and the read-only rule alike.
 */
import { AppError } from '@wb/proto';
import type { CollaborationSpan, CollaborationUsage, RequestActor } from '@wb/proto';
import { requireUserId } from '../policies/actor';
import { limitMsOf, nextResetAfter, splitByWeek, weekStartOf } from '../policies/readOnly';
import { upsertSpanPiece, weekUsedMs } from '../repositories/collaboration';
import type { Db } from '../repositories/db';
import type { BoardsDeps } from './deps';

/** Record one checkpoint, cut at every Monday 00:00 UTC it crosses (idempotent). */
export async function recordSpan(db: Db, span: CollaborationSpan): Promise<void> {
  const from = new Date(span.from);
  const to = new Date(span.to);
  if (!(to.getTime() >= from.getTime())) {
    throw new AppError('ERR_INVALID_INPUT', 'A collaboration span must not end before it starts');
  }
  for (const piece of splitByWeek(from, to)) {
    await upsertSpanPiece(db, {
      spanId: span.spanId,
      sessionId: span.sessionId,
      ownerId: span.ownerId,
      boardId: span.boardId,
      ...piece,
    });
  }
}

/** the owner's usage this week (by the service's clock) against their plan's limit */
export async function usageOf(
  deps: Pick<BoardsDeps, 'pool' | 'plans' | 'now'>,
  ownerId: number,
  opts: { freshPlan?: boolean } = {},
): Promise<CollaborationUsage> {
  const now = deps.now();
  const weekStart = weekStartOf(now);
  const [plan, usedMs] = await Promise.all([
    deps.plans.planOf(ownerId, { fresh: opts.freshPlan }),
    weekUsedMs(deps.pool, ownerId, weekStart),
  ]);
  const usage: CollaborationUsage = {
    usedMs,
    limitMs: limitMsOf(plan.limits),
    weekStart,
    resetsAt: nextResetAfter(now).toISOString(),
  };
  return usage;
}

/** GET /api/collaboration/usage (and the realtime nodes, acting as the owner): the caller's own figure */
export function ownUsage(
  deps: BoardsDeps,
  input: { freshPlan?: boolean },
  actor: RequestActor,
): Promise<CollaborationUsage> {
  return usageOf(deps, requireUserId(actor), { freshPlan: input.freshPlan });
}

/**
 * svc.boards.collaboration.checkpoint (realtime nodes, acting as the board's owner): record the
 * checkpoint at once, then answer the owner's usage including it, so the node's lock decision and
 * the access checks that follow read the same counter.
 */
export async function checkpoint(
  deps: BoardsDeps,
  input: { span: CollaborationSpan; freshPlan?: boolean },
  actor: RequestActor,
): Promise<CollaborationUsage> {
  if (requireUserId(actor) !== input.span.ownerId) {
    throw new AppError('ERR_FORBIDDEN', 'Only the board owner’s minutes can be checkpointed as that owner');
  }
  await recordSpan(deps.pool, input.span);
  return usageOf(deps, input.span.ownerId, { freshPlan: input.freshPlan });
}
