/**
 * TEST-ONLY: auth and boards as other services see them on a stack's bus, for tests and benches
 * that do not start the real ones. Each caller says how plans and access are decided; the replies
 * go through the real schemas, so the service under test sees what production sends.
 */
import {
  accessCheckInputSchema,
  accessCheckReplySchema,
  AppError,
  emptyInputSchema,
  planSchema,
  usersNamesInputSchema,
  usersNamesOutputSchema,
} from '@wb/proto';
import type { AccessCheckReply, BoardAccess, Plan } from '@wb/proto';
import type { Logger } from '../logger';
import { createService, endpoint } from '../nats';
import type { Bus, RunningService } from '../nats';

/** `plan.get`, and with `names` also `users.names` ("Person <id>") */
export function startFakeAuth(
  bus: Bus,
  log: Logger,
  opts: { plan(userId: number): Plan; names?: boolean },
): Promise<RunningService> {
  return createService(bus, {
    name: 'auth',
    version: '0.0.0',
    description: 'fake auth',
    log,
    endpoints: [
      endpoint({
        operation: 'plan.get',
        input: emptyInputSchema,
        output: planSchema,
        handler: async (_input, ctx) => opts.plan(ctx.actor.userId),
      }),
      ...(opts.names
        ? [
            endpoint({
              operation: 'users.names',
              input: usersNamesInputSchema,
              output: usersNamesOutputSchema,
              handler: async (input) => Object.fromEntries(input.ids.map((id) => [String(id), `Person ${id}`])),
            }),
          ]
        : []),
    ],
  });
}

/** what a fake board answers one user: null is no such board (ERR_BOARD_NOT_FOUND) */
export interface FakeBoardAccess {
  ownerId: number;
  access: BoardAccess;
  readOnlyReason?: AccessCheckReply['readOnlyReason'];
}

/** `access.check` for boards titled "t" */
export function startFakeBoards(
  bus: Bus,
  log: Logger,
  access: (boardId: string, userId: number) => FakeBoardAccess | null,
): Promise<RunningService> {
  return createService(bus, {
    name: 'boards',
    version: '0.0.0',
    description: 'fake boards',
    log,
    endpoints: [
      endpoint({
        operation: 'access.check',
        input: accessCheckInputSchema,
        output: accessCheckReplySchema,
        handler: async (input, ctx): Promise<AccessCheckReply> => {
          const found = access(input.boardId, ctx.actor.userId);
          if (!found) throw new AppError('ERR_BOARD_NOT_FOUND');
          return {
            access: found.access,
            readOnlyReason: found.readOnlyReason ?? null,
            board: {
              id: input.boardId,
              title: 't',
              ownerId: found.ownerId,
              background: 'empty',
              defaultPermission: 'none',
              deleteOwnOnly: false,
            },
          };
        },
      }),
    ],
  });
}
