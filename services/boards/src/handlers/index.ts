/** Every endpoint of the boards service, one per operation in `boardsOperations` (proto). */
import { countOutcomes } from '@wb/platform';
import type { Endpoint } from '@wb/platform';
import type { BoardsOperation } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { boardsListHandler } from './boardsList';
import { foldersListHandler } from './foldersList';
import { boardCreateHandler } from './boardCreate';
import { boardDuplicateHandler } from './boardDuplicate';
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
import { collaborationCheckpointHandler, collaborationUsageHandler } from './collaborationUsage';

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
  'collaboration.usage': collaborationUsageHandler,
  'collaboration.checkpoint': collaborationCheckpointHandler,
  'board.duplicate': boardDuplicateHandler,
};

export function buildEndpoints(deps: BoardsDeps): Endpoint[] {
  return Object.values(HANDLERS).map((make) => countOutcomes(make(deps), deps.metrics.commands));
}
