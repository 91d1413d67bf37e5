import { z } from 'zod';
import { buildOpenApi, GATEWAY_ROUTES } from './openapi';
import type { DocRoute } from './openapi';
import { serviceRoutes } from './routes';
import { pathParamNames, toExpressPath, toOpenApiPath } from './routes/paths';
import { fixtureRoutes } from './testing/fixtures';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const strip = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  const s = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete s.$schema;
  return s;
};

function expectDocumented(doc: Json, route: DocRoute): void {
  const op = doc.paths[toOpenApiPath(route.path)]?.[route.method] as Json | undefined;
  expect(op).toBeDefined();
  if (!op) return;
  expect(op.summary).toBe(route.summary);
  expect(op.tags).toEqual([route.tag]);
  if (route.service) expect(op.operationId).toBe(`${route.service}.${route.operation}`);
  const params = (op.parameters ?? []) as Json[];
  for (const name of pathParamNames(route.path))
    expect(params).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
  if (route.query) {
    const props = strip(route.query, 'input').properties as Json;
    for (const name of Object.keys(props))
      expect(params).toContainEqual(expect.objectContaining({ name, in: 'query' }));
  }
  const bodyType = route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  if (route.body) expect(op.requestBody.content[bodyType].schema).toEqual(strip(route.body, 'input'));
  else expect(op.requestBody).toBeUndefined();
  if (route.reply === 'redirect') expect(op.responses['302']).toBeDefined();
  else if (route.reply === 'file')
    expect(op.responses['200'].content[route.fileType ?? 'application/octet-stream'].schema).toEqual({
      type: 'string',
      format: 'binary',
    });
  else expect(op.responses['200'].content['application/json'].schema).toEqual(strip(route.response, 'output'));
  for (const code of route.errors ?? []) {
    const documented = Object.values(op.responses as Json).some((r: Json) =>
      (r.content?.['application/json']?.['x-codes'] ?? []).includes(code),
    );
    expect(documented).toBe(true);
  }
  if (route.auth === 'required') expect(op.security).toEqual([expect.objectContaining({ sessionCookie: [] })]);
  if (route.caller === 'server') {
    // a server-to-server callback: no cookie, no CSRF token
    expect(op.security).toEqual([]);
    expect(JSON.stringify(op.responses)).not.toContain('ERR_CSRF');
  } else if (route.method !== 'get' && route.auth !== 'none') {
    for (const s of op.security as Json[]) expect(s).toHaveProperty('csrfToken');
    expect(op.responses['403'].content['application/json']['x-codes']).toContain('ERR_CSRF');
  }
}

describe('OpenAPI document', () => {
  const all: DocRoute[] = [...GATEWAY_ROUTES, ...serviceRoutes];
  const doc = buildOpenApi({ routes: all, cookieName: 'sid' }) as Json;

  it('is OpenAPI 3.1 with the error body, cookie auth and CSRF schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.schemas.ErrorBody.required).toEqual(['message', 'code', 'statusCode']);
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'sid' });
    expect(doc.components.securitySchemes.csrfToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-csrf-token',
    });
    expect(JSON.stringify(doc)).not.toContain('"$schema"');
  });

  it('documents every service route with its schemas', () => {
    for (const route of serviceRoutes) expectDocumented(doc, route);
    const ops = Object.values(doc.paths as Json).reduce((n: number, p) => n + Object.keys(p as Json).length, 0);
    expect(ops).toBe(new Set(all.map((r) => `${r.method} ${toOpenApiPath(r.path)}`)).size);
  });

  it('documents the gateway routes', () => {
    for (const route of GATEWAY_ROUTES) expectDocumented(doc, route);
    expect(doc.paths['/api/health'].get.security).toEqual([]);
  });

  it('handles every RouteDef feature (fixture routes)', () => {
    const fixtures = buildOpenApi({ routes: fixtureRoutes, cookieName: '__Host-sid' }) as Json;
    for (const route of fixtureRoutes) expectDocumented(fixtures, route);
    const login = fixtures.paths['/auth/login'].post;
    expect(login.responses['429'].headers['Retry-After']).toBeDefined();
    expect(login.responses['400'].content['application/json']['x-codes']).toContain('ERR_LOGIN_FAILED');
    expect(login.security).toEqual([{ csrfToken: [] }, { sessionCookie: [], csrfToken: [] }]);
    expect(fixtures.paths['/api/files/{path}'].get.parameters[0]).toMatchObject({
      name: 'path',
      in: 'path',
      schema: { type: 'string' },
    });
    expect(fixtures.paths['/api/echo'].get.parameters).toContainEqual({
      name: 'n',
      in: 'query',
      required: true,
      schema: { type: 'integer', minimum: expect.any(Number), maximum: expect.any(Number) },
      description: 'a number',
    });
    expect(fixtures.paths['/api/echo'].get.parameters).toContainEqual(
      expect.objectContaining({ name: 'tag', required: false }),
    );
  });
});

describe('route paths', () => {
  it('converts express-style params', () => {
    expect(toExpressPath('/api/boards/:boardId')).toBe('/api/boards/:boardId');
    expect(toExpressPath('/api/boards/:boardId(*)')).toBe('/api/boards/*boardId');
    expect(toOpenApiPath('/api/boards/:boardId(*)')).toBe('/api/boards/{boardId}');
    expect(toOpenApiPath('/api/courses/:courseId/lessons/:id')).toBe('/api/courses/{courseId}/lessons/{id}');
    expect(() => toExpressPath('/api/x/:id(\\d+)')).toThrow(/not supported/);
  });
});
