import { LOCALES } from '@wb/proto';
import { MAIL_TEXTS } from './mailTexts';

describe('course mail texts', () => {
  const p = { teacher: 'Tina', course: 'Algebra', email: 'ada@example.com' };
  it.each([...LOCALES])('has every text in %s, with the course, the teacher and the address', (locale) => {
    const t = MAIL_TEXTS[locale];
    expect(Object.keys(t).sort()).toEqual(Object.keys(MAIL_TEXTS.en).sort());
    expect(t.subject(p)).toContain('Algebra');
    expect(t.intro(p)).toContain('Tina');
    expect(t.howTo(p)).toContain('ada@example.com');
  });
});
