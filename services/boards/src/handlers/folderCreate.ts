import { endpoint } from '@wb/platform';
import { boardsOperations } from '@wb/proto';
import type { BoardsDeps } from '../commands/deps';
import { createFolder } from '../commands/folders';

/** POST /api/folders */
export const folderCreateHandler = (deps: BoardsDeps) =>
  endpoint({
    operation: 'folder.create',
    ...boardsOperations['folder.create'],
    handler: (input, ctx) => createFolder(deps, input, ctx.actor),
  });
