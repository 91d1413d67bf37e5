/**
 * Property test of the whole HTTP surface (issue 11): walks the gateway's own OpenAPI document and,
 * for every route, sends params, queries and bodies derived from its schemas — sometimes valid,
 * mostly broken in the usual ways (wrong types, NUL and lone surrogates in strings, huge and
 * negative numbers, unknown, `__proto__` and `constructor` keys, deep nesting, bad
 * percent-encoding, bad content-encoding) — as a signed-in person and as a guest, through the real
 * gateway, auth, boards, teams, billing, files and calls services (billing with its in-process fake
 * Braintree; calls with a real Janus on loopback), PostgreSQL, NATS and Redis.
 *
 * Asserted for every request: never a 5xx; every error is JSON `{ message, code, statusCode }`
 * with the response's status; afterwards the platform is healthy and no service logged an
 * unhandled error. `FUZZ_RUNS` raises the number of requests (default 250).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Browser, startStack, uniqueEmail } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
// eslint-disable-next-line no-restricted-imports -- a test harness (Janus on a free port), not service code
import { startJanus, type StartedJanus } from '@wb/calls/dist/testing/janus';

const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const PASSWORD = 'correct horse battery';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON Schema as served
type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  pathParams: { name: string; schema: Schema }[];
  queryParams: { name: string; schema: Schema }[];
  body: Schema | undefined;
}

let stack: RunningStack;
let janus: StartedJanus | undefined;
let filesDir: string | undefined;
let operations: Operation[];
let teacher: Browser;
let teacherEmail: string;
let boardId: string;

beforeAll(async () => {
  filesDir = await mkdtemp(join(tmpdir(), 'wb-fuzz-files-'));
  // the call routes reach Janus for a board whose owner may call (signalling works on loopback)
  janus = await startJanus();
  stack = await startStack({
    deployables: [
      'services/auth',
      'services/boards',
      'services/teams',
      'services/billing',
      'services/files',
      'services/calls',
      'services/courses',
      'gateway',
    ],
    env: {
      // uploads and file routes: the gateway and the files service share one store
      FILES_STORE: 'fs',
      FILES_DIR: filesDir,
      JANUS_WS_URL: janus.wsUrl,
      JANUS_API_SECRET: janus.secrets.apiSecret,
      JANUS_TOKEN_SECRET: janus.secrets.tokenSecret,
      JANUS_ADMIN_SECRET: janus.secrets.adminSecret,
    },
  });
  teacherEmail = uniqueEmail('fuzz');
  teacher = new Browser(stack.gatewayUrl);
  const signed = await teacher.post('/api/auth/signup', {
    name: 'Fuzz Teacher',
    email: teacherEmail,
    password: PASSWORD,
  });
  expect(signed.status).toBe(200);
  boardId = ((await teacher.post('/api/boards', { title: 'fuzz target' })).body as { id: string }).id;
  const doc = (await teacher.get('/api/openapi.json')).body as { paths: Record<string, Record<string, Schema>> };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const params = (op.parameters ?? []) as { name: string; in: string; schema: Schema }[];
      return {
        // counterexamples print the route, not its whole schema
        [fc.toStringMethod]: () => `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        body: op.requestBody?.content?.['application/json']?.schema as Schema | undefined,
      };
    }),
  );
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await janus?.stop();
  if (filesDir) await rm(filesDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// values from schemas, and the usual ways to break them

const NASTY_STRINGS = [
  'a\u0000b',
  '\u0000',
  'x\ud800',
  '\udfff',
  '',
  ' ',
  'x'.repeat(5000),
  '%',
  '%E0%A4%A',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; DROP TABLE users; --",
  '😀'.repeat(50),
  '\u202e\u200b',
];
const NASTY_NUMBERS = [-1, 0, 2 ** 31, 2 ** 31 - 1, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.5, 1e-300];

/** a JSON value nested `depth` deep */
const deep = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

/** an object whose own key `__proto__` survives JSON.stringify (a literal would set the prototype) */
const withKey = (base: unknown, key: string, value: unknown): unknown => {
  const o: Record<string, unknown> =
    base !== null && typeof base === 'object' && !Array.isArray(base) ? { ...base } : {};
  Object.defineProperty(o, key, { value, enumerable: true, configurable: true, writable: true });
  return o;
};

const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...NASTY_STRINGS, ...NASTY_NUMBERS, null, true, [], {}, [null], { '': '' }),
  fc.integer({ min: 33, max: 200 }).map(deep),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
);

function valid(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => valid(s, depth + 1)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const type = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const one = (t: string | undefined): fc.Arbitrary<unknown> => {
    switch (t) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({
          min: Math.max(schema.minimum ?? -1000, -(2 ** 31)),
          max: Math.min(schema.maximum ?? 1000, 2 ** 31 - 1),
        });
      case 'number':
        return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
      case 'string':
        if (schema.format === 'email') return fc.emailAddress();
        return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 60) });
      case 'array':
        return fc.array(valid(schema.items as Schema, depth + 1), { maxLength: 3 });
      case 'object': {
        const props = (schema.properties ?? {}) as Record<string, Schema>;
        const required = new Set((schema.required ?? []) as string[]);
        return fc.record(Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valid(s, depth + 1)])), {
          requiredKeys: [...required].filter((k) => k in props),
        });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  };
  return fc.oneof(...type.map(one));
}

/** `value` with one part broken: a field replaced, an unknown/prototype key added, or the whole thing */
function broken(schema: Schema | undefined): fc.Arbitrary<unknown> {
  return valid(schema).chain((value) => {
    const keys = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
    const options: fc.Arbitrary<unknown>[] = [
      nasty,
      fc
        .constantFrom('__proto__', 'constructor', 'prototype', 'bogus')
        .chain((k) => nasty.map((v) => withKey(value, k, v))),
    ];
    if (keys.length)
      options.push(
        fc.tuple(fc.constantFrom(...keys), nasty).map(([k, v]) => ({ ...(value as object), [k]: v })),
        fc.constantFrom(...keys).map((k) => withKey(value, '__proto__', (value as Record<string, unknown>)[k])),
      );
    return fc.oneof(...options);
  });
}

/** percent-encoding that cannot throw: a lone surrogate goes out as its (invalid) WTF-8 bytes */
function encodeLoose(s: string): string {
  return s
    .split(/([\uD800-\uDFFF])/u)
    .map((part, i) => {
      if (i % 2 === 0) return encodeURIComponent(part);
      const c = part.charCodeAt(0);
      return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');
}

function pathValue(schema: Schema, realBoard: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(realBoard),
    valid(schema).map((v) => encodeLoose(String(v))),
    fc.constantFrom(
      '%',
      '%E0%A4%A',
      '%00',
      '%ud800',
      '%2e%2e',
      'a%2Fb',
      '..',
      'x'.repeat(300),
      '0',
      '-1',
      '99999999999',
    ),
    fc.string({ maxLength: 20 }).map(encodeLoose),
  );
}

interface Attempt {
  guest: boolean;
  op: Operation;
  path: string;
  query: string;
  body: string | undefined;
  encoding: 'none' | 'gzip' | 'bad-gzip' | 'bad-deflate' | 'text/plain';
}

function attempts(): fc.Arbitrary<Attempt> {
  return fc.constantFrom(...operations).chain((op) =>
    fc.record({
      guest: fc.boolean(),
      op: fc.constant(op),
      path: fc
        .tuple(...op.pathParams.map((p) => pathValue(p.schema, boardId)))
        .map((values) => op.pathParams.reduce((path, p, i) => path.replace(`{${p.name}}`, values[i]!), op.path)),
      query: fc
        .tuple(
          ...op.queryParams.map((p) =>
            fc
              .option(fc.oneof(valid(p.schema), nasty), { nil: undefined })
              .map((v) =>
                v === undefined ? '' : `${p.name}=${encodeLoose(typeof v === 'string' ? v : JSON.stringify(v))}`,
              ),
          ),
          fc.constantFrom('', 'x=%', 'format=%00', '__proto__=1', 'a[b]=1'),
        )
        .map((parts) => parts.filter(Boolean).join('&')),
      body:
        op.method === 'GET' || op.method === 'DELETE'
          ? fc.constant(undefined)
          : fc
              .oneof({ weight: 1, arbitrary: valid(op.body) }, { weight: 4, arbitrary: broken(op.body) })
              .map((v) => JSON.stringify(v)),
      encoding: fc.constantFrom('none', 'none', 'none', 'gzip', 'bad-gzip', 'bad-deflate', 'text/plain'),
    }),
  );
}

/** signs the teacher in again when a fuzzed call logged them out */
async function ensureSignedIn(): Promise<void> {
  if (teacher.cookie('sid')) return;
  teacher = new Browser(stack.gatewayUrl);
  const res = await teacher.post('/api/auth/login', { email: teacherEmail, password: PASSWORD });
  if (res.status !== 200) throw new Error(`could not sign in again: ${res.status} ${JSON.stringify(res.body)}`);
}

async function send(a: Attempt): Promise<{ status: number; type: string; text: string }> {
  let browser: Browser;
  if (a.guest) {
    browser = new Browser(stack.gatewayUrl);
    await browser.get('/api/user'); // anonymous cookie + CSRF token, as a page load gives
  } else {
    await ensureSignedIn();
    browser = teacher;
  }
  const headers: Record<string, string> = { accept: 'application/json', cookie: browser.cookieHeader() };
  const csrf = browser.cookie('csrf-token');
  if (csrf) headers['x-csrf-token'] = csrf;
  let payload: string | Buffer | undefined = a.body;
  if (payload !== undefined) {
    headers['content-type'] = a.encoding === 'text/plain' ? 'text/plain' : 'application/json';
    if (a.encoding === 'gzip') payload = gzipSync(payload);
    if (a.encoding === 'bad-gzip') headers['content-encoding'] = 'gzip';
    if (a.encoding === 'bad-deflate') headers['content-encoding'] = 'deflate';
    if (a.encoding === 'gzip') headers['content-encoding'] = 'gzip';
  }
  const url = `${stack.gatewayUrl}${a.path}${a.query ? `?${a.query}` : ''}`;
  const res = await fetch(url, { method: a.op.method, headers, body: payload, redirect: 'manual' });
  // keep the teacher's cookie jar current (a fuzzed login/logout may change the session)
  if (!a.guest) for (const line of res.headers.getSetCookie()) teacher.storeSetCookie(line);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

describe('every route of the OpenAPI document, with derived and broken input', () => {
  it(`never answers 5xx; every error is a JSON body with a code (${RUNS} requests)`, async () => {
    expect(operations.length).toBeGreaterThan(20);
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(attempts(), async (a) => {
        seen.add(`${a.op.method} ${a.op.path}`);
        const res = await send(a);
        const where = `${a.op.method} ${a.path}?${a.query} (${a.guest ? 'guest' : 'teacher'}, ${a.encoding}) body ${a.body?.slice(0, 200)}`;
        if (res.status >= 500) throw new Error(`${res.status} for ${where}: ${res.text.slice(0, 300)}`);
        if (res.status >= 400) {
          expect(res.type).toMatch(/application\/json/);
          const body = JSON.parse(res.text) as { code?: unknown; message?: unknown; statusCode?: unknown };
          expect({ code: typeof body.code, message: typeof body.message, statusCode: body.statusCode }).toEqual({
            code: 'string',
            message: 'string',
            statusCode: res.status,
          });
        }
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    // the walk reached most of the surface
    expect(seen.size).toBeGreaterThan(Math.min(operations.length, RUNS / 4) * 0.8);
  }, 600_000);

  it('leaves the platform healthy: health ok, and no service logged an unhandled error', async () => {
    expect((await new Browser(stack.gatewayUrl).get('/api/health')).status).toBe(200);
    await ensureSignedIn();
    expect((await teacher.get('/api/boards')).status).toBe(200);
    for (const dir of ['gateway', 'services/auth', 'services/boards', 'services/teams', 'services/billing']) {
      const failures = stack.logs(dir).filter((line) => /"level":(50|60)/.test(line));
      expect({ dir, failures }).toEqual({ dir, failures: [] });
    }
  });
});
