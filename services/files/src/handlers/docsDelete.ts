import { endpoint } from '@wb/platform';
import { filesOperations } from '@wb/proto';
import type { FilesDeps } from '../commands/deps';
import { deleteDocuments } from '../commands/library';

/** POST /api/docs/delete */
export const docsDeleteHandler = (deps: FilesDeps) =>
  endpoint({
    operation: 'docs.delete',
    ...filesOperations['docs.delete'],
    handler: (input, ctx) => deleteDocuments(deps, input.ids, ctx.actor),
  });
