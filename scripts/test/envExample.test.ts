/**
 * .env.example is the one list of every variable a deployable reads (conventions: "`.env.example`
 * lists every variable with a comment"): each key of every env schema (src/env.ts, zod) must be
 * named there, so a new variable cannot land undocumented.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../lib/paths';

function envSchemaFiles(): string[] {
  const dirs = ['gateway', ...readdirSync(join(ROOT, 'services')).map((d) => join('services', d))];
  const files = dirs.map((d) => join(ROOT, d, 'src', 'env.ts')).filter((f) => existsSync(f));
  files.push(join(ROOT, 'services/platform/src/objectStore/env.ts'));
  return files;
}

/** the keys of the zod objects in an env.ts (`  NAME: z…` or `  NAME: optionalEnvString`) */
function schemaKeys(source: string): string[] {
  return [...source.matchAll(/^\s+([A-Z][A-Z0-9_]{2,}):\s*(?:z\b|optional)/gm)].map((m) => m[1]!);
}

describe('.env.example', () => {
  const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
  const named = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]{2,})=/gm)].map((m) => m[1]!));

  it('finds the schemas it checks', () => {
    const keys = envSchemaFiles().flatMap((f) => schemaKeys(readFileSync(f, 'utf8')));
    expect(keys).toEqual(expect.arrayContaining(['NATS_URL', 'DATABASE_URL', 'RT_PORT', 'OFFICE_TIMEOUT_MS']));
  });

  it.each(envSchemaFiles().map((f) => [f.slice(ROOT.length + 1), f]))('names every variable of %s', (_name, file) => {
    const missing = schemaKeys(readFileSync(file, 'utf8')).filter((k) => !named.has(k));
    expect(missing).toEqual([]);
  });
});
