import { endpoint } from '@wb/platform';
import { filesOperations } from '@wb/proto';
import type { FilesDeps } from '../commands/deps';
import { reportConversion } from '../commands/conversion';

/** the conversion worker reports progress and the outcome (NATS only) */
export const conversionReportHandler = (deps: FilesDeps) =>
  endpoint({
    operation: 'conversion.report',
    ...filesOperations['conversion.report'],
    handler: (input) => reportConversion(deps, input),
  });
