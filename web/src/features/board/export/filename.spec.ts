/// <reference types="jest" />
import { exportFileName, MAX_NAME_LENGTH } from './filename';

test('the title becomes a safe file name with the extension', () => {
  expect(exportFileName('Algebra – week 3', 'pdf')).toBe('Algebra – week 3.pdf');
  expect(exportFileName('a/b\\c:d*e?f"g<h>i|j', 'png')).toBe('a b c d e f g h i j.png');
  expect(exportFileName('  line\nbreak\ttab  ', 'svg')).toBe('line break tab.svg');
  expect(exportFileName('../../etc/passwd', 'svg')).toBe('etc passwd.svg');
  expect(exportFileName('Доска 1', 'PDF')).toBe('Доска 1.pdf');
});

test('empty, dotted and reserved titles fall back', () => {
  expect(exportFileName('', 'png')).toBe('board.png');
  expect(exportFileName(' ... ', 'png')).toBe('board.png');
  expect(exportFileName('///', 'png')).toBe('board.png');
  expect(exportFileName('CON', 'png')).toBe('CON_.png');
  expect(exportFileName('name.', 'png')).toBe('name.png');
});

test('long titles are cut without splitting a character', () => {
  const name = exportFileName('😀'.repeat(200), 'png');
  expect(Array.from(name.slice(0, -4))).toHaveLength(MAX_NAME_LENGTH);
  expect(name.endsWith('😀.png')).toBe(true);
});
