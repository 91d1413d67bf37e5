/**
 * TEST-ONLY: the parties the calls service asks, played on a stack's bus (platform's fakes): auth
 * (`plan.get`, `users.names`) and boards (`access.check`). Each test says how plans and access are
 * decided.
 */
import type { Bus, Logger, RunningService } from '@wb/platform';
import { startFakeAuth, startFakeBoards } from '@wb/platform/testing';
import type { FakeBoardAccess } from '@wb/platform/testing';
import type { Plan } from '@wb/proto';

export interface FakeParties {
  /** the plan of this user (the board owner's is what counts for calls) */
  plan(userId: number): Plan;
  /** the board's owner and this user's access; null: no such board (ERR_BOARD_NOT_FOUND) */
  access(boardId: string, userId: number): FakeBoardAccess | null;
}

export async function startFakeParties(bus: Bus, log: Logger, parties: FakeParties): Promise<RunningService[]> {
  return [
    await startFakeAuth(bus, log, { plan: (userId) => parties.plan(userId), names: true }),
    await startFakeBoards(bus, log, (boardId, userId) => parties.access(boardId, userId)),
  ];
}
