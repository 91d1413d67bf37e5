/**
 * TEST-ONLY: the parties the calls service asks, played on a stack's bus: auth (`plan.get`,
 * `users.names`: "Person <id>") and boards (`access.check`). Each test says how plans and access
 * are decided; the replies are the real schemas, so the service sees what production sends.
 */
import { createService, endpoint } from '@wb/platform';
import type { Bus, Logger, RunningService } from '@wb/platform';
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

export interface FakeParties {
  /** the plan of this user (the board owner's is what counts for calls) */
  plan(userId: number): Plan;
  /** the board's owner and this user's access; null: no such board (ERR_BOARD_NOT_FOUND) */
  access(boardId: string, userId: number): { ownerId: number; access: BoardAccess } | null;
}

export async function startFakeParties(bus: Bus, log: Logger, parties: FakeParties): Promise<RunningService[]> {
  return [
    await createService(bus, {
      name: 'auth',
      version: '0.0.0',
      description: 'fake auth',
      log,
      endpoints: [
        endpoint({
          operation: 'plan.get',
          input: emptyInputSchema,
          output: planSchema,
          handler: async (_input, ctx) => parties.plan(ctx.actor.userId),
        }),
        endpoint({
          operation: 'users.names',
          input: usersNamesInputSchema,
          output: usersNamesOutputSchema,
          handler: async (input) => Object.fromEntries(input.ids.map((id) => [String(id), `Person ${id}`])),
        }),
      ],
    }),
    await createService(bus, {
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
            const found = parties.access(input.boardId, ctx.actor.userId);
            if (!found) throw new AppError('ERR_BOARD_NOT_FOUND');
            return {
              access: found.access,
              readOnlyReason: null,
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
    }),
  ];
}
