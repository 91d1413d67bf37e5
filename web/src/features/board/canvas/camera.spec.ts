/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** Z-order keys and the camera (tools, geometry and the scene have their own spec files). */
import { panBy, toScreen, toWorld, zoomAt } from './camera';
import { isOrderKey, keyAbove, keyBetween } from './fractionalIndex';

describe('fractional index (z-order)', () => {
  it('keys sort between their neighbours, stay short when appending, and are valid', () => {
    let top: string | null = null;
    const keys: string[] = [];
    for (let i = 0; i < 5000; i++) keys.push((top = keyAbove(top)));
    expect([...keys].sort()).toEqual(keys);
    expect(keys.at(-1)!.length).toBeLessThanOrEqual(4);
    expect(keys.every(isOrderKey)).toBe(true);
    // insertions between random neighbours keep the order
    const list = ['a0', 'a1'];
    let seed = 7;
    for (let i = 0; i < 500; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const at = seed % (list.length + 1);
      const k = keyBetween(list[at - 1] ?? null, list[at] ?? null);
      list.splice(at, 0, k);
    }
    expect([...list].sort()).toEqual(list);
    expect(new Set(list).size).toBe(list.length);
    expect(keyBetween(null, 'a0') < 'a0').toBe(true);
    expect(keyAbove('not a key!')).toBe('a0'); // foreign keys do not break drawing on top
  });
});

describe('camera', () => {
  it('screen ↔ world round-trip; zoom keeps the point under the pointer', () => {
    const c = { x: 100, y: -50, zoom: 2 };
    const w = toWorld(c, 300, 200);
    expect(toScreen(c, w.x, w.y)).toEqual({ x: 300, y: 200 });
    const z = zoomAt(c, 300, 200, 1.5);
    expect(z.zoom).toBe(3);
    const w2 = toWorld(z, 300, 200);
    expect(w2.x).toBeCloseTo(w.x);
    expect(w2.y).toBeCloseTo(w.y);
    expect(panBy(c, 20, 10)).toEqual({ x: 90, y: -55, zoom: 2 });
    expect(zoomAt(c, 0, 0, 1e6).zoom).toBe(20);
  });
});
