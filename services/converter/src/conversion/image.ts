/**
 * Images → `full` WebP (long side ≤ 4096 px) and a 320 px wide `thumb` WebP with sharp.
 * Untrusted input: an explicit pixel limit (a header claiming 100000×100000 is refused before any
 * decoding), decoding errors fail the conversion, EXIF orientation is applied and every piece of
 * metadata is dropped (sharp writes none unless asked). Animated images use their first frame.
 * SVG is rasterised here (librsvg runs no scripts; given as bytes it has no base folder to load
 * files from) and is never served as SVG. BMP, which the prebuilt libvips cannot read, goes
 * through the small decoder in bmp.ts.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { FileFormat } from '@wb/proto';
import { decodeBmp } from './bmp';
import { ConversionError, MESSAGES } from './errors';

export interface ImageOptions {
  /** largest accepted image, in pixels (width × height) */
  maxPixels: number;
  /** long side of `full` */
  fullMaxSide: number;
  thumbWidth: number;
  /** side of the square profile picture */
  displayImageSide: number;
  webpQuality: number;
}

type Input = { source: Buffer | string; raw?: { width: number; height: number; channels: 3 | 4 } };

async function load(path: string, format: FileFormat, opts: ImageOptions): Promise<Input> {
  if (format === 'bmp') {
    const bmp = decodeBmp(await readFile(path), opts.maxPixels);
    return { source: bmp.data, raw: { width: bmp.width, height: bmp.height, channels: 4 } };
  }
  // SVG from memory: relative references have no folder to resolve against
  if (format === 'svg') return { source: await readFile(path) };
  return { source: path };
}

function open(input: Input, opts: ImageOptions): sharp.Sharp {
  return sharp(input.source, {
    limitInputPixels: opts.maxPixels,
    failOn: 'error',
    animated: false,
    ...(input.raw ? { raw: input.raw } : {}),
  });
}

function failure(err: unknown, format: FileFormat, opts: ImageOptions): ConversionError {
  if (err instanceof ConversionError) return err;
  const message = (err as Error).message ?? String(err);
  if (/pixel limit/i.test(message)) {
    return new ConversionError(MESSAGES.imageTooLarge(Math.round(opts.maxPixels / 1e6)), message);
  }
  if (format === 'heic' && /heif|hevc|compression|codec|unsupported/i.test(message)) {
    return new ConversionError(MESSAGES.heic, message);
  }
  return new ConversionError(MESSAGES.damagedImage, message);
}

async function checkedInput(path: string, format: FileFormat, opts: ImageOptions): Promise<Input> {
  const input = await load(path, format, opts);
  const meta = await open(input, opts).metadata();
  if (!meta.width || !meta.height) throw new ConversionError(MESSAGES.damagedImage, 'no dimensions');
  // the pixel limit applies per frame; a tall animation strip counts as the frame it shows
  if (meta.width * (meta.pageHeight ?? meta.height) > opts.maxPixels) {
    throw new ConversionError(MESSAGES.imageTooLarge(Math.round(opts.maxPixels / 1e6)));
  }
  return input;
}

export async function convertImage(
  path: string,
  format: FileFormat,
  opts: ImageOptions,
  sink: (name: string, bytes: Buffer) => Promise<void>,
): Promise<void> {
  let full: Buffer;
  let thumb: Buffer;
  try {
    const input = await checkedInput(path, format, opts);
    [full, thumb] = await Promise.all([
      open(input, opts)
        .rotate()
        .resize({ width: opts.fullMaxSide, height: opts.fullMaxSide, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: opts.webpQuality })
        .toBuffer(),
      open(input, opts)
        .rotate()
        .resize({ width: opts.thumbWidth, withoutEnlargement: true })
        .webp({ quality: opts.webpQuality })
        .toBuffer(),
    ]);
  } catch (err) {
    throw failure(err, format, opts);
  }
  await sink('full', full);
  await sink('thumb', thumb);
}

/** The square profile picture: centre crop, `displayImageSide` px. */
export async function squareImage(path: string, format: FileFormat, opts: ImageOptions): Promise<Buffer> {
  try {
    const input = await checkedInput(path, format, opts);
    return await open(input, opts)
      .rotate()
      .resize({ width: opts.displayImageSide, height: opts.displayImageSide, fit: 'cover', position: 'centre' })
      .webp({ quality: opts.webpQuality })
      .toBuffer();
  } catch (err) {
    throw failure(err, format, opts);
  }
}
