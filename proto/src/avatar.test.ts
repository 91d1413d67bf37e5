import { AVATAR_COLORS, avatarColor } from './avatar';

/** WCAG relative luminance and contrast ratio */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const f = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
}
const contrast = (a: string, b: string) => {
  const [lo, hi] = [luminance(a), luminance(b)].sort((x, y) => x - y);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe('avatarColor', () => {
  it('is the same for the same user every time and differs for neighbours', () => {
    expect(avatarColor(42)).toBe(avatarColor(42));
    const first = Array.from({ length: AVATAR_COLORS.length }, (_, i) => avatarColor(1000 + i));
    expect(new Set(first).size).toBe(AVATAR_COLORS.length);
    expect(avatarColor(-3)).toMatch(/^#[0-9a-f]{6}$/);
  });
  it('every colour carries white initials (4.5:1) and stands out from the dark board (2:1)', () => {
    for (const c of AVATAR_COLORS) {
      expect(contrast(c, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(contrast(c, '#1e1e1e')).toBeGreaterThanOrEqual(2);
    }
  });
});
