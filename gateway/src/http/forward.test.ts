import { describe, expect, it } from '@jest/globals';
import { acceptsGzip } from './forward';

describe('acceptsGzip (which browsers get pre-compressed pass-through replies)', () => {
  it('takes what browsers send', () => {
    expect(acceptsGzip('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8, *;q=0.1')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
  });
  it('refuses what does not accept gzip', () => {
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false); // an explicit refusal beats the wildcard
    expect(acceptsGzip('*;q=0')).toBe(false);
  });
});
