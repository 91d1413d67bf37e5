/**
 * The built web app (WEB_DIST_DIR): hashed assets with a year-long immutable cache, everything
 * else revalidated, and index.html for any other GET that wants HTML (client-side routes).
 * When the app is not built, `/` says how to build it instead of a bare 404.
 *
 * Precompressed files: the web build writes `<file>.br` and `<file>.gz` beside compressible files
 * (scripts/precompress-web.ts). Which files have them is read once here (the dist does not change
 * while the gateway runs); such a file is answered with the best encoding the request accepts
 * (highest q, br on a tie; q=0 refuses), with the original's Content-Type and Cache-Control,
 * `Vary: Accept-Encoding`, and express.static's ETag/Last-Modified/304/HEAD handling of the
 * compressed file (its own ETag: size + mtime, and the sizes differ). A Range request gets the original (ranges of the identity bytes). Without siblings
 * (a dev build, a dist built without the script) everything is served as before.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import type { Request, RequestHandler, Response } from 'express';
import { getState } from './state';

const API_PREFIXES = ['/api/', '/auth/'];
const FILE_RE = /\/[^/]+\.[A-Za-z0-9]+$/;
const isApi = (p: string): boolean => p === '/api' || p === '/auth' || API_PREFIXES.some((x) => p.startsWith(x));

export interface WebApp {
  /** static files (mounted before sessions: assets never touch Redis or get cookies); none when not built */
  assets?: RequestHandler;
  /** index.html / "not built" page (mounted after sessions: the page gets its CSRF cookie) */
  fallback: RequestHandler;
}

type Encoding = 'br' | 'gzip';
/** the precompressed siblings of one file: their URL paths (`/assets/x.js.br`, percent-encoded) */
type Siblings = Partial<Record<Encoding, string>>;
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * Decoded URL path (`/assets/x.js`) → its precompressed siblings, for every file of the dist that has one.
 * Dot-directories are skipped (express.static does not serve them).
 */
export function findPrecompressed(distDir: string): Map<string, Siblings> {
  const found = new Map<string, Siblings>();
  const walk = (dir: string, rel: string[]): void => {
    const entries = readdirSync(dir, { withFileTypes: true });
    const names = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), [...rel, entry.name]);
      else if (entry.isFile()) {
        const siblings: Siblings = {};
        for (const enc of ['br', 'gzip'] as const)
          if (names.has(entry.name + SUFFIX[enc]))
            siblings[enc] = '/' + [...rel, entry.name + SUFFIX[enc]].map(encodeURIComponent).join('/');
        if (siblings.br || siblings.gzip) found.set('/' + [...rel, entry.name].join('/'), siblings);
      }
    }
  };
  walk(distDir, []);
  return found;
}

/**
 * The encoding to send among those available: the highest q the Accept-Encoding header gives
 * (directly or through `*`), br on a tie; none when the header is absent or refuses both (q=0).
 */
export function chooseEncoding(header: string | undefined, available: Siblings): Encoding | undefined {
  if (!header) return undefined;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let value = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) value = Number(m[1]);
    }
    q.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(value) ? value : 0);
  }
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const enc of ['br', 'gzip'] as const) {
    if (!available[enc]) continue;
    const v = q.get(enc) ?? q.get('*') ?? 0;
    if (v > bestQ) {
      best = enc;
      bestQ = v;
    }
  }
  return best;
}

function decodePath(p: string): string {
  if (!p.includes('%')) return p;
  try {
    return decodeURIComponent(p);
  } catch {
    return p; // malformed: express.static answers it
  }
}

export function webApp(distDir: string): WebApp {
  const index = path.join(distDir, 'index.html');
  if (!existsSync(index)) {
    const text = `The web app is not built (no ${index}).\nBuild it with: npm run build -w @wb/web\nThe API is served under /api (see /api/openapi.json).\n`;
    return {
      fallback: (req, res, next) => {
        if ((req.method !== 'GET' && req.method !== 'HEAD') || isApi(req.path)) return next();
        getState(req).routeLabel = '(web)';
        res
          .status(req.path === '/' ? 200 : 404)
          .type('text/plain')
          .send(text);
      },
    };
  }
  // Vite puts content-hashed files under assets/: safe to cache forever.
  const assetsDir = path.join(distDir, 'assets') + path.sep;
  const cacheControl = (file: string): string =>
    file.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache';
  const serve = express.static(distDir, {
    index: false,
    fallthrough: true,
    setHeaders: (res, file) => {
      res.setHeader('Cache-Control', cacheControl(file));
    },
  });
  const precompressed = findPrecompressed(distDir);

  // the siblings go through express.static too (a second instance, so ETag, Last-Modified, 304 and
  // HEAD are send's, as for every other file), with the request's URL pointed at the sibling
  const serveSibling = express.static(distDir, {
    index: false,
    fallthrough: true,
    redirect: false,
    acceptRanges: false,
    cacheControl: false,
  });

  /**
   * Answers the dist's file at `urlPath` precompressed when it has a sibling the request
   * accepts; false when the caller should answer it as it is. When the sibling cannot be sent
   * (removed by a rebuild) before anything was written, `identity` answers instead.
   */
  const sendPrecompressed = (req: Request, res: Response, urlPath: string, identity: () => void): boolean => {
    const decoded = precompressed.size ? decodePath(urlPath) : '';
    const siblings = precompressed.get(decoded);
    if (!siblings) return false;
    const file = path.join(distDir, decoded);
    res.vary('Accept-Encoding');
    if (req.headers.range) return false;
    const enc = chooseEncoding(req.headers['accept-encoding'], siblings);
    if (!enc) return false;
    res.setHeader('Cache-Control', cacheControl(file));
    res.type(path.extname(file)); // send keeps a Content-Type already set
    res.setHeader('Content-Encoding', enc);
    const url = req.url;
    req.url = siblings[enc]!;
    try {
      serveSibling(req, res, () => {
        req.url = url;
        if (res.headersSent) return;
        res.removeHeader('Content-Encoding');
        res.removeHeader('Content-Type');
        identity();
      });
    } finally {
      req.url = url; // send has taken the path synchronously
    }
    return true;
  };

  return {
    assets: (req, res, next) => {
      if (isApi(req.path) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
      getState(req).routeLabel = '(static)';
      const identity = (): void => serve(req, res, next);
      if (!sendPrecompressed(req, res, req.path, identity)) identity();
    },
    fallback: (req, res, next) => {
      // A missing file (an old hashed chunk) must 404, not answer HTML the browser tries to run.
      if (
        (req.method !== 'GET' && req.method !== 'HEAD') ||
        isApi(req.path) ||
        FILE_RE.test(req.path) ||
        !req.accepts('html')
      )
        return next();
      const st = getState(req);
      st.routeLabel = '(web)';
      res.setHeader('Cache-Control', 'no-cache');
      const identity = (): void =>
        res.sendFile(index, (err) => {
          if (err) next(err);
        });
      if (!sendPrecompressed(req, res, '/index.html', identity)) identity();
    },
  };
}
