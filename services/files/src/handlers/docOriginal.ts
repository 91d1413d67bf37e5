import { endpoint } from '@wb/platform';
import { filesOperations } from '@wb/proto';
import type { FilesDeps } from '../commands/deps';
import { originalOf } from '../commands/library';

/** download of the original bytes (the gateway streams them from object storage) */
export const docOriginalHandler = (deps: FilesDeps) =>
  endpoint({
    operation: 'doc.original',
    ...filesOperations['doc.original'],
    handler: (input, ctx) => originalOf(deps, input.docId, ctx.actor),
  });
