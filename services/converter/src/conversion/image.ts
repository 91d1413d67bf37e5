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
  /** most work an SVG's filters may ask for (svgFilterCost); more is refused before drawing */
  maxSvgCost: number;
}

/**
 * A bound on the work of an SVG's filter effects, in pixel operations: the drawing's area times
 * the cost per pixel of every filter primitive it contains (counted whether used or not).
 * librsvg's feMorphology visits (2rx+1)(2ry+1) pixels per pixel, feConvolveMatrix its kernel,
 * feTurbulence ~40 operations per octave, blurs a few box passes; a 346-byte SVG with
 * `feMorphology radius=300` asks ~1.6 × 10¹² and is refused here instead of holding a core.
 */
export function svgFilterCost(svg: string, width: number, height: number): number {
  const area = Math.max(1, width) * Math.max(1, height);
  const num = (attrs: string, name: string, fallback: number): number[] => {
    const m = new RegExp(`\\b${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(attrs);
    if (!m) return [fallback];
    const values = m[1]!
      .trim()
      .split(/[\s,]+/)
      .map(Number)
      .filter((n) => Number.isFinite(n));
    return values.length > 0 ? values.map((n) => Math.abs(n)) : [fallback];
  };
  let perPixel = 0;
  for (const m of svg.matchAll(/<\s*(?:[\w-]+:)?(fe[A-Za-z]+)\b([^>]*)>/g)) {
    const [, tag, attrs = ''] = m;
    switch (tag!.toLowerCase()) {
      case 'femorphology': {
        const [rx = 0, ry = rx] = num(attrs, 'radius', 0);
        perPixel += (2 * Math.min(rx, 1e4) + 1) * (2 * Math.min(ry, 1e4) + 1);
        break;
      }
      case 'feconvolvematrix': {
        const [ox = 3, oy = ox] = num(attrs, 'order', 3);
        perPixel += Math.min(ox, 1e4) * Math.min(oy, 1e4);
        break;
      }
      case 'feturbulence':
        perPixel += 40 * Math.min(num(attrs, 'numOctaves', 1)[0]!, 1e4);
        break;
      case 'fegaussianblur': {
        // three box blurs per axis; past ~2 the large deviations also widen the filter region
        const [sx = 0, sy = sx] = num(attrs, 'stdDeviation', 0);
        perPixel += 6 + (Math.min(sx, 1e4) + Math.min(sy, 1e4)) / 4;
        break;
      }
      default:
        perPixel += 2;
    }
  }
  return area * perPixel;
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
  if (format === 'svg') {
    const cost = svgFilterCost((input.source as Buffer).toString('utf8'), meta.width, meta.height);
    if (cost > opts.maxSvgCost)
      throw new ConversionError(MESSAGES.imageTooCostly, `SVG filter cost ${cost.toExponential(2)}`);
  }
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
