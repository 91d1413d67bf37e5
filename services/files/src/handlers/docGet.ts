import { endpoint } from '@wb/platform';
import { filesOperations } from '@wb/proto';
import type { FilesDeps } from '../commands/deps';
import { getDocument } from '../commands/library';

/** GET /api/docs/{docId} */
export const docGetHandler = (deps: FilesDeps) =>
  endpoint({
    operation: 'doc.get',
    ...filesOperations['doc.get'],
    handler: (input, ctx) => getDocument(deps, input.docId, ctx.actor),
  });
