/**
 * The OTLP/HTTP JSON exporter path, in a child process running the built dist/tracing.js: the
 * exporter loads node:http through a dynamic import(), which jest's module sandbox cannot run, and
 * auto-instrumentation only works with Node's real require — i.e. the way a deployable runs it.
 * Checks: spans reach the collector within the short batch delay, shutdown() flushes the rest,
 * OTEL_SERVICE_NAME wins, and http is instrumented when loaded after startTracing.
 */
import http from 'node:http';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';

interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
}
interface OtlpBody {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
}

const dist = path.resolve(__dirname, '../dist');

const CHILD = `
const { startTracing } = require(${JSON.stringify(path.join(dist, 'tracing.js'))});
const handle = startTracing('tracing-child');
const { trace } = require(require.resolve('@opentelemetry/api', { paths: [${JSON.stringify(dist)}] }));
const http = require('node:http');
trace.getTracer('child').startSpan('first span').end();
setTimeout(() => {
  http.get(process.env.OTEL_EXPORTER_OTLP_ENDPOINT + '/ping', (res) => {
    res.resume();
    res.on('end', async () => {
      trace.getTracer('child').startSpan('last span').end();
      await handle.shutdown();
      process.stdout.write(JSON.stringify({ exporting: handle.exporting }));
    });
  });
}, 700);
`;

describe('startTracing with an OTLP endpoint (child process)', () => {
  const posts: { at: number; spans: OtlpSpan[]; service?: string }[] = [];
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        if (
          req.method === 'POST' &&
          req.url === '/v1/traces' &&
          (req.headers['content-type'] ?? '').includes('application/json')
        ) {
          const body = JSON.parse(text) as OtlpBody;
          for (const rs of body.resourceSpans) {
            const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
            posts.push({ at: Date.now(), service, spans: rs.scopeSpans.flatMap((s) => s.spans) });
          }
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('exports JSON spans quickly, flushes on shutdown, and instruments http', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: url,
      OTEL_SERVICE_NAME: 'renamed-by-env',
    };
    delete env.OTEL_TRACES_EXPORTER;
    delete env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    const child = spawn(process.execPath, ['-e', CHILD], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(JSON.parse(out)).toEqual({ exporting: true });

    const all = posts.flatMap((p) => p.spans.map((s) => ({ ...s, post: p })));
    const first = all.find((s) => s.name === 'first span');
    const last = all.find((s) => s.name === 'last span');
    expect(first).toBeDefined();
    expect(last).toBeDefined();
    // the batch delay sent the first span on its own, long before shutdown flushed the last one
    expect(first?.post).not.toBe(last?.post);
    expect(first?.post.service).toBe('renamed-by-env');
    // the child's http.get was auto-instrumented (OTLP SPAN_KIND_CLIENT = 3)
    expect(all.some((s) => s.kind === 3 && s.name.startsWith('GET'))).toBe(true);
  });
});
