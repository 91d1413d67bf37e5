/// <reference types="jest" />
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { makeStore } from '../app/store';
import { i18n } from '../i18n/i18n';
import { shownFor, Toasts } from './Toasts';
import { freeSpot, PHONE_TOAST_DURATION_MS, toastBottom, toastColumn } from './toastPlacement';
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

describe('toast placement (issue 26 #15): never over a toolbar', () => {
  const phone = { width: 390, height: 844 };
  const desktop = { width: 1440, height: 900 };
  // the board at 390 px: tool bar at the bottom, zoom corner above it on the right, top bar above
  const toolbar = { left: 8, right: 382, top: 788, bottom: 836 };
  const zoom = { left: 144, right: 382, top: 735, bottom: 780 };
  const topBar = { left: 8, right: 382, top: 8, bottom: 48 };

  test('on a phone the stack sits above the lowest toolbar it would meet', () => {
    const bottom = toastBottom(phone, true, [toolbar, zoom, topBar]);
    expect(bottom).toBe(phone.height - zoom.top + 8);
    // the stack's lowest edge is above both toolbars
    expect(phone.height - bottom).toBeLessThan(zoom.top);
    expect(phone.height - bottom).toBeLessThan(toolbar.top);
  });

  test('hidden toolbars and those beside the column or in the upper half do not move it', () => {
    expect(toastBottom(phone, true, [])).toBe(8);
    expect(toastBottom(phone, true, [topBar, { left: 0, right: 0, top: 700, bottom: 700 }])).toBe(8);
    // on a wide screen the column is the right-hand 24rem: a tool bar in the middle-left is beside it
    expect(toastBottom(desktop, false, [{ left: 300, right: 900, top: 840, bottom: 888 }])).toBe(16);
    expect(toastBottom(desktop, false, [{ left: 1200, right: 1430, top: 830, bottom: 880 }])).toBe(900 - 830 + 16);
    expect(toastColumn(1440, false)).toEqual({ left: 1440 - 16 - 384, right: 1424 });
  });

  test('on a phone an info toast goes after 4 s, an error after 7 s', () => {
    expect(shownFor({ type: 'info', duration: TOAST_DURATION_MS }, true)).toBe(PHONE_TOAST_DURATION_MS);
    expect(shownFor({ type: 'warning', duration: TOAST_DURATION_MS }, true)).toBe(PHONE_TOAST_DURATION_MS);
    expect(shownFor({ type: 'error', duration: TOAST_DURATION_MS }, true)).toBe(TOAST_DURATION_MS);
    expect(shownFor({ type: 'info', duration: TOAST_DURATION_MS }, false)).toBe(TOAST_DURATION_MS);
  });

  test('the rendered stack is lifted above a toolbar on the page', () => {
    jest.useFakeTimers();
    const bar = document.createElement('div');
    bar.setAttribute('role', 'toolbar');
    bar.getBoundingClientRect = () =>
      ({ left: 1100, right: 1430, top: 700, bottom: 760, width: 330, height: 60 }) as DOMRect;
    document.body.appendChild(bar);
    try {
      Object.assign(window, { innerWidth: 1440, innerHeight: 800 });
      const store = setup();
      act(() => void store.dispatch(notify({ type: 'info', message: 'Board created' })));
      const region = screen.getByText('Board created').closest<HTMLElement>('.toasts')!;
      expect(region.style.bottom).toBe(`${800 - 700 + 16}px`);
    } finally {
      bar.remove();
      jest.useRealTimers();
    }
  });
});

describe('freeSpot: a card that covers no chrome (the cookie banner)', () => {
  const card = { width: 374, height: 260 };
  test('on a 390 px board: above the zoom corner and the tool bar, below the top bar', () => {
    const viewport = { width: 390, height: 844 };
    const obstacles = [
      { left: 8, right: 382, top: 788, bottom: 836 }, // tool bar
      { left: 144, right: 382, top: 735, bottom: 780 }, // zoom corner
      { left: 8, right: 382, top: 8, bottom: 48 }, // top bar
    ];
    const spot = freeSpot(viewport, card, obstacles)!;
    expect(spot.top + card.height).toBeLessThanOrEqual(735);
    expect(spot.top).toBeGreaterThanOrEqual(48);
  });
  test('on a wide board: beside a tall tool bar on the left, at the bottom', () => {
    const viewport = { width: 1440, height: 900 };
    const spot = freeSpot(viewport, { width: 416, height: 200 }, [{ left: 8, right: 60, top: 56, bottom: 836 }])!;
    expect(spot.left).toBeGreaterThan(60);
    expect(spot.top + 200).toBe(900 - 16);
  });
  test('null when nothing is free', () => {
    expect(freeSpot({ width: 390, height: 300 }, card, [{ left: 0, right: 390, top: 0, bottom: 300 }])).toBeNull();
  });
});
