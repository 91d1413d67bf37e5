import { endpoint } from '@wb/platform';
import { filesOperations } from '@wb/proto';
import type { FilesDeps } from '../commands/deps';
import { listLibrary } from '../commands/library';

/** GET /api/docs */
export const docsListHandler = (deps: FilesDeps) =>
  endpoint({
    operation: 'docs.list',
    ...filesOperations['docs.list'],
    handler: (_input, ctx) => listLibrary(deps, ctx.actor),
  });
