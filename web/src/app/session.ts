/** What happens when the gateway says the session is gone: tell the user, then go home. */
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { showToast } from './toasts';

export const SESSION_EXPIRED_MESSAGE = 'Session expired, redirecting to login page...';
export const SESSION_EXPIRED_REDIRECT_MS = 2000;

let redirecting = false;

export function sessionExpired(): ThunkAction<void, unknown, unknown, UnknownAction> {
  return (dispatch) => {
    if (redirecting) return;
    redirecting = true;
    dispatch(showToast({ kind: 'error', text: SESSION_EXPIRED_MESSAGE }));
    setTimeout(() => window.location.assign('/'), SESSION_EXPIRED_REDIRECT_MS);
  };
}
