import { pageDpi, parsePpm } from './pdf';

describe('parsePpm', () => {
  it('reads a binary PPM with a comment in its header', () => {
    const ppm = Buffer.concat([Buffer.from('P6\n# poppler\n2 1\n255\n'), Buffer.from([255, 0, 0, 0, 0, 255])]);
    const raster = parsePpm(ppm);
    expect(raster).toMatchObject({ width: 2, height: 1 });
    expect([...raster.data]).toEqual([255, 0, 0, 0, 0, 255]);
  });

  it('refuses other formats and truncated pixels', () => {
    expect(() => parsePpm(Buffer.from('P3\n1 1\n255\n0 0 0'))).toThrow('not a binary PPM');
    expect(() => parsePpm(Buffer.from('P6\n2 2\n255\n\0\0\0'))).toThrow('truncated PPM');
    expect(() => parsePpm(Buffer.from('P6\n1 1\n65535\n\0\0\0\0\0\0'))).toThrow('unsupported PPM header');
  });
});

describe('pageDpi', () => {
  const opts = { dpi: 150, maxPagePixels: 16_000_000 };
  it('draws ordinary pages at 150 DPI', () => {
    expect(pageDpi({ width: 612, height: 792 }, opts)).toBe(150);
  });
  it('lowers the resolution of huge pages so no raster passes ~16 MP', () => {
    const size = { width: 14_400, height: 14_400 }; // 200 × 200 inches
    const dpi = pageDpi(size, opts);
    expect(dpi).toBeLessThan(150);
    expect(((size.width / 72) * dpi) ** 2).toBeLessThanOrEqual(16_000_000);
  });
});
