/**
 * @jest-environment node
 */
/// <reference types="jest" />
/** The registry lists one module per proto kind, and the kind modules stay below the dispatchers. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHAPE_KINDS } from '@wb/proto';
import { SHAPE_UTILS, utilOf } from './registry';
import { unknownUtil } from './unknown';

test('every kind in proto has its module, registered under its own kind', () => {
  expect(Object.keys(SHAPE_UTILS).sort()).toEqual([...SHAPE_KINDS].sort());
  for (const kind of SHAPE_KINDS) expect(utilOf(kind).kind).toBe(kind);
});

test('a kind this version does not know gets the stand-in (also for names on Object.prototype)', () => {
  expect(utilOf('hologram')).toBe(unknownUtil);
  expect(utilOf('constructor')).toBe(unknownUtil);
  expect(utilOf('toString')).toBe(unknownUtil);
});

test('what varies by kind is where the editor used to list kinds', () => {
  const kinds = (pick: (k: (typeof SHAPE_KINDS)[number]) => boolean) => SHAPE_KINDS.filter(pick).sort();
  // the select tool's double click and the board view's editors
  expect(kinds((k) => utilOf(k).editing?.mode === 'text')).toEqual(['shape', 'sticky', 'text']);
  expect(kinds((k) => utilOf(k).editing?.mode === 'panel')).toEqual(['formula', 'graph']);
  // the renderer's idle warm-up skips them; the exports load or typeset them first
  expect(kinds((k) => !!utilOf(k).assetUrl)).toEqual(['documentPage', 'image']);
  expect(kinds((k) => !!utilOf(k).typeset)).toEqual(['formula', 'graph']);
  // arrange.restyle
  expect(kinds((k) => utilOf(k).style.fill)).toEqual(['curve', 'polyline', 'shape']);
  expect(kinds((k) => !utilOf(k).style.stroke)).toEqual(
    ['documentPage', 'formula', 'graph', 'image', 'sticky', 'text'].sort(),
  );
  // connectors follow shapes; nothing binds to one
  expect(kinds((k) => utilOf(k).bindable === false)).toEqual(['connector']);
});

/**
 * Kind modules and their shared helpers are the layer below the per-shape operations: they must
 * not import the modules that look kinds up (a cycle through the registry would leave a kind
 * undefined when a kind module happens to be loaded first).
 */
test('kind modules import no dispatcher (geometry.ts, painters.ts, transform.ts, export/vector.ts, the registry)', () => {
  const dispatchers = /^(\.\.\/)+(geometry|painters|transform|scene|renderer|boardView)$|export\/vector$|registry$/;
  const dirs = [__dirname, join(__dirname, 'shared')];
  const offenders: string[] = [];
  for (const dir of dirs)
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.ts') || file.endsWith('.spec.ts') || file === 'registry.ts') continue;
      const source = readFileSync(join(dir, file), 'utf8');
      for (const m of source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)';/gms)) {
        if (m[1]) continue; // types only: erased
        if (dispatchers.test(m[2]!)) offenders.push(`${file} → ${m[2]}`);
      }
    }
  expect(offenders).toEqual([]);
});
