/**
 * Route paths are written express-style in RouteDefs (`/api/boards/:boardId`, with `:name(*)`
 * for a param spanning several segments). Express 5 (path-to-regexp 8) spells the latter
 * `*name`, and OpenAPI spells every param `{name}`.
 */
const WILDCARD = /:([A-Za-z_][A-Za-z0-9_]*)\(\*\)/g;
const PARAM = /[:*]([A-Za-z_][A-Za-z0-9_]*)/g;

export function toExpressPath(path: string): string {
  const out = path.replace(WILDCARD, '*$1');
  if (/[()]/.test(out)) throw new Error(`route path ${path}: regular-expression params are not supported by Express 5`);
  return out;
}

export function toOpenApiPath(path: string): string {
  return path.replace(WILDCARD, '{$1}').replace(PARAM, '{$1}');
}

export function pathParamNames(path: string): string[] {
  return [...toOpenApiPath(path).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}
