/// <reference types="jest" />
/**
 * The card form per payment environment: the fake gateway's TEST MODE form, and for sandbox and
 * production Braintree Drop-in — its pinned script added on demand, created in its container
 * with the client token, the nonce from requestPaymentMethod() handed on, load failures shown,
 * teardown on unmount. `window.braintree` is a double of Drop-in's API (jsdom runs no CDN script).
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { makeStore } from '../../app/store';
import { i18n, loadNamespace } from '../../i18n/i18n';
import { DROPIN_SCRIPT_URL, PaymentMethod } from './PaymentMethod';
import type { DropinApi, DropinInstance } from './PaymentMethod';

const tokenFor = (environment: string) => Buffer.from(JSON.stringify({ environment })).toString('base64');

function stubClientToken(clientToken: string): void {
  globalThis.fetch = jest.fn(async () => ({
    ok: true,
    status: 200,
    statusText: '',
    headers: { get: (h: string) => (h === 'content-type' ? 'application/json' : null) },
    text: async () => JSON.stringify({ clientToken }),
  })) as unknown as typeof fetch;
}

function renderCard(onNonce: (n: string | undefined) => void) {
  return render(
    <Provider store={makeStore()}>
      <I18nextProvider i18n={i18n}>
        <PaymentMethod onNonce={onNonce} />
      </I18nextProvider>
    </Provider>,
  );
}

const dropinScripts = () =>
  [...document.head.querySelectorAll('script')].filter((s) => s.getAttribute('src') === DROPIN_SCRIPT_URL);

/** a Drop-in double: one instance whose events the test fires */
function fakeDropin(nonce = 'tokencc_bh_abc123') {
  const handlers: Record<string, () => void> = {};
  const requestPaymentMethod = jest.fn(async () => ({ nonce }));
  const isPaymentMethodRequestable = jest.fn(() => false);
  const teardown = jest.fn(async () => undefined);
  const instance: DropinInstance = {
    requestPaymentMethod,
    isPaymentMethodRequestable,
    on: (event: string, handler: () => void) => {
      handlers[event] = handler;
    },
    teardown,
  };
  const create = jest.fn(async () => instance);
  const api: DropinApi = { create };
  return {
    api,
    create,
    requestPaymentMethod,
    isPaymentMethodRequestable,
    teardown,
    fire: (event: string) => handlers[event]!(),
  };
}

beforeAll(() => loadNamespace('billing', 'en'));
afterEach(() => {
  delete window.braintree;
  for (const s of dropinScripts()) s.remove();
});

test('the fake gateway keeps the TEST MODE form and loads nothing from Braintree', async () => {
  stubClientToken(tokenFor('fake'));
  const onNonce = jest.fn();
  renderCard(onNonce);
  expect(await screen.findByTestId('test-card-form')).toBeTruthy();
  expect(screen.getByText('TEST MODE')).toBeTruthy();
  expect(onNonce).toHaveBeenLastCalledWith('fake-valid-nonce');
  expect(dropinScripts()).toHaveLength(0);
});

test('Drop-in that cannot be loaded says the payment form is unavailable, and can be tried again', async () => {
  stubClientToken(tokenFor('production'));
  const onNonce = jest.fn();
  const view = renderCard(onNonce);
  await waitFor(() => expect(dropinScripts()).toHaveLength(1));
  act(() => {
    dropinScripts()[0]!.dispatchEvent(new Event('error'));
  });
  expect(await screen.findByText('The payment form is not available right now. Please try again later.')).toBeTruthy();
  expect(onNonce).not.toHaveBeenCalledWith(expect.any(String));
  expect(dropinScripts()).toHaveLength(0); // removed: the next attempt adds it again
  view.unmount();
  renderCard(onNonce);
  await waitFor(() => expect(dropinScripts()).toHaveLength(1));
  act(() => {
    dropinScripts()[0]!.dispatchEvent(new Event('error'));
  });
  expect(await screen.findByText('The payment form is not available right now. Please try again later.')).toBeTruthy();
});

test('sandbox: loads the pinned Drop-in script, creates it with the client token, passes the nonce, tears down', async () => {
  const clientToken = tokenFor('sandbox');
  stubClientToken(clientToken);
  const onNonce = jest.fn();
  const view = renderCard(onNonce);

  await waitFor(() => expect(dropinScripts()).toHaveLength(1));
  expect(DROPIN_SCRIPT_URL).toMatch(
    /^https:\/\/js\.braintreegateway\.com\/web\/dropin\/\d+\.\d+\.\d+\/js\/dropin\.min\.js$/,
  );
  const { api, create, requestPaymentMethod, teardown, fire } = fakeDropin();
  window.braintree = { dropin: api };
  await act(async () => {
    dropinScripts()[0]!.dispatchEvent(new Event('load'));
  });

  await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
  const options = (create.mock.calls[0] as unknown[])[0] as {
    authorization: string;
    container: HTMLElement;
    locale: string;
  };
  expect(options.authorization).toBe(clientToken);
  expect(options.container).toBe(screen.getByTestId('dropin-container'));
  expect(options.locale).toBe('en_US');
  expect(onNonce).not.toHaveBeenCalledWith(expect.any(String)); // no card yet

  await act(async () => fire('paymentMethodRequestable'));
  await waitFor(() => expect(onNonce).toHaveBeenLastCalledWith('tokencc_bh_abc123'));
  expect(requestPaymentMethod).toHaveBeenCalledTimes(1);

  await act(async () => fire('noPaymentMethodRequestable'));
  expect(onNonce).toHaveBeenLastCalledWith(undefined);

  // invalid card details: requestPaymentMethod rejects, no nonce
  requestPaymentMethod.mockRejectedValueOnce(new Error('hostedFieldsFieldsInvalidError'));
  await act(async () => fire('paymentMethodRequestable'));
  expect(onNonce).toHaveBeenLastCalledWith(undefined);

  view.unmount();
  expect(teardown).toHaveBeenCalledTimes(1);
});

test('a second form uses the already loaded Drop-in, and a saved card gives its nonce at once', async () => {
  stubClientToken(tokenFor('production'));
  const { api, isPaymentMethodRequestable } = fakeDropin('tokencc_saved');
  isPaymentMethodRequestable.mockReturnValue(true);
  window.braintree = { dropin: api };
  const onNonce = jest.fn();
  renderCard(onNonce);
  await waitFor(() => expect(onNonce).toHaveBeenLastCalledWith('tokencc_saved'));
  expect(dropinScripts()).toHaveLength(0);
});
