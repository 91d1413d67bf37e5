/** Shows an error as a toast (spec §8 display rules), never the same error object twice. */
import type { Dispatch } from '@reduxjs/toolkit';
import { errorDisplayText, isApiError } from '../app/apiClient';
import { notify } from './toastsSlice';

const reported = new WeakSet<object>();

export function reportError(dispatch: Dispatch, error: unknown, translate: (code: string) => string | undefined): void {
  if (error && typeof error === 'object') {
    if (reported.has(error)) return;
    reported.add(error);
  }
  if (isApiError(error) && error.code === 'ERR_UNAUTHORIZED') return; // the session-expired toast says it
  dispatch(notify({ type: 'error', message: errorDisplayText(error, translate) }));
}
