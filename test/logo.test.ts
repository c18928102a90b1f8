import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, inflateSync } from 'node:zlib';

/*
 * assets/logo.png as Zapier's directory takes it (docs/app-listing.md, check M004): a square PNG of 256 × 256
 * with a true alpha channel, so the mark sits on any background with transparent corners and an opaque body.
 * Decoded here with zlib only (CRC-32 from zlib too, not from scripts/make-logo.ts), so any PNG a vendor drops
 * in is judged the same way.
 */

const LOGO = path.resolve(__dirname, '..', 'assets', 'logo.png');
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Chunk {
  type: string;
  data: Buffer;
  crcOk: boolean;
}

const chunksOf = (png: Buffer): Chunk[] => {
  const chunks: Chunk[] = [];
  for (let at = 8; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at);
    const typed = png.subarray(at + 4, at + 8 + length);
    chunks.push({
      type: typed.subarray(0, 4).toString('ascii'),
      data: typed.subarray(4),
      crcOk: png.readUInt32BE(at + 8 + length) === crc32(typed),
    });
    at += 12 + length;
  }
  return chunks;
};

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/** RGBA rows of an 8-bit, colour type 6, non-interlaced image: inflate, then undo each row's filter. */
const pixelsOf = (idat: Buffer, width: number, height: number): Buffer => {
  const raw = inflateSync(idat);
  const stride = width * 4;
  if (raw.length !== (stride + 1) * height) {
    throw new Error(
      `${raw.length} bytes of image data, not the ${(stride + 1) * height} of ${width} × ${height} RGBA`,
    );
  }
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x += 1) {
      const byte = raw[y * (stride + 1) + 1 + x]!;
      const a = x >= 4 ? out[y * stride + x - 4]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + x]! : 0;
      const c = x >= 4 && y > 0 ? out[(y - 1) * stride + x - 4]! : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      if (predictor === undefined) throw new Error(`row ${y}: unknown filter ${filter}`);
      out[y * stride + x] = (byte + predictor) & 0xff;
    }
  }
  return out;
};

describe('assets/logo.png', () => {
  const png = readFileSync(LOGO);
  const chunks = chunksOf(png);
  const ihdr = chunks[0]!.data;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);

  it('is a well-formed PNG: signature, IHDR first, IEND last, every chunk’s CRC right', () => {
    expect(png.subarray(0, 8)).toEqual(SIGNATURE);
    expect(chunks[0]!.type).toBe('IHDR');
    expect(chunks.at(-1)!.type).toBe('IEND');
    expect(chunks.filter((c) => !c.crcOk).map((c) => c.type)).toEqual([]);
    expect(chunks.some((c) => c.type === 'IDAT')).toBe(true);
  });

  it('is 256 × 256, 8 bits a channel, RGBA (colour type 6), not interlaced', () => {
    expect([width, height]).toEqual([256, 256]);
    expect(ihdr[8]).toBe(8);
    expect(ihdr[9]).toBe(6);
    expect(ihdr[12]).toBe(0);
  });

  describe('decoded', () => {
    const idat = Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data));
    let pixels: Buffer = Buffer.alloc(0);
    beforeAll(() => {
      pixels = pixelsOf(idat, width, height);
    });
    const alphaAt = (x: number, y: number) => pixels[(y * width + x) * 4 + 3]!;

    it('has transparent corners', () => {
      for (const [x, y] of [
        [0, 0],
        [width - 1, 0],
        [0, height - 1],
        [width - 1, height - 1],
        [4, 4],
        [width - 5, height - 5],
      ] as const) {
        expect([x, y, alphaAt(x, y)]).toEqual([x, y, 0]);
      }
    });

    it('is opaque across its centre', () => {
      const translucent: Array<[number, number]> = [];
      for (let y = height / 4; y < (height * 3) / 4; y += 1) {
        for (let x = width / 4; x < (width * 3) / 4; x += 1)
          if (alphaAt(x, y) !== 255) translucent.push([x, y]);
      }
      expect(translucent).toEqual([]);
    });

    it('is a drawn mark, not a flat fill: several colours and anti-aliased edges', () => {
      const colours = new Set<number>();
      let partial = 0;
      for (let i = 0; i < pixels.length; i += 4) {
        if (pixels[i + 3] === 255) colours.add(pixels.readUInt32BE(i));
        else if (pixels[i + 3]! > 0) partial += 1;
      }
      expect(colours.size).toBeGreaterThanOrEqual(3);
      expect(partial).toBeGreaterThan(0);
    });
  });
});
