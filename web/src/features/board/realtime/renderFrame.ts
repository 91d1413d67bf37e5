/**
 * S9: a RENDER frame's records. The frame is gzipped and inflated by the browser's own zlib
 * (DecompressionStream), then decoded. The work is kept per received payload, so the early socket
 * (transport.ts) starts it the moment the frame arrives, while the page's code is still loading,
 * and the board client later takes the same promise instead of starting again.
 */
import { decodeRenderSnapshot, MSG, type RenderRecord } from '@wb/proto';

const started = new WeakMap<
  ArrayBufferLike,
  { byteOffset: number; byteLength: number; records: Promise<RenderRecord[]> }
>();

export function renderRecords(payload: Uint8Array): Promise<RenderRecord[]> {
  const known = started.get(payload.buffer);
  if (known && known.byteOffset === payload.byteOffset && known.byteLength === payload.byteLength) return known.records;
  const records = gunzip(payload).then(decodeRenderSnapshot);
  records.catch(() => undefined); // reported to whoever takes it
  started.set(payload.buffer, { byteOffset: payload.byteOffset, byteLength: payload.byteLength, records });
  return records;
}

/** a received frame: a RENDER starts decoding now */
export function startRenderDecoding(frame: Uint8Array): void {
  if (frame[0] === MSG.RENDER) void renderRecords(frame.subarray(1));
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
