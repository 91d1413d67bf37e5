import { endpoint } from '@wb/platform';
import { filesOperations } from '@wb/proto';
import type { FilesDeps } from '../commands/deps';
import { addDocument } from '../commands/uploads';

/** POST /api/docs/add (the dedupe path: no second upload) */
export const docAddHandler = (deps: FilesDeps) =>
  endpoint({
    operation: 'doc.add',
    ...filesOperations['doc.add'],
    handler: (input, ctx) => addDocument(deps, input, ctx.actor),
  });
