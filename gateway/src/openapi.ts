/**
 * The OpenAPI 3.1 document, generated at start from the same RouteDefs the router executes
 * (zod v4 → JSON Schema 2020-12, which OpenAPI 3.1 uses as is). Served at GET /api/openapi.json.
 */
import { z } from 'zod';
import { ERROR_CATALOGUE, ERROR_CODES } from '@wb/proto';
import type { ErrorCode } from '@wb/proto';
import type { RouteDef } from './routes/types';
import { pathParamNames, toOpenApiPath } from './routes/paths';

/** A documented route: service RouteDefs plus the gateway's own (auth 'none', no service). */
export type DocRoute = Pick<
  RouteDef,
  | 'method'
  | 'path'
  | 'summary'
  | 'tag'
  | 'params'
  | 'query'
  | 'body'
  | 'response'
  | 'errors'
  | 'throttle'
  | 'session'
  | 'reply'
  | 'fileType'
  | 'bodyType'
  | 'caller'
> & {
  auth: RouteDef['auth'] | 'none';
  service?: RouteDef['service'];
  operation?: string;
};

export const errorBodySchema = z.object({
  message: z.string(),
  code: z.enum(['FST_ERR_VALIDATION', ...ERROR_CODES]),
  statusCode: z.number().int(),
  fields: z.record(z.string(), z.string()).optional().describe('invalid input fields and what is wrong with each'),
});

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'failing']),
  service: z.literal('gateway'),
  checks: z.record(z.string(), z.string()),
});

export const GATEWAY_ROUTES: DocRoute[] = [
  {
    method: 'get',
    path: '/api/health',
    summary: 'Gateway health (and its NATS/Redis connections)',
    tag: 'gateway',
    auth: 'none',
    response: healthResponseSchema,
    errors: ['ERR_SERVICE_UNAVAILABLE'],
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This OpenAPI document',
    tag: 'gateway',
    auth: 'none',
    response: z.looseObject({ openapi: z.string() }),
  },
];

type JsonSchema = Record<string, unknown>;

const BODY_TYPES = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
} as const;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // 'any' keeps transforms/custom types from aborting the whole document.
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  return out;
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query', names: string[]): JsonSchema[] {
  const props = schema ? ((jsonSchema(schema, 'input').properties ?? {}) as Record<string, JsonSchema>) : {};
  const required = schema
    ? new Set((jsonSchema(schema, 'input').required as string[] | undefined) ?? [])
    : new Set<string>();
  const keys = where === 'path' ? names : Object.keys(props);
  return keys.map((name) => {
    const s = props[name] ?? { type: 'string' };
    const { description, ...rest } = s;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      schema: rest,
      ...(description ? { description } : {}),
    };
  });
}

/** The codes a route can answer with: its own plus what the gateway adds around it. */
export function errorCodesOf(route: DocRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>(route.errors ?? []);
  const unsafe = route.method !== 'get' && route.caller !== 'server';
  if (route.params || route.query || route.body) codes.add('ERR_INVALID_INPUT');
  if (route.auth === 'required') codes.add('ERR_UNAUTHORIZED');
  if (unsafe) codes.add('ERR_CSRF');
  if (route.body) codes.add('ERR_UNSUPPORTED_MEDIA_TYPE').add('ERR_PAYLOAD_TOO_LARGE');
  if (route.throttle) codes.add('ERR_TOO_MANY_REQUESTS');
  if (route.service) codes.add('ERR_SERVICE_UNAVAILABLE').add('ERR_TIMEOUT');
  codes.add('ERR_UNKNOWN');
  return [...codes];
}

function errorResponses(route: DocRoute): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, JsonSchema> = {};
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: codes.map((c) => `${c}: ${ERROR_CATALOGUE[c].message}`).join('\n'),
      ...(status === 429
        ? { headers: { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } } }
        : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' }, 'x-codes': codes } },
    };
  }
  return out;
}

function securityOf(route: DocRoute): JsonSchema[] {
  const unsafe = route.method !== 'get';
  // server-to-server callbacks authenticate themselves (e.g. a signature in the body)
  if (route.auth === 'none' || route.caller === 'server') return [];
  const csrf = unsafe ? { csrfToken: [] } : {};
  if (route.auth === 'required') return [{ sessionCookie: [], ...csrf }];
  return [{ ...csrf }, { sessionCookie: [], ...csrf }];
}

function operationOf(route: DocRoute): JsonSchema {
  const parameters = [
    ...parametersOf(route.params, 'path', pathParamNames(route.path)),
    ...parametersOf(route.query, 'query', []),
  ];
  const success: JsonSchema =
    route.reply === 'file'
      ? {
          '200': {
            description: 'The file, as an attachment (Content-Disposition)',
            content: {
              [route.fileType ?? 'application/octet-stream']: { schema: { type: 'string', format: 'binary' } },
            },
          },
        }
      : route.reply === 'redirect'
        ? {
            '302': {
              description: 'Redirect to the page that shows the outcome',
              headers: { Location: { schema: { type: 'string' } } },
            },
          }
        : {
            '200': {
              description:
                route.session === 'issue'
                  ? 'OK; sets the session and CSRF cookies'
                  : route.session === 'end'
                    ? 'OK; clears the session cookie and rotates the CSRF cookie'
                    : 'OK',
              headers: {
                'x-notice': { description: 'notice code to show as an info notification', schema: { type: 'string' } },
                'x-redirect': { description: 'path the web app navigates to after 50 ms', schema: { type: 'string' } },
              },
              content: { 'application/json': { schema: jsonSchema(route.response, 'output') } },
            },
          };
  return {
    summary: route.summary,
    tags: [route.tag],
    operationId: route.service
      ? `${route.service}.${route.operation}`
      : `gateway.${route.method}${route.path.replace(/[^A-Za-z0-9]+/g, '_')}`,
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: {
              [BODY_TYPES[route.bodyType ?? 'json']]: {
                schema: jsonSchema(route.body, 'input'),
              },
            },
          },
        }
      : {}),
    responses: { ...success, ...errorResponses(route) },
    security: securityOf(route),
    ...(route.caller === 'server'
      ? { 'x-caller': 'server-to-server callback: no session, no CSRF token; authenticated by its own signature' }
      : {}),
    ...(route.throttle
      ? {
          'x-throttle':
            'credentials: 5 failures per account and address, 30 per address, progressive delay per account (15-minute sliding windows)',
        }
      : {}),
  };
}

export interface OpenApiOptions {
  routes: DocRoute[];
  cookieName: string;
  version?: string;
  serverUrl?: string;
}

export function buildOpenApi(opts: OpenApiOptions): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of opts.routes) {
    const p = toOpenApiPath(route.path);
    (paths[p] ??= {})[route.method] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Whiteboard platform API',
      version: opts.version ?? '0.1.0',
      description:
        'The browser API served by the gateway. JSON only. Unsafe methods need the CSRF token from the csrf-token cookie echoed in the x-csrf-token header. Errors are ErrorBody objects.',
    },
    servers: [{ url: opts.serverUrl ?? '/' }],
    paths,
    components: {
      schemas: { ErrorBody: jsonSchema(errorBodySchema, 'output') },
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: opts.cookieName,
          description: 'opaque session token set at login (HttpOnly)',
        },
        csrfToken: {
          type: 'apiKey',
          in: 'header',
          name: 'x-csrf-token',
          description: 'value of the csrf-token cookie; required on POST/PUT/DELETE',
        },
      },
    },
  };
}
