/**
 * Open-loop HTTP load at a fixed rate for the benchmarks, and the CPU readings beside it.
 *
 * Requests leave evenly spread (a 1 ms timer sends whatever has fallen due), each on an idle
 * keep-alive connection (a new one when all are busy, up to `maxConnections`; beyond that the
 * request waits for the first free one and its wait counts in its latency). Latency = from the
 * moment the request was due to the last byte of the response, so a late generator or a stalled
 * server cannot hide (no coordinated omission); `sendLag` reports how late the generator itself
 * was. The client is raw `net` sockets with the request pre-encoded and only the status line and
 * Content-Length parsed: a few µs of CPU per request, where autocannon or node:http spend
 * 0.1–3 ms that a 2-core machine would take from the servers under test.
 *
 * `pacedLoadInChild` runs it in a fresh process: a benchmark's own heap (autocannon runs, kept
 * logs) otherwise collects garbage while it sends, and its pauses showed up as the generator being
 * late by p99 16–23 ms at 4k req/s.
 */
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { machineBusyPctSince, machineTicks } from './procStats';

export interface PacedResult {
  rate: number;
  durationS: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  /** answers per second of the measured window: below `rate` when the system falls behind */
  achievedRps: number;
  /** how late the generator sent (ms after the due time): p99 and max */
  sendLagP99: number;
  sendLagMax: number;
  connections: number;
}

interface Pending {
  due: number;
}

class Connection {
  readonly socket: Socket;
  private head = '';
  private status = 0;
  private bodyLeft = -1;
  current: Pending | null = null;
  ready: Promise<void>;

  constructor(
    host: string,
    port: number,
    private readonly done: (c: Connection, req: Pending, status: number) => void,
    private readonly failed: (c: Connection, req: Pending | null, err: Error) => void,
  ) {
    this.socket = connect({ host, port, noDelay: true });
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    this.socket.on('error', (err) => this.failed(this, this.current, err));
    this.socket.on('close', () => {
      if (this.current) this.failed(this, this.current, new Error('connection closed mid-response'));
    });
  }

  send(bytes: Buffer, req: Pending): void {
    this.current = req;
    this.head = '';
    this.bodyLeft = -1;
    this.socket.write(bytes);
  }

  private receive(chunk: Buffer): void {
    let body = chunk.length;
    if (this.bodyLeft < 0) {
      // only the header is decoded (a large body is counted, never made a string); a header
      // split over chunks is rare, so that path simply re-reads what it has so far
      const text = this.head + chunk.toString('latin1', 0, Math.min(chunk.length, 8192));
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) {
        if (text.length >= 8192) this.failed(this, this.current, new Error('response header over 8 KiB'));
        else this.head = text;
        return;
      }
      this.status = Number(text.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end));
      if (!length) {
        this.failed(this, this.current, new Error('response without Content-Length (chunked is not supported)'));
        return;
      }
      body = chunk.length - (end + 4 - this.head.length);
      this.head = '';
      this.bodyLeft = Number(length[1]);
    }
    this.bodyLeft -= body;
    if (this.bodyLeft <= 0 && this.current) {
      const req = this.current;
      this.current = null;
      this.bodyLeft = -1;
      this.done(this, req, this.status);
    }
  }
}

export interface PacedOptions {
  /** default 256 */
  maxConnections?: number;
  /**
   * seconds at the same rate before the measured window, on the same connections (they open
   * and the servers warm up; default 0). Failures still count.
   */
  warmupS?: number;
  /** called once, when the measured window begins */
  onMeasureStart?: () => void;
}

export async function pacedLoad(
  url: string,
  headers: Record<string, string>,
  rate: number,
  durationS: number,
  opts: PacedOptions = {},
): Promise<PacedResult> {
  const { maxConnections = 256, warmupS = 0 } = opts;
  const u = new URL(url);
  const request = Buffer.from(
    `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\n` +
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      '\r\n',
    'latin1',
  );
  const total = Math.max(1, Math.round(rate * (warmupS + durationS)));
  const latencies: number[] = [];
  const lags: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let finished = 0;
  const idle: Connection[] = [];
  const all: Connection[] = [];
  const waiting: Pending[] = [];
  const t0 = performance.now();
  const measureFrom = t0 + warmupS * 1000;
  let measureStarted = false;

  await new Promise<void>((resolve) => {
    const finish = (): void => {
      if (++finished === total) resolve();
    };
    const dispatch = (c: Connection): void => {
      const next = waiting.shift();
      if (!next) {
        idle.push(c);
        return;
      }
      if (next.due >= measureFrom) lags.push(performance.now() - next.due);
      c.send(request, next);
    };
    const done = (c: Connection, req: Pending, status: number): void => {
      if (status < 200 || status >= 300) non2xx++;
      else if (req.due >= measureFrom) latencies.push(performance.now() - req.due);
      finish();
      dispatch(c);
    };
    const failed = (c: Connection, req: Pending | null, _err: Error): void => {
      c.current = null;
      c.socket.destroy();
      all.splice(all.indexOf(c), 1);
      // a request in flight fails; a connection that never opened fails one waiting request, so
      // a server that refuses every connection ends the run instead of hanging it
      const lost = req ?? waiting.shift();
      if (lost) {
        errors++;
        finish();
      }
    };
    const open = (): void => {
      const c = new Connection(u.hostname, Number(u.port || 80), done, failed);
      all.push(c);
      c.ready.then(
        () => dispatch(c),
        () => undefined, // counted by `failed`
      );
    };
    let sent = 0;
    const tick = (): void => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000) + 1);
      while (sent < due) {
        const req = { due: t0 + (sent * 1000) / rate };
        sent++;
        if (!measureStarted && req.due >= measureFrom) {
          measureStarted = true;
          opts.onMeasureStart?.();
        }
        const c = idle.pop();
        if (c) {
          if (req.due >= measureFrom) lags.push(performance.now() - req.due);
          c.send(request, req);
        } else {
          waiting.push(req);
          if (all.length < maxConnections) open();
        }
      }
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
  const elapsedS = (performance.now() - measureFrom) / 1000;
  const connections = all.length;
  for (const c of all) c.socket.destroy();

  const sorted = (xs: number[]): number[] => xs.sort((a, b) => a - b);
  const pct = (xs: number[], p: number): number =>
    xs[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;
  const round = (n: number): number => Math.round(n * 100) / 100;
  sorted(latencies);
  sorted(lags);
  return {
    rate,
    durationS,
    requests: latencies.length + non2xx + errors,
    ok: latencies.length,
    non2xx,
    errors,
    p50: round(pct(latencies, 50)),
    p90: round(pct(latencies, 90)),
    p99: round(pct(latencies, 99)),
    max: round(latencies[latencies.length - 1] ?? NaN),
    mean: round(latencies.reduce((sum, x) => sum + x, 0) / Math.max(1, latencies.length)),
    achievedRps: round((latencies.length + non2xx) / Math.max(durationS, elapsedS - 1)),
    sendLagP99: round(pct(lags, 99)),
    sendLagMax: round(lags[lags.length - 1] ?? NaN),
    connections,
  };
}

export interface PacedArgs {
  url: string;
  headers: Record<string, string>;
  rate: number;
  durationS: number;
  maxConnections?: number;
  warmupS?: number;
}

/** what the child measured besides the load, over the measured window only */
export interface ChildReadings {
  /** the generator's own CPU time */
  cpuMs: number;
  /** share of all cores busy (every process on the machine) */
  machineBusyPct: number;
}

const MEASURING = 'MEASURING';

/**
 * `pacedLoad` in a child process of its own. `onMeasureStart` runs when the measured window
 * begins (after the child's start-up and the warm-up), for readings the caller takes itself.
 */
export function pacedLoadInChild(args: PacedArgs, onMeasureStart?: () => void): Promise<PacedResult & ChildReadings> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, JSON.stringify(args)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.indexOf('\n');
      if (line >= 0 && out.slice(0, line) === MEASURING) {
        out = out.slice(line + 1);
        onMeasureStart?.();
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      try {
        resolve(JSON.parse(out) as PacedResult & ChildReadings);
      } catch {
        reject(new Error(`load generator printed no result: ${out.slice(0, 200)}`));
      }
    });
  });
}

if (require.main === module) {
  const a = JSON.parse(process.argv[2] ?? '{}') as PacedArgs;
  let before = { cpu: process.cpuUsage(), machine: machineTicks() };
  const onMeasureStart = (): void => {
    before = { cpu: process.cpuUsage(), machine: machineTicks() };
    process.stdout.write(`${MEASURING}\n`);
  };
  void pacedLoad(a.url, a.headers, a.rate, a.durationS, { ...a, onMeasureStart }).then((r) => {
    const cpu = process.cpuUsage(before.cpu);
    const readings: ChildReadings = {
      cpuMs: (cpu.user + cpu.system) / 1000,
      machineBusyPct: machineBusyPctSince(before.machine),
    };
    process.stdout.write(JSON.stringify({ ...r, ...readings }));
    process.exit(0);
  });
}
