import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { listFolders } from '../commands/folders';

/** GET /api/folders */
export const foldersListHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'folders.list',
    ...boardsOperations['folders.list'],
    handler: (_input, ctx) => listFolders(deps, ctx.actor),
  });
