/** The Content-Security-Policy per payment environment: Braintree's hosts only with real payments. */
import { describe, expect, it } from '@jest/globals';
import { BRAINTREE_CSP, paymentEnvironmentOf, securityHeaders } from './security';

function csp(secure: boolean, env: 'fake' | 'sandbox' | 'production'): Map<string, string> {
  const header = securityHeaders(secure, env).find(([name]) => name.toLowerCase() === 'content-security-policy');
  expect(header).toBeDefined();
  const directives = new Map<string, string>();
  for (const part of header![1].split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name, values.join(' '));
  }
  return directives;
}

describe('the CSP and the payment environment', () => {
  it('the fake gateway (development, tests) allows no third-party host', () => {
    const d = csp(false, 'fake');
    expect(d.get('script-src')).toBe("'self' 'wasm-unsafe-eval'");
    expect(d.get('style-src')).toBe("'self' 'unsafe-inline'");
    expect(d.get('img-src')).toBe("'self' data: blob:");
    expect(d.get('connect-src')).toBe("'self'");
    expect(d.get('frame-src')).toBe("'self' https://www.youtube-nocookie.com");
    expect([...d.values()].join(' ')).not.toMatch(/braintree|cardinal|youtube\.com/);
    expect(securityHeaders(false).find(([n]) => n === 'Referrer-Policy')?.[1]).toBe('no-referrer');
    expect(securityHeaders(false)).toEqual(securityHeaders(false, 'fake'));
  });

  it('sandbox adds Drop-in’s sandbox hosts', () => {
    const d = csp(true, 'sandbox');
    expect(d.get('script-src')).toBe(
      "'self' 'wasm-unsafe-eval' https://js.braintreegateway.com https://assets.braintreegateway.com https://songbirdstag.cardinalcommerce.com",
    );
    expect(d.get('style-src')).toBe("'self' 'unsafe-inline' https://assets.braintreegateway.com");
    expect(d.get('img-src')).toBe("'self' data: blob: https://assets.braintreegateway.com");
    expect(d.get('connect-src')).toBe(
      "'self' https://api.sandbox.braintreegateway.com https://client-analytics.sandbox.braintreegateway.com https://payments.sandbox.braintree-api.com https://*.cardinalcommerce.com",
    );
    expect(d.get('frame-src')).toBe(
      "'self' https://www.youtube-nocookie.com https://assets.braintreegateway.com https://*.cardinalcommerce.com",
    );
    expect(d.get('connect-src')).not.toContain('https://api.braintreegateway.com');
    expect(d.has('upgrade-insecure-requests')).toBe(true);
  });

  it('production adds the production hosts and none of the sandbox', () => {
    const d = csp(true, 'production');
    expect(d.get('script-src')).toContain('https://js.braintreegateway.com');
    expect(d.get('script-src')).toContain('https://songbird.cardinalcommerce.com');
    expect(d.get('connect-src')).toBe(
      "'self' https://api.braintreegateway.com https://client-analytics.braintreegateway.com https://payments.braintree-api.com https://*.cardinalcommerce.com",
    );
    expect([...d.values()].join(' ')).not.toMatch(/sandbox|songbirdstag/);
    expect(d.get('frame-src')).toBe(
      "'self' https://www.youtube-nocookie.com https://assets.braintreegateway.com https://*.cardinalcommerce.com",
    );
    // everything else stays as strict as without payments
    expect(d.get('object-src')).toBe("'none'");
    expect(d.get('default-src')).toBe("'self'");
    expect(BRAINTREE_CSP.production['img-src']).toEqual(['https://assets.braintreegateway.com']);
  });

  it('reads the billing service’s BRAINTREE_ENVIRONMENT: anything but sandbox/production is a fake', () => {
    expect(paymentEnvironmentOf('sandbox')).toBe('sandbox');
    expect(paymentEnvironmentOf('production')).toBe('production');
    expect(paymentEnvironmentOf('fake')).toBe('fake');
    expect(paymentEnvironmentOf('http://127.0.0.1:4010')).toBe('fake');
    expect(paymentEnvironmentOf(undefined)).toBe('fake');
  });
});
