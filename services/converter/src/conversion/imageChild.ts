/**
 * The image rasteriser as a child process (issue 25 §1, §2): sharp/libvips and librsvg parse
 * untrusted bytes, so they run here, in the sandbox (only the job's folder in view), under the
 * job's deadline, a CPU-time and an address-space limit, instead of inside the worker.
 *
 *   node imageChild.js <json>   json: { op: 'convert' | 'square', input, format, outDir, opts }
 *
 * Writes `full.webp` + `thumb.webp` (convert) or `square.webp` (square) to `outDir`; a refusal
 * writes `refusal.json` (`{"refused": message, "detail": …}`) to `outDir` and exits 2.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { FileFormat } from '@wb/proto';
import { ConversionError } from './errors';
import { convertImage, squareImage } from './image';
import type { ImageOptions } from './image';

export interface ImageChildRequest {
  op: 'convert' | 'square';
  input: string;
  format: FileFormat;
  outDir: string;
  opts: ImageOptions;
}

async function main(): Promise<void> {
  // one job per process: no cache to keep, one thread is enough (the worker runs several children)
  sharp.cache(false);
  sharp.concurrency(1);
  const req = JSON.parse(process.argv[2] ?? '{}') as ImageChildRequest;
  try {
    if (req.op === 'square') {
      await writeFile(join(req.outDir, 'square.webp'), await squareImage(req.input, req.format, req.opts));
    } else {
      await convertImage(req.input, req.format, req.opts, (name, bytes) =>
        writeFile(join(req.outDir, `${name}.webp`), bytes),
      );
    }
  } catch (err) {
    if (err instanceof ConversionError) {
      await writeFile(
        join(req.outDir, 'refusal.json'),
        JSON.stringify({ refused: err.message, detail: err.detail ?? null }),
      );
      process.exit(2);
    }
    throw err;
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
