import { describe, expect, it } from '@jest/globals';
import { OWASP_SCRYPT_PARAMS, parsePasswordHash, PasswordHasher } from './password';

// Low cost for most cases (each OWASP-cost hash takes ~0.3 s on a shared 2-core machine).
const cheap = new PasswordHasher({ params: { logN: 10, r: 8, p: 1 } });

describe('PasswordHasher', () => {
  it('hashes at OWASP cost by default into a self-describing string', async () => {
    const hasher = new PasswordHasher();
    const stored = await hasher.hash('correct horse battery');
    expect(stored).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    const parsed = parsePasswordHash(stored)!;
    expect(parsed.params).toEqual(OWASP_SCRYPT_PARAMS);
    expect(parsed.salt).toHaveLength(32);
    expect(parsed.key).toHaveLength(32);
    expect(await hasher.verify('correct horse battery', stored)).toEqual({ ok: true, needsRehash: false });
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await cheap.hash('s3cret-password');
    expect((await cheap.verify('s3cret-password', stored)).ok).toBe(true);
    expect((await cheap.verify('s3cret-passworD', stored)).ok).toBe(false);
    expect((await cheap.verify('', stored)).ok).toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    expect(await cheap.hash('same password')).not.toEqual(await cheap.hash('same password'));
  });

  it('treats composed and decomposed unicode alike (NFKC)', async () => {
    const stored = await cheap.hash('caf\u00e9-latte');
    expect((await cheap.verify('cafe\u0301-latte', stored)).ok).toBe(true);
  });

  it('asks for a rehash when the stored parameters are older than the current ones, only on success', async () => {
    const stored = await cheap.hash('old-cost-password');
    const stronger = new PasswordHasher({ params: { logN: 11, r: 8, p: 1 } });
    expect(await stronger.verify('old-cost-password', stored)).toEqual({ ok: true, needsRehash: true });
    expect(await stronger.verify('wrong-password', stored)).toEqual({ ok: false, needsRehash: false });
    const rehashed = await stronger.hash('old-cost-password');
    expect(parsePasswordHash(rehashed)!.params.logN).toBe(11);
    expect(await stronger.verify('old-cost-password', rehashed)).toEqual({ ok: true, needsRehash: false });
  });

  it('refuses malformed stored hashes without throwing', async () => {
    for (const bad of [
      '',
      'plain',
      '$scrypt$ln=99,r=8,p=1$abc$def',
      '$bcrypt$xyz',
      '$scrypt$ln=10,r=8,p=1$AAAA$AAAA',
    ]) {
      expect(await cheap.verify('anything', bad)).toEqual({ ok: false, needsRehash: false });
    }
  });

  it('spends hashing time on unknown accounts (verifyDummy resolves and never matches anything)', async () => {
    await expect(cheap.verifyDummy('whatever')).resolves.toBeUndefined();
  });

  it('never runs more hashes at once than allowed', async () => {
    const limited = new PasswordHasher({ params: { logN: 10, r: 8, p: 1 }, maxConcurrent: 1 });
    const results = await Promise.all(['a-password', 'b-password', 'c-password'].map((p) => limited.hash(p)));
    expect(new Set(results).size).toBe(3);
  });
});
