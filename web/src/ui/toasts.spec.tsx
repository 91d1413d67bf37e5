/// <reference types="jest" />
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { makeStore } from '../app/store';
import { i18n } from '../i18n/i18n';
import { Toasts } from './Toasts';
import { notify, toastsReducer, TOAST_DURATION_MS } from './toastsSlice';
import { reportError } from './reportError';

function setup() {
  const store = makeStore();
  render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <Toasts />
      </I18nextProvider>
    </Provider>,
  );
  return store;
}

describe('toasts', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('red error, green info, yellow warning; gone after 7 s', () => {
    const store = setup();
    act(() => {
      store.dispatch(notify({ type: 'error', message: 'Bad' }));
      store.dispatch(notify({ type: 'info', message: 'Good' }));
      store.dispatch(notify({ type: 'warning', message: 'Careful' }));
    });
    expect(screen.getByRole('alert').className).toContain('toast-error');
    expect(screen.getByText('Good').parentElement!.className).toContain('toast-info');
    expect(screen.getByText('Careful').parentElement!.className).toContain('toast-warning');
    act(() => jest.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.queryByText('Good')).not.toBeNull();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByText('Good')).toBeNull();
    expect(screen.queryByText('Bad')).toBeNull();
  });

  test('a message code is translated, otherwise the text is shown', () => {
    const store = setup();
    act(() => {
      store.dispatch(notify({ type: 'info', message: 'PASSWORD_CHANGED', code: 'PASSWORD_CHANGED' }));
      store.dispatch(notify({ type: 'error', message: 'Raw server text', code: 'ERR_NOT_IN_CATALOGUE' }));
      store.dispatch(notify({ type: 'error', message: 'x', code: 'SESSION_EXPIRED' }));
    });
    expect(screen.getByText('Your password was changed')).not.toBeNull();
    expect(screen.getByText('Raw server text')).not.toBeNull();
    expect(screen.getByText('Session expired, redirecting to login page...')).not.toBeNull();
  });

  test('can be dismissed by keyboard-reachable button', () => {
    const store = setup();
    act(() => void store.dispatch(notify({ type: 'info', message: 'Hello' })));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Hello')).toBeNull();
  });
});

describe('the same error is not shown twice', () => {
  test('an identical visible toast is not added again', () => {
    let state = toastsReducer(undefined, notify({ type: 'error', message: 'Same' }));
    state = toastsReducer(state, notify({ type: 'error', message: 'Same' }));
    state = toastsReducer(state, notify({ type: 'info', message: 'Same' }));
    expect(state.map((t) => t.type)).toEqual(['error', 'info']);
  });
  test('one error object is reported once', () => {
    const dispatch = jest.fn();
    const error = { message: 'Taken', code: 'ERR_EMAIL_TAKEN', status: 409 };
    reportError(dispatch, error, () => undefined);
    reportError(dispatch, error, () => undefined);
    expect(dispatch).toHaveBeenCalledTimes(1);
    expect(dispatch.mock.calls[0][0].payload.message).toBe('Taken (ERR_EMAIL_TAKEN)');
  });
});
