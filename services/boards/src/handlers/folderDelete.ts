import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { deleteFolder } from '../commands/folders';

/** DELETE /api/folders/{folderId} */
export const folderDeleteHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'folder.delete',
    ...boardsOperations['folder.delete'],
    handler: (input, ctx) => deleteFolder(deps, input, ctx.actor),
  });
