import { formatLogLine } from '../lib/pretty';

const plain = (s: string) => s;

describe('formatLogLine', () => {
  it('shows level, message and extra fields of a pino line, not the boilerplate', () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.parse('2026-01-02T03:04:05Z'),
      pid: 42,
      hostname: 'h',
      service: 'auth',
      msg: 'user signed up',
      userId: 3,
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
    });
    const out = formatLogLine('auth', line, plain);
    expect(out).toMatch(/auth\s+INFO {2}user signed up {2}userId=3 trace=4bf92f35$/);
    expect(out).not.toContain('hostname');
    expect(out).not.toContain('pid=');
  });

  it('prints an error stack under the line', () => {
    const line = JSON.stringify({
      level: 50,
      msg: 'boom',
      err: { type: 'Error', message: 'x', stack: 'Error: x\n    at f' },
    });
    const out = formatLogLine('gateway', line, plain).split('\n');
    expect(out[0]).toMatch(/ERROR boom$/);
    expect(out.slice(1)).toEqual(['    Error: x', '        at f']);
  });

  it('passes through lines that are not JSON', () => {
    expect(formatLogLine('nats', 'plain text {', plain)).toMatch(/nats\s+plain text \{$/);
  });
});
