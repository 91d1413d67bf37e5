/**
 * The built web app (WEB_DIST_DIR): hashed assets with a year-long immutable cache, everything
 * else revalidated, and index.html for any other GET that wants HTML (client-side routes).
 * When the app is not built, `/` says how to build it instead of a bare 404.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import type { RequestHandler } from 'express';
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
  const serve = express.static(distDir, {
    index: false,
    fallthrough: true,
    setHeaders: (res, file) => {
      // Vite puts content-hashed files under assets/: safe to cache forever.
      const hashed = file.startsWith(path.join(distDir, 'assets') + path.sep);
      res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return {
    assets: (req, res, next) => {
      if (isApi(req.path) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
      getState(req).routeLabel = '(static)';
      serve(req, res, next);
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
      res.sendFile(index, (err) => {
        if (err) next(err);
      });
    },
  };
}
