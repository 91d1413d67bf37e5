/** Reading what the gateway staged: only the first bytes, enough to sniff the format. */
import type { ObjectStore } from '@wb/platform';

/** how much of an upload the sniffer looks at */
export const SNIFF_BYTES = 64 * 1024;

export async function readHead(store: ObjectStore, key: string, size: number): Promise<Uint8Array> {
  if (size === 0) return new Uint8Array(0);
  const got = await store.getStream(key, { start: 0, end: Math.min(SNIFF_BYTES, size) - 1 });
  if (!got) return new Uint8Array(0);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of got.stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    // a driver that ignores the range must not make us read the whole file
    if (length >= SNIFF_BYTES) {
      got.stream.destroy();
      break;
    }
  }
  return Buffer.concat(chunks, length).subarray(0, SNIFF_BYTES);
}
