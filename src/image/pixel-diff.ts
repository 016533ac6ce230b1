import sharp from 'sharp';
import type { Box } from './draw.js';

// Pixels compared as a person would: a changed glyph or bar counts, a re-antialiased edge or a blinking caret
// does not. Pure functions over grey images; decoding and cropping go through sharp.

/** An 8-bit grey image, row-major. */
export interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface PixelDiff {
  /** Pixels that changed, after blur, threshold and dropping noise and caret-shaped specks. */
  changedPixels: number;
  /** changedPixels over the area compared, 0–1. */
  changedShare: number;
  /** Where the counted changes lie, px of the compared images; null when none. */
  box: Box | null;
}

/** Grey-level step (of 255) that counts as a change once both images are blurred: antialiasing stays below it. */
const STEP = 40;
/** A speck smaller than this (px) is noise. */
const MIN_SPECK = 4;

/** The grey pixels of a region of an encoded image. */
export async function greyRegion(image: Buffer, r: Box): Promise<Grey> {
  const { data, info } = await sharp(image)
    .extract({ left: r.x, top: r.y, width: r.width, height: r.height })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/** The same region as a PNG (what OCR reads). */
export async function pngRegion(image: Buffer, r: Box): Promise<Buffer> {
  return sharp(image)
    .extract({ left: r.x, top: r.y, width: r.width, height: r.height })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

export async function greyOf(png: Buffer): Promise<Grey> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

function blur3(g: Grey): Uint8Array {
  const { width: w, height: h, data } = g;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          s += data[yy * w + xx] as number;
          n++;
        }
      }
      out[y * w + x] = Math.round(s / n);
    }
  }
  return out;
}

/**
 * How two same-sized grey images differ. Each is blurred (3×3) so a shifted antialiased edge stays under STEP;
 * changed pixels are grouped into 8-connected specks, and specks that are noise (under MIN_SPECK px) or shaped
 * like a text caret (at most 3 px wide and at least 3 times as tall) are not counted.
 */
export function diffGrey(a: Grey, b: Grey): PixelDiff {
  if (a.width !== b.width || a.height !== b.height)
    throw new Error(`diffGrey: ${a.width}×${a.height} vs ${b.width}×${b.height}`);
  const { width: w, height: h } = a;
  const ba = blur3(a);
  const bb = blur3(b);
  const changed = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++)
    changed[i] = Math.abs((ba[i] as number) - (bb[i] as number)) >= STEP ? 1 : 0;
  let count = 0;
  let box: { x0: number; y0: number; x1: number; y1: number } | null = null;
  const stack: number[] = [];
  for (let start = 0; start < w * h; start++) {
    if (changed[start] !== 1) continue;
    changed[start] = 2;
    stack.push(start);
    let n = 0;
    let x0 = w;
    let y0 = h;
    let x1 = -1;
    let y1 = -1;
    while (stack.length) {
      const i = stack.pop() as number;
      const x = i % w;
      const y = (i - x) / w;
      n++;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
          const j = yy * w + xx;
          if (changed[j] === 1) {
            changed[j] = 2;
            stack.push(j);
          }
        }
      }
    }
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    const caret = bw <= 3 && bh >= 3 * bw;
    if (n < MIN_SPECK || caret) continue;
    count += n;
    box = box
      ? {
          x0: Math.min(box.x0, x0),
          y0: Math.min(box.y0, y0),
          x1: Math.max(box.x1, x1),
          y1: Math.max(box.y1, y1),
        }
      : { x0, y0, x1, y1 };
  }
  return {
    changedPixels: count,
    changedShare: count / (w * h),
    box: box ? { x: box.x0, y: box.y0, width: box.x1 - box.x0 + 1, height: box.y1 - box.y0 + 1 } : null,
  };
}

/**
 * The band of pixel rows that holds the line of content at row `y` (a table row's text, a bar), bounded by
 * blank rows (all one shade, as a gap or a rule line is): [top, bottom) in the image's rows. A point between
 * lines takes the nearest line within `reach` rows; null when there is none, or when the content runs past
 * `maxHeight` (a picture, not a line).
 */
export function lineBand(
  g: Grey,
  y: number,
  reach: number,
  maxHeight: number,
): { top: number; bottom: number } | null {
  const { width: w, height: h, data } = g;
  // A row is blank when nearly all of it is one shade: a gap between lines, a rule line, or a row crossed
  // only by column borders (a spreadsheet's grid).
  const hist = new Uint32Array(256);
  const blank = (row: number) => {
    hist.fill(0);
    for (let x = 0; x < w; x++)
      hist[data[row * w + x] as number] = (hist[data[row * w + x] as number] as number) + 1;
    let mode = 0;
    for (let v = 1; v < 256; v++) if ((hist[v] as number) > (hist[mode] as number)) mode = v;
    let off = 0;
    for (let v = 0; v < 256; v++) if (Math.abs(v - mode) > 24) off += hist[v] as number;
    return off <= Math.max(2, w * 0.02);
  };
  const row = Math.max(0, Math.min(h - 1, Math.round(y)));
  let at = -1;
  for (let d = 0; d <= reach && at < 0; d++) {
    if (row - d >= 0 && !blank(row - d)) at = row - d;
    else if (row + d < h && !blank(row + d)) at = row + d;
  }
  if (at < 0) return null;
  let top = at;
  while (top > 0 && !blank(top - 1)) top--;
  let bottom = at + 1;
  while (bottom < h && !blank(bottom)) bottom++;
  if (bottom - top > maxHeight || top === 0 || bottom === h) return null;
  return { top, bottom };
}
