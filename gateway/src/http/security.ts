/**
 * Security headers (helmet) with a CSP that fits the Vite-built SPA: own scripts only, inline
 * styles (canvas/formula libraries set style attributes), images from data:/blob: (uploads,
 * exports), websockets to this origin only, blob: workers (file hashing). With real payments
 * (Braintree sandbox or production) the card form is Braintree Drop-in, loaded from Braintree's
 * hosts: `BRAINTREE_CSP` adds exactly those, and nothing is added for the fake gateway.
 */
import helmet from 'helmet';
import type { Request, Response } from 'express';

export type HeaderList = ReadonlyArray<readonly [string, string]>;

/** Where the billing service sends payments: its BRAINTREE_ENVIRONMENT ("fake" or a fake's URL = fake). */
export type PaymentEnvironment = 'fake' | 'sandbox' | 'production';

export function paymentEnvironmentOf(braintreeEnvironment: string | undefined): PaymentEnvironment {
  return braintreeEnvironment === 'sandbox' || braintreeEnvironment === 'production' ? braintreeEnvironment : 'fake';
}

/**
 * Course video items embed from here. The document's Referrer-Policy stays no-referrer (share and
 * invitation links carry tokens); the player's iframe sets referrerpolicy
 * strict-origin-when-cross-origin itself, which YouTube requires since July 2025 (error 153).
 */
export const YOUTUBE_EMBED_ORIGIN = 'https://www.youtube-nocookie.com';

type ExtraDirectives = Readonly<
  Record<'script-src' | 'style-src' | 'img-src' | 'connect-src' | 'frame-src', readonly string[]>
>;

/**
 * The hosts Braintree's Drop-in (card form, with 3-D Secure) needs, per Braintree's Content
 * Security Policy guide for the JavaScript v3 SDK: its script and asset CDNs, the client API,
 * analytics and GraphQL payments endpoints of the environment, and Cardinal Commerce (3-D Secure
 * challenges: Songbird script, frames and API). PayPal's hosts are left out: Drop-in is created
 * with cards only. The one list to change when Braintree's guide changes.
 */
export const BRAINTREE_CSP: Readonly<Record<'sandbox' | 'production', ExtraDirectives>> = {
  sandbox: {
    'script-src': [
      'https://js.braintreegateway.com',
      'https://assets.braintreegateway.com',
      'https://songbirdstag.cardinalcommerce.com',
    ],
    'style-src': ['https://assets.braintreegateway.com'],
    'img-src': ['https://assets.braintreegateway.com'],
    'connect-src': [
      'https://api.sandbox.braintreegateway.com',
      'https://client-analytics.sandbox.braintreegateway.com',
      'https://payments.sandbox.braintree-api.com',
      'https://*.cardinalcommerce.com',
    ],
    'frame-src': ['https://assets.braintreegateway.com', 'https://*.cardinalcommerce.com'],
  },
  production: {
    'script-src': [
      'https://js.braintreegateway.com',
      'https://assets.braintreegateway.com',
      'https://songbird.cardinalcommerce.com',
    ],
    'style-src': ['https://assets.braintreegateway.com'],
    'img-src': ['https://assets.braintreegateway.com'],
    'connect-src': [
      'https://api.braintreegateway.com',
      'https://client-analytics.braintreegateway.com',
      'https://payments.braintree-api.com',
      'https://*.cardinalcommerce.com',
    ],
    'frame-src': ['https://assets.braintreegateway.com', 'https://*.cardinalcommerce.com'],
  },
};

/**
 * The headers helmet would set, computed once: with no per-request directives they never change,
 * and setting a fixed list is cheaper than a dozen middleware calls per request.
 */
export function securityHeaders(secure: boolean, payments: PaymentEnvironment = 'fake'): HeaderList {
  const headers: [string, string][] = [];
  const capture = {
    setHeader(name: string, value: string) {
      headers.push([name, String(value)]);
    },
    removeHeader() {},
  };
  helmetFor(secure, payments)({} as Request, capture as unknown as Response, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('helmet configuration failed');
  });
  return headers;
}

function helmetFor(secure: boolean, payments: PaymentEnvironment): ReturnType<typeof helmet> {
  const extra = payments === 'fake' ? null : BRAINTREE_CSP[payments];
  const plus = (directive: keyof ExtraDirectives, base: string[]) => [...base, ...(extra?.[directive] ?? [])];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        // 'wasm-unsafe-eval': WebAssembly compilation only (Automerge on the board page), not eval()
        'script-src': plus('script-src', ["'self'", "'wasm-unsafe-eval'"]),
        'style-src': plus('style-src', ["'self'", "'unsafe-inline'"]),
        'img-src': plus('img-src', ["'self'", 'data:', 'blob:']),
        'font-src': ["'self'", 'data:'],
        // 'self' covers ws:/wss: to this origin (CSP3): the board sockets go through the gateway only
        'connect-src': plus('connect-src', ["'self'"]),
        // course videos: YouTube's privacy-enhanced player, loaded only after a click (issue 29);
        // plus Braintree's frames when Drop-in takes real payments. The SPA keeps one document
        // across client-side navigation, so this cannot be limited to the course pages.
        'frame-src': plus('frame-src', ["'self'", YOUTUBE_EMBED_ORIGIN]),
        'media-src': ["'self'", 'blob:'],
        'worker-src': ["'self'", 'blob:'],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'self'"],
        // Over plain http (dev) an upgrade would break every asset.
        ...(secure ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    strictTransportSecurity: secure ? { maxAge: 31536000, includeSubDomains: true } : false,
    // Uploaded images and board exports open in new tabs; the default 'same-origin' is fine for us.
    crossOriginEmbedderPolicy: false,
  });
}
