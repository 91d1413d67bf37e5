/** An OTLP/HTTP (JSON) trace receiver on a free loopback port, for trace-propagation tests. */
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
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  throw new Error('not implemented');
}
