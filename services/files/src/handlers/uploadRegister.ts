import { endpoint } from '@wb/platform';
import { filesOperations } from '@wb/proto';
import type { FilesDeps } from '../commands/deps';
import { registerUpload } from '../commands/uploads';

/** POST /docs, once the gateway has staged the bytes */
export const uploadRegisterHandler = (deps: FilesDeps) =>
  endpoint({
    operation: 'upload.register',
    ...filesOperations['upload.register'],
    handler: (input, ctx) => registerUpload(deps, input, ctx.actor),
  });
