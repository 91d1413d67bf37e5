/// <reference types="jest" />
import {
  buildRequest,
  callApi,
  errorDisplayText,
  readBody,
  resetSessionExpiry,
  toApiError,
  type ClientEffects,
  type ResponseLike,
} from './apiClient';

function response(status: number, body: string, headers: Record<string, string> = {}, statusText = ''): ResponseLike {
  const h = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText,
    headers: { get: (n) => h.get(n.toLowerCase()) ?? null },
    text: async () => body,
  };
}
const json = { 'content-type': 'application/json; charset=utf-8' };

function effects(res: ResponseLike | Error, cookies = 'csrf-token=tok123; other=1') {
  const calls: { url: string; init: RequestInit }[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const fx = {
    fetch: jest.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      if (res instanceof Error) throw res;
      return res;
    }),
    cookies: () => cookies,
    notice: jest.fn(),
    sessionExpired: jest.fn(),
    navigate: jest.fn(),
    assign: jest.fn(),
    setTimeout: jest.fn((fn: () => void, ms: number) => timers.push({ fn, ms })),
  } satisfies ClientEffects;
  return { fx, calls, timers };
}

beforeEach(() => resetSessionExpiry());

describe('requests', () => {
  test('every call sends and accepts JSON', () => {
    const { init } = buildRequest({ url: 'api/user' }, '');
    expect(init.headers).toMatchObject({ Accept: 'application/json', 'Content-Type': 'application/json' });
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
  });
  test('non-GET calls carry the csrf token from the cookie and a JSON body', () => {
    const { url, init } = buildRequest(
      { url: 'api/user/settings', method: 'post', body: { boardMinimap: 1 } },
      'a=b; csrf-token=abc.def',
    );
    expect(url).toBe('/api/user/settings');
    expect((init.headers as Record<string, string>)['x-csrf-token']).toBe('abc.def');
    expect(init.body).toBe('{"boardMinimap":1}');
  });
  test('the __Host- cookie is used over https', () => {
    const { init } = buildRequest({ url: '/x', method: 'DELETE' }, '__Host-csrf-token=h1');
    expect((init.headers as Record<string, string>)['x-csrf-token']).toBe('h1');
  });
  test('GET carries no token', () => {
    const { init } = buildRequest({ url: '/x' }, 'csrf-token=abc');
    expect((init.headers as Record<string, string>)['x-csrf-token']).toBeUndefined();
  });
});

describe('responses', () => {
  test('JSON is parsed, anything else is returned as text', async () => {
    expect(await readBody(response(200, '{"a":1}', json))).toEqual({ a: 1 });
    expect(await readBody(response(200, 'plain', { 'content-type': 'text/plain' }))).toBe('plain');
  });
  test('a notice header shows an info notice', async () => {
    const { fx } = effects(response(200, '{"ok":true}', { ...json, 'x-notice': 'PASSWORD_CHANGED' }));
    expect(await callApi({ url: '/api/user/password', method: 'POST' }, fx)).toEqual({ data: { ok: true } });
    expect(fx.notice).toHaveBeenCalledWith('PASSWORD_CHANGED');
  });
  test('a redirect header navigates after 50 ms', async () => {
    const { fx, timers } = effects(response(200, '{}', { ...json, 'x-redirect': '/email-verified' }));
    await callApi({ url: '/api/x' }, fx);
    expect(fx.navigate).not.toHaveBeenCalled();
    expect(timers.map((t) => t.ms)).toEqual([50]);
    timers[0]!.fn();
    expect(fx.navigate).toHaveBeenCalledWith('/email-verified');
  });
  test('401: "session expired" toast, error "Session expired", site root after 2 s, only once', async () => {
    const { fx, timers } = effects(
      response(401, '{"message":"Session expired","code":"ERR_UNAUTHORIZED","statusCode":401}', json),
    );
    const result = await callApi({ url: '/api/user/settings', method: 'POST' }, fx);
    expect(result).toEqual({ error: { message: 'Session expired', code: 'ERR_UNAUTHORIZED', status: 401 } });
    expect(fx.sessionExpired).toHaveBeenCalledTimes(1);
    expect(timers.map((t) => t.ms)).toEqual([2000]);
    timers[0]!.fn();
    expect(fx.assign).toHaveBeenCalledWith('/');
    await callApi({ url: '/api/user/settings', method: 'POST' }, fx);
    expect(fx.sessionExpired).toHaveBeenCalledTimes(1);
  });
  test('a network failure is an error with status 0', async () => {
    const { fx } = effects(new Error('offline'));
    expect(await callApi({ url: '/api/user' }, fx)).toEqual({
      error: { message: 'offline', code: 'ERR_NETWORK', status: 0 },
    });
  });
});

describe('error extraction (spec §8)', () => {
  test('message from message, else error, else the status text', () => {
    expect(toApiError({ message: 'm', error: 'e' }, 400, 'Bad Request').message).toBe('m');
    expect(toApiError({ error: 'e' }, 400, 'Bad Request').message).toBe('e');
    expect(toApiError({}, 400, 'Bad Request').message).toBe('Bad Request');
  });
  test('code from code, else statusCode, default ERR_UNKNOWN; the status is kept', () => {
    expect(toApiError({ code: 'ERR_EMAIL_TAKEN', statusCode: 409 }, 409, '')).toMatchObject({
      code: 'ERR_EMAIL_TAKEN',
      status: 409,
    });
    expect(toApiError({ statusCode: 418 }, 418, '')).toMatchObject({ code: '418', status: 418 });
    expect(toApiError('oops', 500, 'Internal')).toEqual({ message: 'Internal', code: 'ERR_UNKNOWN', status: 500 });
  });
  test('fields are kept for forms', async () => {
    const { fx } = effects(
      response(
        400,
        '{"message":"Invalid input: email","code":"ERR_INVALID_INPUT","statusCode":400,"fields":{"email":"bad"}}',
        json,
      ),
    );
    expect(await callApi({ url: '/api/auth/signup', method: 'POST' }, fx)).toEqual({
      error: { message: 'Invalid input: email', code: 'ERR_INVALID_INPUT', status: 400, fields: { email: 'bad' } },
    });
  });
});

describe('error display', () => {
  const none = () => undefined;
  test('FST_ERR_VALIDATION shows only the message', () => {
    expect(errorDisplayText({ message: 'body must have name', code: 'FST_ERR_VALIDATION', status: 400 }, none)).toBe(
      'body must have name',
    );
  });
  test('other coded errors show message and code, translated when known', () => {
    expect(errorDisplayText({ message: 'Taken', code: 'ERR_EMAIL_TAKEN', status: 409 }, none)).toBe(
      'Taken (ERR_EMAIL_TAKEN)',
    );
    expect(errorDisplayText({ message: 'Taken', code: 'ERR_EMAIL_TAKEN', status: 409 }, () => 'Vergeben')).toBe(
      'Vergeben (ERR_EMAIL_TAKEN)',
    );
  });
  test('strings as they are, other values as JSON', () => {
    expect(errorDisplayText('plain text', none)).toBe('plain text');
    expect(errorDisplayText({ weird: 1 }, none)).toBe('{"weird":1}');
  });
});
