/// <reference types="jest" />
/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, LOCALES, NOTICE_CODES } from '@wb/proto';
import { ROUTES } from '../app/routes';
import { NAMESPACES } from './i18n';

type Tree = { [key: string]: string | Tree };
const load = (l: string, ns?: string) =>
  JSON.parse(readFileSync(join(__dirname, 'locales', ...(ns ? [ns] : []), `${l}.json`), 'utf8')) as Tree;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}
const placeholders = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

const en = flatten(load('en'));

/** the main file and each feature namespace (`locales/<ns>/<lng>.json`, see NAMESPACES) */
const FILES = [undefined, ...NAMESPACES];
const cases = FILES.flatMap((ns) => LOCALES.filter((l) => l !== 'en').map((l) => [l, ns ?? 'translation'] as const));

describe.each(cases)('locale %s, namespace %s', (locale, namespace) => {
  const ns = namespace === 'translation' ? undefined : namespace;
  const en = flatten(load('en', ns));
  const strings = flatten(load(locale, ns));
  test('has exactly the keys of English', () => {
    expect([...en.keys()].filter((k) => !strings.has(k))).toEqual([]);
    expect([...strings.keys()].filter((k) => !en.has(k))).toEqual([]);
  });
  test('is really translated: at most a few strings (names, codes) equal the English text', () => {
    const same = [...strings].filter(([k, v]) => v === en.get(k) && /[a-z]{3}/.test(v)).length;
    expect(same / strings.size).toBeLessThan(0.1);
  });
  test('no empty strings, same {{placeholders}}', () => {
    for (const [k, v] of strings) {
      expect([k, v.trim().length > 0]).toEqual([k, true]);
      expect([k, placeholders(v)]).toEqual([k, placeholders(en.get(k) ?? '')]);
    }
  });
});

test('every error code and notice of the catalogue is translated', () => {
  expect(ERROR_CODES.filter((c) => !en.has(`errors.${c}`))).toEqual([]);
  expect(NOTICE_CODES.filter((c) => !en.has(`notices.${c}`))).toEqual([]);
});

test('every route title and description exists', () => {
  const keys = ROUTES.flatMap((r) => [r.title, r.description].filter((k): k is string => !!k));
  expect(keys.filter((k) => !en.has(k))).toEqual([]);
});
