/**
 * @jest-environment jsdom
 */
/// <reference types="jest" />
/** SPEC K3/K4: the browser events reach the board client; leaving asks only while changes are unsent. */
import { attachBrowserLifecycle } from './browserLifecycle';

function fakeClient(unsent = false) {
  return { wake: jest.fn(), networkLost: jest.fn(), hasUnsent: jest.fn(() => unsent) };
}

describe('attachBrowserLifecycle (K3, K4)', () => {
  it('online and focus wake the client, offline gives the socket up, visibility wakes only when shown', () => {
    const client = fakeClient();
    const detach = attachBrowserLifecycle(client);
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('focus'));
    expect(client.wake).toHaveBeenCalledTimes(2);
    window.dispatchEvent(new Event('offline'));
    expect(client.networkLost).toHaveBeenCalledTimes(1);
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(client.wake).toHaveBeenCalledTimes(2);
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(client.wake).toHaveBeenCalledTimes(3);
    detach();
    window.dispatchEvent(new Event('online'));
    expect(client.wake).toHaveBeenCalledTimes(3);
  });

  it('beforeunload asks while changes are unsent, not otherwise', () => {
    for (const unsent of [true, false]) {
      const detach = attachBrowserLifecycle(fakeClient(unsent));
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      expect(e.defaultPrevented).toBe(unsent);
      detach();
    }
  });
});
