import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { callTokenRoom } from '@wb/proto';
import { janusTokenExpiry, roomIdOf, roomSecretOf, signJanusToken, turnCredentials, verifyJanusToken } from './tokens';

describe('janus tokens', () => {
  const secret = 'a-token-secret-of-some-length';
  it('has the janus signed-token format', () => {
    const token = signJanusToken(secret, 1_700_000_000_900, { nonce: 'n0nce' });
    const [data, sig] = token.split(':');
    expect(data).toBe('1700000000,janus,janus.plugin.videoroom,n0nce');
    expect(sig).toBe(createHmac('sha1', secret).update(data!).digest('base64'));
    expect(janusTokenExpiry(token)).toBe(1_700_000_000_000);
  });
  it('verifies signature and expiry', () => {
    const token = signJanusToken(secret, 2_000_000);
    expect(verifyJanusToken(secret, token, 1_000_000)).toBe(true);
    expect(verifyJanusToken(secret, token, 2_000_000)).toBe(false);
    expect(verifyJanusToken('another-secret-entirely', token, 1_000_000)).toBe(false);
    expect(verifyJanusToken(secret, token.replace('videoroom', 'streaming'), 1_000_000)).toBe(false);
    // unique even when minted in the same second
    expect(signJanusToken(secret, 2_000_000)).not.toBe(token);
    expect(janusTokenExpiry('not a token')).toBeNull();
  });
  it('names its room, under the signature', () => {
    const token = signJanusToken(secret, 2_000_000, { room: 123456789012, nonce: 'n' });
    expect(token.split(':')[0]).toBe('2000,janus,janus.plugin.videoroom,room123456789012,n');
    expect(callTokenRoom(token)).toBe(123456789012);
    expect(verifyJanusToken(secret, token, 1_000_000)).toBe(true);
    // another room is another signature
    expect(verifyJanusToken(secret, token.replace('room123456789012', 'room1'), 1_000_000)).toBe(false);
    expect(callTokenRoom(signJanusToken(secret, 2_000_000))).toBeNull();
    expect(callTokenRoom('room5')).toBeNull();
  });
});

describe('turn credentials', () => {
  it('follows the TURN REST API scheme', () => {
    const c = turnCredentials('turn-secret', 'u42', 1_700_000_000_000);
    expect(c.username).toBe('1700000000:u42');
    expect(c.credential).toBe(createHmac('sha1', 'turn-secret').update('1700000000:u42').digest('base64'));
  });
});

describe('room ids', () => {
  it('are stable, positive, safe integers that differ between boards', () => {
    const a = roomIdOf('board-a');
    expect(roomIdOf('board-a')).toBe(a);
    expect(Number.isSafeInteger(a) && a > 0 && a < 2 ** 48).toBe(true);
    expect(roomIdOf('board-b')).not.toBe(a);
    expect(roomSecretOf('k', a)).toBe(roomSecretOf('k', a));
    expect(roomSecretOf('k', a)).not.toBe(roomSecretOf('other', a));
  });
});
