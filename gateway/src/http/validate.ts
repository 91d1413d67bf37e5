/** Route input validation with the route's zod schemas; one 400 naming every bad field. */
import type { z } from 'zod';
import { AppError } from '@wb/proto';

export interface ValidatedParts {
  params: unknown;
  query: unknown;
  body: unknown;
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.map(String).join('.') || '(body)';
}

/** zod issues → { field: message }; unrecognised keys name each key. */
function collect(error: z.ZodError, fields: Record<string, string>): void {
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[fieldName([...issue.path, key])] = 'Unknown field';
      continue;
    }
    const name = fieldName(issue.path);
    fields[name] ??= issue.message;
  }
}

export function validateParts(
  schemas: { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType },
  raw: { params: unknown; query: unknown; body: unknown },
): ValidatedParts {
  const fields: Record<string, string> = {};
  const parse = (schema: z.ZodType | undefined, value: unknown): unknown => {
    if (!schema) return value;
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    collect(r.error, fields);
    return undefined;
  };
  const out: ValidatedParts = {
    params: parse(schemas.params, raw.params),
    // Unschema'd query strings and bodies are dropped: only what a route declares reaches a service.
    query: schemas.query ? parse(schemas.query, raw.query) : undefined,
    body: schemas.body ? parse(schemas.body, raw.body ?? {}) : undefined,
  };
  const names = Object.keys(fields);
  if (names.length > 0) {
    const detail = names.map((n) => `${n} (${fields[n]})`).join(', ');
    throw new AppError('ERR_INVALID_INPUT', `Invalid input: ${detail}`, fields);
  }
  return out;
}
