import { endpoint } from '@wb/platform';
import { filesOperations } from '@wb/proto';
import type { FilesDeps } from '../commands/deps';
import { checkUpload } from '../commands/uploads';

/** asked by the gateway before it reads an upload body (POST /docs, /display-image) */
export const uploadCheckHandler = (deps: FilesDeps) =>
  endpoint({
    operation: 'upload.check',
    ...filesOperations['upload.check'],
    handler: (input, ctx) => checkUpload(deps, input, ctx.actor),
  });
