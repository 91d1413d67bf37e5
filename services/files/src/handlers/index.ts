/** Every endpoint of the files service, one per operation in `filesOperations` (proto). */
import { countOutcomes } from '@wb/platform';
import type { Endpoint } from '@wb/platform';
import type { FilesOperation } from '@wb/proto';
import type { FilesDeps } from '../commands/deps';
import { conversionReportHandler } from './conversionReport';
import { displayImageRegisterHandler } from './displayImageRegister';
import { docAddHandler } from './docAdd';
import { docGetHandler } from './docGet';
import { docOriginalHandler } from './docOriginal';
import { docsDeleteHandler } from './docsDelete';
import { docsListHandler } from './docsList';
import { uploadCheckHandler } from './uploadCheck';
import { uploadRegisterHandler } from './uploadRegister';

/** keyed by operation so the compiler says when one is missing */
const HANDLERS: Record<FilesOperation, (deps: FilesDeps) => Endpoint> = {
  'docs.list': docsListHandler,
  'doc.get': docGetHandler,
  'doc.add': docAddHandler,
  'docs.delete': docsDeleteHandler,
  'doc.original': docOriginalHandler,
  'upload.check': uploadCheckHandler,
  'upload.register': uploadRegisterHandler,
  'displayImage.register': displayImageRegisterHandler,
  'conversion.report': conversionReportHandler,
};

export function buildEndpoints(deps: FilesDeps): Endpoint[] {
  return Object.values(HANDLERS).map((make) => countOutcomes(make(deps), deps.metrics.commands));
}
