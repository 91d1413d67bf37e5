/**
 * The image rasteriser as a sandboxed child process (issue 25 §1, §2): sharp/libvips and librsvg
 * parse untrusted bytes, so they run here, in the sandbox (only the image inbox in view), under
 * an address-space and a CPU-time limit, instead of inside the worker. The child stays warm
 * (starting Node and loading libvips costs more than a small image) and takes one request at a
 * time over stdin; a request past its time has the child killed (imagePool.ts).
 *
 *   node imageChild.js        stdin: {"id", "op": "convert" | "square", "input", "format", "outDir", "opts"}
 *                             stdout: {"id", "ok": true} | {"id", "refused": message, "detail"} | {"id", "error"}
 *
 * Writes `full.webp` + `thumb.webp` (convert) or `square.webp` (square) to `outDir`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import sharp from 'sharp';
import type { FileFormat } from '@wb/proto';
import { ConversionError } from './errors';
import { convertImage, squareImage } from './image';
import type { ImageOptions } from './image';

export interface ImageChildRequest {
  id: number;
  op: 'convert' | 'square';
  input: string;
  format: FileFormat;
  outDir: string;
  opts: ImageOptions;
}

export interface ImageChildReply {
  id: number;
  ok?: true;
  refused?: string;
  detail?: string | null;
  error?: string;
}

async function handle(req: ImageChildRequest): Promise<ImageChildReply> {
  try {
    if (req.op === 'square') {
      await writeFile(join(req.outDir, 'square.webp'), await squareImage(req.input, req.format, req.opts));
    } else {
      await convertImage(req.input, req.format, req.opts, (name, bytes) =>
        writeFile(join(req.outDir, `${name}.webp`), bytes),
      );
    }
    return { id: req.id, ok: true };
  } catch (err) {
    if (err instanceof ConversionError) return { id: req.id, refused: err.message, detail: err.detail ?? null };
    return { id: req.id, error: (err as Error).message ?? String(err) };
  }
}

function serve(): void {
  // one image at a time per process, nothing to cache between people's images
  sharp.cache(false);
  sharp.concurrency(1);
  const lines = createInterface({ input: process.stdin });
  let chain = Promise.resolve();
  lines.on('line', (line) => {
    if (!line.trim()) return;
    const req = JSON.parse(line) as ImageChildRequest;
    chain = chain.then(() => handle(req)).then((reply) => void process.stdout.write(`${JSON.stringify(reply)}\n`));
  });
  lines.on('close', () => void chain.then(() => process.exit(0)));
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
}

if (require.main === module) serve();
