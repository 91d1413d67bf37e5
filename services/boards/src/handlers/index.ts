/** Every endpoint of the boards service, one per operation in `boardsOperations` (proto). */
import type { Endpoint } from '@wb/platform';
import { AppError } from '@wb/proto';
import type { BoardsOperation } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { boardsListHandler } from './boardsList';
import { foldersListHandler } from './foldersList';
import { boardCreateHandler } from './boardCreate';
import { boardGetHandler } from './boardGet';
import { boardUpdateHandler } from './boardUpdate';
import { boardShareHandler } from './boardShare';
import { boardGrantHandler } from './boardGrant';
import { boardsTrashHandler } from './boardsTrash';
import { boardsRestoreHandler } from './boardsRestore';
import { boardsPurgeHandler } from './boardsPurge';
import { boardsLeaveHandler } from './boardsLeave';
import { boardsMoveHandler } from './boardsMove';
import { folderCreateHandler } from './folderCreate';
import { folderRenameHandler } from './folderRename';
import { folderDeleteHandler } from './folderDelete';
import { accessCheckHandler } from './accessCheck';

/** keyed by operation so the compiler says when one is missing */
const HANDLERS: Record<BoardsOperation, (deps: BoardsDeps) => Endpoint> = {
  'boards.list': boardsListHandler,
  'folders.list': foldersListHandler,
  'board.create': boardCreateHandler,
  'board.get': boardGetHandler,
  'board.update': boardUpdateHandler,
  'board.share': boardShareHandler,
  'board.grant': boardGrantHandler,
  'boards.trash': boardsTrashHandler,
  'boards.restore': boardsRestoreHandler,
  'boards.purge': boardsPurgeHandler,
  'boards.leave': boardsLeaveHandler,
  'boards.move': boardsMoveHandler,
  'folder.create': folderCreateHandler,
  'folder.rename': folderRenameHandler,
  'folder.delete': folderDeleteHandler,
  'access.check': accessCheckHandler,
};

/** counts every outcome (ok or the error code) per operation: boards_commands_total */
function counted(deps: BoardsDeps, ep: Endpoint): Endpoint {
  const handler = ep.handler.bind(ep);
  return {
    ...ep,
    async handler(input, ctx) {
      try {
        const out = await handler(input, ctx);
        deps.metrics.commands.inc({ operation: ep.operation, outcome: 'ok' });
        return out;
      } catch (err) {
        deps.metrics.commands.inc({
          operation: ep.operation,
          outcome: err instanceof AppError ? err.code : 'ERR_UNKNOWN',
        });
        throw err;
      }
    },
  };
}

export function buildEndpoints(deps: BoardsDeps): Endpoint[] {
  return Object.values(HANDLERS).map((make) => counted(deps, make(deps)));
}
