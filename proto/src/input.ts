/**
 * What every boundary (gateway HTTP, NATS service requests) refuses before any schema runs, for
 * every string of every input rather than field by field:
 * - NUL (U+0000): PostgreSQL text and jsonb cannot store it;
 * - lone UTF-16 surrogates: jsonb refuses them and they are not text in any encoding;
 * - a `__proto__` key: it vanishes into prototypes as soon as code copies the object;
 * - nesting deeper than INPUT_MAX_DEPTH: no contract nests that deep, and deep values make
 *   recursive code (validators, loggers) overflow the stack.
 * And zod issues become one `{ field: message }` map kept in a null-prototype object, so any key a
 * client sends (`__proto__`, `constructor`) is reported instead of lost.
 */
import { z } from 'zod';

export const INPUT_MAX_DEPTH = 32;
/** ids are PostgreSQL `integer` columns: a larger number would reach the database and fail there */
export const DB_INT_MAX = 2_147_483_647;
export const userIdSchema = z.number().int().positive().max(DB_INT_MAX);

export interface InputProblem {
  /** dotted path of the offending value or key, '(root)' for the value itself */
  field: string;
  message: string;
}

// eslint-disable-next-line no-control-regex
const NUL = /\u0000/;
/** with the u flag a surrogate pair is one code point, so only a lone half matches */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function stringProblem(s: string): string | null {
  if (NUL.test(s)) return 'Text must not contain NUL characters';
  if (LONE_SURROGATE.test(s)) return 'Text must be valid Unicode (lone surrogate)';
  return null;
}

const pathName = (path: readonly PropertyKey[]): string => path.map(String).join('.') || '(root)';

/** The first unsafe string, key or nesting in `value` (iterative: no recursion on client data). */
export function findInputProblem(value: unknown, maxDepth = INPUT_MAX_DEPTH): InputProblem | null {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = stringProblem(v);
      if (problem) return { field: pathName(path), message: problem };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= maxDepth) return { field: pathName(path), message: `Nested deeper than ${maxDepth} levels` };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ value: v[i], path: [...path, i] });
      continue;
    }
    for (const key of Object.keys(v)) {
      const keyPath = [...path, key];
      if (key === '__proto__') return { field: pathName(keyPath), message: 'Unknown field' };
      const problem = stringProblem(key);
      if (problem) return { field: pathName(path), message: `Field name: ${problem}` };
      stack.push({ value: (v as Record<string, unknown>)[key], path: keyPath });
    }
  }
  return null;
}

/** A field → message map that any key can be written to (no prototype to swallow `__proto__`). */
export function fieldMap(): Record<string, string> {
  return Object.create(null) as Record<string, string>;
}

/** zod issues → `fields` (first message per field wins); unrecognised keys are named one by one. */
export function addZodIssues(error: z.ZodError, fields: Record<string, string>, prefix: PropertyKey[] = []): void {
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[pathName([...prefix, ...issue.path, key])] ??= 'Unknown field';
      continue;
    }
    fields[pathName([...prefix, ...issue.path])] ??= issue.message;
  }
}
