/**
 * Draws assets/logo.png: a teal rounded square holding a white receipt marked with a medical cross, the clinic
 * and the till in one mark. 256 × 256 RGBA (colour type 6) with transparent corners, as Zapier's directory
 * wants it (docs/app-listing.md). No image library: shapes are tested point by point, 8 × 8 samples a pixel for
 * smooth edges, and the PNG is written with zlib and our own CRC-32.
 *
 *   npx tsx scripts/make-logo.ts [out.png] [size]
 */

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

type Rgb = readonly [number, number, number];
/** A shape in the 256-unit design square: whether a point is inside. */
type Shape = (x: number, y: number) => boolean;

const TEAL_TOP: Rgb = [22, 178, 160];
const TEAL_BOTTOM: Rgb = [11, 118, 108];
const CROSS: Rgb = [13, 140, 127];
const RULE: Rgb = [150, 208, 200];
const PAPER: Rgb = [255, 255, 255];
const SHADOW: Rgb = [6, 70, 64];

const roundedRect =
  (x0: number, y0: number, x1: number, y1: number, r: number): Shape =>
  (x, y) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const cx = Math.min(Math.max(x, x0 + r), x1 - r);
    const cy = Math.min(Math.max(y, y0 + r), y1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };

/** A till receipt: rounded top corners, a torn zigzag bottom edge of `teeth` points. */
const receipt =
  (x0: number, y0: number, x1: number, y1: number, teeth: number, depth: number): Shape =>
  (x, y) => {
    const body = roundedRect(x0, y0, x1, y1 + 12, 12);
    if (!body(x, y)) return false;
    const period = (x1 - x0) / teeth;
    const t = (((x - x0) % period) + period) % period;
    const edge = y1 - depth + (Math.abs(t - period / 2) / (period / 2)) * depth;
    return y <= edge;
  };

const union =
  (...shapes: Shape[]): Shape =>
  (x, y) =>
    shapes.some((s) => s(x, y));

const shifted =
  (shape: Shape, dx: number, dy: number): Shape =>
  (x, y) =>
    shape(x - dx, y - dy);

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

interface Layer {
  shape: Shape;
  colour: (x: number, y: number) => Rgb;
  opacity?: number;
}

const tile = roundedRect(4, 4, 252, 252, 56);
const paper = receipt(76, 44, 180, 212, 5, 14);
const cross = union(roundedRect(112, 72, 144, 148, 5), roundedRect(90, 94, 166, 126, 5));
const rules = union(roundedRect(96, 166, 160, 175, 4.5), roundedRect(96, 184, 140, 193, 4.5));

const LAYERS: Layer[] = [
  { shape: tile, colour: (_x, y) => mix(TEAL_TOP, TEAL_BOTTOM, (y - 4) / 248) },
  // A soft drop under the paper, clipped to the tile, so the receipt lifts off the teal.
  {
    shape: (x, y) => tile(x, y) && shifted(paper, 0, 6)(x, y),
    colour: () => SHADOW,
    opacity: 0.22,
  },
  { shape: paper, colour: () => PAPER },
  { shape: cross, colour: () => CROSS },
  { shape: rules, colour: () => RULE },
];

/** Straight-alpha RGBA pixels of the logo at `size` × `size`. */
export const drawLogo = (size = 256, samples = 8): Buffer => {
  const out = Buffer.alloc(size * size * 4);
  const scale = 256 / size;
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      // Premultiplied accumulation over the samples, each composited back to front.
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < samples; sy += 1) {
        for (let sx = 0; sx < samples; sx += 1) {
          const x = (px + (sx + 0.5) / samples) * scale;
          const y = (py + (sy + 0.5) / samples) * scale;
          let cr = 0;
          let cg = 0;
          let cb = 0;
          let ca = 0;
          for (const layer of LAYERS) {
            if (!layer.shape(x, y)) continue;
            const [lr, lg, lb] = layer.colour(x, y);
            const la = layer.opacity ?? 1;
            cr = lr * la + cr * (1 - la);
            cg = lg * la + cg * (1 - la);
            cb = lb * la + cb * (1 - la);
            ca = la + ca * (1 - la);
          }
          r += cr;
          g += cg;
          b += cb;
          a += ca;
        }
      }
      const n = samples * samples;
      const i = (py * size + px) * 4;
      const alpha = a / n;
      out[i] = alpha ? Math.round(r / n / alpha) : 0;
      out[i + 1] = alpha ? Math.round(g / n / alpha) : 0;
      out[i + 2] = alpha ? Math.round(b / n / alpha) : 0;
      out[i + 3] = Math.round(alpha * 255);
    }
  }
  return out;
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (ISO 3309, as PNG's chunks use it). */
export const crc32 = (data: Buffer): number => {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

const chunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
};

/** A non-interlaced 8-bit RGBA PNG; each row filtered with None, the rest left to deflate. */
export const encodePng = (rgba: Buffer, width: number, height: number): Buffer => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // bit depth 8, colour type 6 (RGBA), deflate, adaptive filters, no interlace
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y += 1) rgba.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

if (require.main === module) {
  const out = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'assets', 'logo.png'));
  const size = Number(process.argv[3] ?? 256);
  writeFileSync(out, encodePng(drawLogo(size), size, size));
  console.log(`Wrote ${path.relative(process.cwd(), out)} (${size} × ${size}).`);
}
