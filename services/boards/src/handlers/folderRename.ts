import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { renameFolder } from '../commands/folders';

/** PUT /api/folders/{folderId} */
export const folderRenameHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'folder.rename',
    ...boardsOperations['folder.rename'],
    handler: (input, ctx) => renameFolder(deps, input, ctx.actor),
  });
