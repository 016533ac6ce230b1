import sharp from 'sharp';
import type { Box } from './draw.js';

// Marks are numbers only, so they are drawn straight into the decoded pixels with a 3×5 digit font:
// rendering hundreds of SVG text labels through librsvg cost ~90 ms on a 500-control page, this ~20 ms.
const DIGITS = [
  '111101101101111',
  '010110010010111',
  '111001111100111',
  '111001111001111',
  '101101111001001',
  '111100111001111',
  '111100111101111',
  '111001010010010',
  '111101111101111',
  '111101111001111',
];

export interface MarkLabel {
  box: Box;
  id: number;
  colour: string;
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

class Canvas {
  constructor(
    readonly data: Buffer,
    readonly width: number,
    readonly height: number,
    readonly channels: number,
  ) {}

  fill(x0: number, y0: number, w: number, h: number, c: [number, number, number]): void {
    const x1 = Math.min(this.width, Math.round(x0 + w));
    const y1 = Math.min(this.height, Math.round(y0 + h));
    for (let y = Math.max(0, Math.round(y0)); y < y1; y++) {
      let i = (y * this.width + Math.max(0, Math.round(x0))) * this.channels;
      for (let x = Math.max(0, Math.round(x0)); x < x1; x++, i += this.channels) {
        this.data[i] = c[0];
        this.data[i + 1] = c[1];
        this.data[i + 2] = c[2];
      }
    }
  }

  outline(b: Box, c: [number, number, number], t: number): void {
    this.fill(b.x, b.y, b.width, t, c);
    this.fill(b.x, b.y + b.height - t, b.width, t, c);
    this.fill(b.x, b.y, t, b.height, c);
    this.fill(b.x + b.width - t, b.y, t, b.height, c);
  }

  digits(text: string, x: number, y: number, scale: number, c: [number, number, number]): void {
    for (let k = 0; k < text.length; k++) {
      const glyph = DIGITS[Number(text[k])] ?? '';
      for (let i = 0; i < 15; i++) {
        if (glyph[i] === '1')
          this.fill(x + k * 4 * scale + (i % 3) * scale, y + Math.floor(i / 3) * scale, scale, scale, c);
      }
    }
  }
}

/** Numbered boxes (SPEC S4 marks) on a PNG; returns a PNG of the same size. */
export async function drawMarks(png: Buffer, labels: MarkLabel[]): Promise<Buffer> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const canvas = new Canvas(data, info.width, info.height, info.channels);
  const scale = Math.max(2, Math.round(info.width / 640));
  const white: [number, number, number] = [255, 255, 255];
  for (const l of labels) {
    const c = rgb(l.colour);
    canvas.outline(l.box, c, Math.max(1, scale / 2));
    const text = String(l.id);
    const w = (text.length * 4 - 1) * scale + 2 * scale;
    const h = 7 * scale;
    // Inside the box's top-left corner, or just above it when the box is too small to hold the tag.
    const above = l.box.height < h * 1.6 || l.box.width < w * 1.4;
    const x = Math.min(Math.max(0, l.box.x), info.width - w);
    const y = above ? Math.max(0, l.box.y - h) : l.box.y;
    canvas.fill(x, y, w, h, c);
    canvas.digits(text, x + scale, y + scale, scale, white);
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .png({ compressionLevel: 6 })
    .toBuffer();
}
