import { endpoint } from '@wb/platform';
import { filesOperations } from '@wb/proto';
import type { FilesDeps } from '../commands/deps';
import { registerDisplayImage } from '../commands/displayImage';

/** POST /display-image, once the gateway has staged the bytes */
export const displayImageRegisterHandler = (deps: FilesDeps) =>
  endpoint({
    operation: 'displayImage.register',
    ...filesOperations['displayImage.register'],
    handler: (input, ctx) => registerDisplayImage(deps, input, ctx.actor),
  });
