import { signActor, verifyActor } from './actor';

const SECRET = 'a-test-secret-that-is-long-enough-0000';

describe('signed actor header (A1)', () => {
  it('accepts what the gateway signed, until it expires', () => {
    const h = signActor(SECRET, { userId: 7, name: 'Ann' }, 1000, 60_000);
    expect(verifyActor(SECRET, h, 2000)).toMatchObject({ userId: 7, name: 'Ann' });
    expect(verifyActor(SECRET, h, 61_001)).toBeNull();
  });
  it('refuses forged, tampered and missing headers', () => {
    const h = signActor(SECRET, { userId: 7 }, 1000);
    expect(verifyActor('another-secret-that-is-long-enough-000', h, 1000)).toBeNull();
    const [body, mac] = h.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ userId: 1, exp: 9e12 })).toString('base64url');
    expect(verifyActor(SECRET, `${forgedBody}.${mac}`, 1000)).toBeNull();
    expect(verifyActor(SECRET, `${body}.`, 1000)).toBeNull();
    expect(verifyActor(SECRET, undefined, 1000)).toBeNull();
    expect(verifyActor(SECRET, 'x'.repeat(5000), 1000)).toBeNull();
  });
});
