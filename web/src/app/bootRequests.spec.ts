/**
 * @jest-environment node
 */
import { BOOT_URLS, isSignedInUser, startBootRequests, takeBootResponse, TAKE_WITHIN_MS } from './bootRequests';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function effects(answers: Record<string, () => Promise<Response>>, remembered = false) {
  const asked: string[] = [];
  const memory = { signedIn: remembered };
  return {
    asked,
    memory,
    fx: {
      rememberedSignedIn: () => memory.signedIn,
      rememberSignedIn: (yes: boolean) => void (memory.signedIn = yes),
      fetch: (url: string) => {
        asked.push(url);
        return answers[url]?.() ?? Promise.reject(new TypeError('no answer'));
      },
      cookies: () => '',
      now: () => 1000,
    },
  };
}
const GET: RequestInit = { method: 'GET' };

test('a signed-in session: user, then settings and plan; the app takes each once, body intact', async () => {
  const { asked, fx, memory } = effects({
    [BOOT_URLS.user]: async () => json({ id: 7, name: 'Ada' }),
    [BOOT_URLS.settings]: async () => json({ role: 'teacher' }),
    [BOOT_URLS.plan]: async () => json({ id: 'pro' }),
  });
  await expect(startBootRequests(fx)).resolves.toBe(true);
  expect(asked).toEqual([BOOT_URLS.user, BOOT_URLS.settings, BOOT_URLS.plan]);
  expect(memory.signedIn).toBe(true);
  const user = takeBootResponse(BOOT_URLS.user, GET, 1500);
  await expect(user!.then((r) => r.json())).resolves.toEqual({ id: 7, name: 'Ada' }); // read once by boot, still readable
  expect(takeBootResponse(BOOT_URLS.user, GET, 1500)).toBeUndefined(); // the next GET asks the server
  expect(takeBootResponse(BOOT_URLS.settings, { method: 'POST' }, 1500)).toBeUndefined(); // only GETs
  await expect(takeBootResponse(BOOT_URLS.settings, {}, 1500)!.then((r) => r.json())).resolves.toEqual({
    role: 'teacher',
  });
});

test('a guest: only the user is asked; a boot response taken too late is not used', async () => {
  const { asked, fx } = effects({ [BOOT_URLS.user]: async () => json({ id: 0 }) });
  await expect(startBootRequests(fx)).resolves.toBe(false);
  expect(asked).toEqual([BOOT_URLS.user]);
  expect(takeBootResponse(BOOT_URLS.plan, GET, 1500)).toBeUndefined();
  expect(takeBootResponse(BOOT_URLS.user, GET, 1000 + TAKE_WITHIN_MS + 1)).toBeUndefined();
});

test('a failed or refused session counts as not signed in, and the app sees the same failure', async () => {
  const refused = effects({ [BOOT_URLS.user]: async () => json({ message: 'down' }, 503) });
  await expect(startBootRequests(refused.fx)).resolves.toBe(false);
  expect((await takeBootResponse(BOOT_URLS.user, GET, 1001)!).status).toBe(503);

  const offline = effects({});
  await expect(startBootRequests(offline.fx)).resolves.toBe(false);
  await expect(takeBootResponse(BOOT_URLS.user, GET, 1001)).rejects.toThrow('no answer');
});

test('signed in last time: settings and plan leave with the session; a guest answer drops them', async () => {
  const answers = {
    [BOOT_URLS.user]: async () => json({ id: 7 }),
    [BOOT_URLS.settings]: async () => json({ role: 'teacher' }),
    [BOOT_URLS.plan]: async () => json({ id: 'pro' }),
  };
  const again = effects(answers, true);
  const signedIn = startBootRequests(again.fx);
  expect(again.asked).toEqual([BOOT_URLS.user, BOOT_URLS.settings, BOOT_URLS.plan]); // before the answer
  await expect(signedIn).resolves.toBe(true);
  expect(takeBootResponse(BOOT_URLS.plan, GET, 1001)).toBeDefined();

  const signedOut = effects({ ...answers, [BOOT_URLS.user]: async () => json({ id: 0 }) }, true);
  await expect(startBootRequests(signedOut.fx)).resolves.toBe(false);
  expect(signedOut.memory.signedIn).toBe(false);
  // a sign-in after this must not get the guess's answers
  expect(takeBootResponse(BOOT_URLS.settings, GET, 1001)).toBeUndefined();
  expect(takeBootResponse(BOOT_URLS.plan, GET, 1001)).toBeUndefined();
});

test('isSignedInUser', () => {
  expect(isSignedInUser({ id: 3 })).toBe(true);
  expect(isSignedInUser({ id: 0 })).toBe(false);
  expect(isSignedInUser(null)).toBe(false);
  expect(isSignedInUser('x')).toBe(false);
});
