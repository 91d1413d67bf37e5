/**
 * Security headers (helmet) with a CSP that fits the Vite-built SPA: own scripts only, inline
 * styles (canvas/formula libraries set style attributes), images from data:/blob: (uploads,
 * exports), websockets to this origin only, blob: workers (file hashing).
 */
import helmet from 'helmet';
import type { Request, Response } from 'express';

export type HeaderList = ReadonlyArray<readonly [string, string]>;

/**
 * The headers helmet would set, computed once: with no per-request directives they never change,
 * and setting a fixed list is cheaper than a dozen middleware calls per request.
 */
export function securityHeaders(secure: boolean): HeaderList {
  const headers: [string, string][] = [];
  const capture = {
    setHeader(name: string, value: string) {
      headers.push([name, String(value)]);
    },
    removeHeader() {},
  };
  helmetFor(secure)({} as Request, capture as unknown as Response, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('helmet configuration failed');
  });
  return headers;
}

function helmetFor(secure: boolean): ReturnType<typeof helmet> {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        // 'wasm-unsafe-eval': WebAssembly compilation only (Automerge on the board page), not eval()
        'script-src': ["'self'", "'wasm-unsafe-eval'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        // 'self' covers ws:/wss: to this origin (CSP3): the board sockets go through the gateway only
        'connect-src': ["'self'"],
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
