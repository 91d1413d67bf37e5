import { createHash } from 'node:crypto';
import { newSessionToken, sessionIdOf } from './sessions';

describe('session tokens', () => {
  it('are 32 random bytes in base64url (43 chars, cookie-safe)', () => {
    const token = newSessionToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
  });

  it('do not repeat', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newSessionToken()));
    expect(tokens.size).toBe(1000);
  });

  it('map to a sha256 hex session id that is stable and not the token', () => {
    const token = newSessionToken();
    const id = sessionIdOf(token);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(id).toBe(sessionIdOf(token));
    expect(id).toBe(createHash('sha256').update(token).digest('hex'));
    expect(id).not.toContain(token);
    expect(sessionIdOf(newSessionToken())).not.toBe(id);
  });

  it('hash a known vector', () => {
    expect(sessionIdOf('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
