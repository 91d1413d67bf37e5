/**
 * A client's JSON frame (chat, lesson) checked as every boundary checks input: UTF-8 JSON, then
 * unsafe strings and keys (proto's findInputProblem: NUL, lone surrogates, `__proto__`, depth),
 * then the frame's schema. `fail` turns the first problem into the caller's rule error, so a bad
 * frame is an ERROR for its sender, never a closed socket.
 */
import { findInputProblem } from '@wb/proto';
import type { z } from 'zod';

const textDecoder = new TextDecoder('utf-8', { fatal: true });

export function parseJsonFrame<S extends z.ZodType>(
  payload: Uint8Array,
  schema: S,
  fail: (problem: string) => Error,
): z.infer<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(textDecoder.decode(payload));
  } catch {
    throw fail('the payload is not UTF-8 JSON');
  }
  const problem = findInputProblem(raw);
  if (problem) throw fail(`${problem.field}: ${problem.message}`);
  const r = schema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw fail(`${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return r.data;
}
