/**
 * Route input validation: first the checks every input gets (findInputProblem: NUL, lone
 * surrogates, `__proto__` keys, deep nesting), then the route's zod schemas; one 400 naming every
 * bad field.
 */
import type { z } from 'zod';
import { addZodIssues, AppError, fieldMap, findInputProblem } from '@wb/proto';

export interface ValidatedParts {
  params: unknown;
  query: unknown;
  body: unknown;
}

export function validateParts(
  schemas: { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType },
  raw: { params: unknown; query: unknown; body: unknown },
): ValidatedParts {
  const fields = fieldMap();
  const parse = (schema: z.ZodType | undefined, value: unknown): unknown => {
    if (!schema) return value;
    const problem = findInputProblem(value);
    if (problem) {
      fields[problem.field] ??= problem.message;
      return undefined;
    }
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    addZodIssues(r.error, fields);
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
