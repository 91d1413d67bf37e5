/** An OTLP/HTTP (JSON) trace receiver on a free loopback port, for trace-propagation tests. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  service: string;
  kind: number;
  attributes: Record<string, unknown>;
}
export interface OtlpReceiver {
  /** http://127.0.0.1:<port> to pass as OTEL_EXPORTER_OTLP_ENDPOINT */
  url: string;
  spans: ReceivedSpan[];
  /** wait until `predicate` holds over the spans received so far */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  bytesValue?: string;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
}
interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}
interface OtlpSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  attributes?: OtlpKeyValue[];
}
interface OtlpTraceRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

function anyValue(v: OtlpAnyValue | undefined): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.bytesValue !== undefined) return v.bytesValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(anyValue);
  if (v.kvlistValue) return attributesOf(v.kvlistValue.values);
  return undefined;
}

function attributesOf(kvs: OtlpKeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of kvs ?? []) out[kv.key] = anyValue(kv.value);
  return out;
}

/** OTLP/JSON ids are hex; some encoders send the protobuf-JSON base64 form instead. */
function hexId(id: string | undefined, bytes: number): string | undefined {
  if (!id) return undefined;
  if (new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(id)) return id.toLowerCase();
  const decoded = Buffer.from(id, 'base64');
  return decoded.length === bytes ? decoded.toString('hex') : id;
}

/** Flatten an OTLP/JSON export request into one record per span. */
export function flattenOtlp(body: OtlpTraceRequest): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of body.resourceSpans ?? []) {
    const name = attributesOf(rs.resource?.attributes)['service.name'];
    const service = typeof name === 'string' ? name : '';
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        const parentSpanId = hexId(s.parentSpanId, 8);
        out.push({
          traceId: hexId(s.traceId, 16) ?? '',
          spanId: hexId(s.spanId, 8) ?? '',
          ...(parentSpanId ? { parentSpanId } : {}),
          name: s.name ?? '',
          service,
          kind: s.kind ?? 0,
          attributes: attributesOf(s.attributes),
        });
      }
    }
  }
  return out;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const listeners = new Set<() => void>();

  const server = createServer((req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/traces')) {
      // Metrics and logs exporters may also be pointed here; accept and ignore them.
      res.writeHead(req.method === 'POST' ? 200 : 404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    if (!/json/i.test(req.headers['content-type'] ?? '')) {
      res
        .writeHead(415, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: 'this test receiver only reads OTLP/HTTP JSON' }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        spans.push(...flattenOtlp(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpTraceRequest));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        for (const l of [...listeners]) l();
      } catch (err) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: (err as Error).message }));
      }
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise<ReceivedSpan[]>((resolve, reject) => {
        if (predicate(spans)) return resolve(spans);
        const listener = (): void => {
          if (!predicate(spans)) return;
          clearTimeout(timer);
          listeners.delete(listener);
          resolve(spans);
        };
        const timer = setTimeout(() => {
          listeners.delete(listener);
          const seen = spans.map((s) => `${s.service}:${s.name}`).join(', ') || 'none';
          reject(new Error(`OTLP receiver: condition not met within ${timeoutMs} ms (spans: ${seen})`));
        }, timeoutMs);
        listeners.add(listener);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
