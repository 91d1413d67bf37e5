/**
 * A small BMP decoder (the prebuilt libvips in sharp reads no BMP): uncompressed 1/4/8-bit
 * palette, 24-bit, and 16/32-bit (plain or BI_BITFIELDS) images, bottom-up or top-down, to RGBA.
 * The header's size is checked against the pixel limit before anything is allocated; RLE and
 * embedded JPEG/PNG are refused.
 */
import { ConversionError, MESSAGES } from './errors';

export interface DecodedBmp {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, top row first */
  data: Buffer;
}

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

function maskShift(mask: number): { shift: number; max: number } {
  if (mask === 0) return { shift: 0, max: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  return { shift, max: mask >>> shift };
}

export function decodeBmp(buf: Buffer, maxPixels: number): DecodedBmp {
  const damaged = (why: string) => new ConversionError(MESSAGES.damagedImage, `BMP: ${why}`);
  if (buf.length < 26 || buf.toString('latin1', 0, 2) !== 'BM') throw damaged('no BM header');
  const pixelOffset = buf.readUInt32LE(10);
  const dibSize = buf.readUInt32LE(14);
  let width: number;
  let rawHeight: number;
  let bpp: number;
  let compression = BI_RGB;
  let colours = 0;
  if (dibSize === 12) {
    width = buf.readUInt16LE(18);
    rawHeight = buf.readInt16LE(20);
    bpp = buf.readUInt16LE(24);
  } else {
    if (buf.length < 54) throw damaged('short header');
    width = buf.readInt32LE(18);
    rawHeight = buf.readInt32LE(22);
    bpp = buf.readUInt16LE(28);
    compression = buf.readUInt32LE(30);
    colours = buf.readUInt32LE(46);
  }
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (width < 1 || height < 1) throw damaged('empty image');
  if (width * height > maxPixels) throw new ConversionError(MESSAGES.imageTooLarge(Math.round(maxPixels / 1e6)));
  if (compression !== BI_RGB && compression !== BI_BITFIELDS && compression !== BI_ALPHABITFIELDS) {
    throw new ConversionError(MESSAGES.damagedImage, `BMP compression ${compression} not supported`);
  }

  let masks = bpp === 16 ? [0x7c00, 0x03e0, 0x001f, 0] : [0xff0000, 0xff00, 0xff, 0];
  if (compression !== BI_RGB) {
    // masks follow a 40-byte header, or sit inside a V4/V5 header
    if (buf.length < 66) throw damaged('short bitfields');
    masks = [
      buf.readUInt32LE(54),
      buf.readUInt32LE(58),
      buf.readUInt32LE(62),
      dibSize >= 56 || compression === BI_ALPHABITFIELDS ? buf.readUInt32LE(66) : 0,
    ];
  }
  const palette: number[][] = [];
  if (bpp <= 8) {
    const entry = dibSize === 12 ? 3 : 4;
    const count = colours || 1 << bpp;
    const start = 14 + dibSize;
    for (let i = 0; i < count; i++) {
      const at = start + i * entry;
      if (at + 3 > buf.length) throw damaged('short palette');
      palette.push([buf[at + 2]!, buf[at + 1]!, buf[at]!]);
    }
  } else if (bpp !== 16 && bpp !== 24 && bpp !== 32) {
    throw damaged(`unsupported depth ${bpp}`);
  }

  const stride = Math.ceil((width * bpp) / 32) * 4;
  if (pixelOffset + stride * height > buf.length) throw damaged('truncated pixel data');
  const out = Buffer.alloc(width * height * 4);
  const fields = masks.map(maskShift);
  const scale = (v: number, f: { max: number }) => (f.max === 0 ? 0 : Math.round((v * 255) / f.max));
  const useAlpha = masks[3] !== 0;
  for (let y = 0; y < height; y++) {
    const row = pixelOffset + (topDown ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      let r: number;
      let g: number;
      let b: number;
      let a = 255;
      if (bpp <= 8) {
        const bitPos = x * bpp;
        const byte = buf[row + (bitPos >> 3)]!;
        const index = (byte >> (8 - bpp - (bitPos & 7))) & ((1 << bpp) - 1);
        [r, g, b] = palette[index] ?? [0, 0, 0];
      } else if (bpp === 24) {
        const at = row + x * 3;
        [b, g, r] = [buf[at]!, buf[at + 1]!, buf[at + 2]!];
      } else {
        const v = bpp === 16 ? buf.readUInt16LE(row + x * 2) : buf.readUInt32LE(row + x * 4);
        r = scale((v & masks[0]!) >>> fields[0]!.shift, fields[0]!);
        g = scale((v & masks[1]!) >>> fields[1]!.shift, fields[1]!);
        b = scale((v & masks[2]!) >>> fields[2]!.shift, fields[2]!);
        if (useAlpha) a = scale((v & masks[3]!) >>> fields[3]!.shift, fields[3]!);
      }
      const o = (y * width + x) * 4;
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      out[o + 3] = a;
    }
  }
  return { width, height, data: out };
}
