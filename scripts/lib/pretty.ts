/**
 * Human-readable rendering of the services' pino JSON log lines for `make up`:
 *   12:03:04 auth     INFO  user signed up  userId=3 trace=4bf92f35
 * Lines that are not JSON are shown as they are.
 */
import { c } from './log';

const LEVELS: Record<number, { name: string; paint: (s: string) => string }> = {
  10: { name: 'TRACE', paint: c.gray },
  20: { name: 'DEBUG', paint: c.gray },
  30: { name: 'INFO ', paint: c.green },
  40: { name: 'WARN ', paint: c.yellow },
  50: { name: 'ERROR', paint: c.red },
  60: { name: 'FATAL', paint: c.red },
};

/** fields every line has, or that are shown elsewhere on the line */
const HIDDEN = new Set([
  'level',
  'time',
  'msg',
  'pid',
  'hostname',
  'service',
  'name',
  'v',
  'span_id',
  'trace_flags',
  'err',
  'error',
]);

function clock(time: unknown): string {
  const d = typeof time === 'number' || typeof time === 'string' ? new Date(time) : new Date();
  return (Number.isNaN(d.getTime()) ? new Date() : d).toTimeString().slice(0, 8);
}

function short(value: unknown): string {
  if (typeof value === 'string') return /\s/.test(value) ? JSON.stringify(value) : value;
  const json = JSON.stringify(value);
  return json.length > 120 ? `${json.slice(0, 117)}...` : json;
}

interface ErrLike {
  type?: string;
  message?: string;
  stack?: string;
  code?: string;
}

export function formatLogLine(label: string, line: string, paintLabel: (s: string) => string, width = 9): string {
  const head = (time: unknown) => `${c.gray(clock(time))} ${paintLabel(label.padEnd(width))}`;
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return `${head(undefined)} ${line}`;
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(trimmed) as Record<string, unknown>;
  } catch {
    return `${head(undefined)} ${line}`;
  }
  const level = typeof rec.level === 'number' ? LEVELS[rec.level] : undefined;
  const levelText = level
    ? level.paint(level.name)
    : (typeof rec.level === 'string' ? rec.level.toUpperCase() : '').padEnd(5);
  const msg = typeof rec.msg === 'string' ? rec.msg : '';
  const extras = Object.entries(rec)
    .filter(([k, v]) => !HIDDEN.has(k) && v !== undefined)
    .map(([k, v]) => (k === 'trace_id' && typeof v === 'string' ? `trace=${v.slice(0, 8)}` : `${k}=${short(v)}`));
  let out = `${head(rec.time)} ${levelText} ${msg}${extras.length ? '  ' + c.gray(extras.join(' ')) : ''}`;
  const err = (rec.err ?? rec.error) as ErrLike | string | undefined;
  const errText =
    typeof err === 'string' ? err : err ? (err.stack ?? `${err.type ?? 'Error'}: ${err.message ?? ''}`) : '';
  for (const l of errText ? errText.split('\n') : []) out += `\n    ${c.red(l)}`;
  return out;
}
