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

/** Grey-level step (of 255) that counts as a change at a pixel. */
const STEP = 48;
/** How far (grey levels) outside the other image's local range a value may lie and still match it. */
const SLACK = 24;
/** A speck smaller than this (px) is noise. */
const MIN_SPECK = 3;
/** A column of changes this thin (px) and at least CARET_RATIO times as tall is a caret blinking, not content. */
const CARET_WIDTH = 2;
const CARET_RATIO = 3;

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

/** Rows [top, bottom) of a grey image. */
export function greyRows(g: Grey, top: number, bottom: number): Grey {
  return { data: g.data.slice(top * g.width, bottom * g.width), width: g.width, height: bottom - top };
}

/**
 * A grey image cut or extended to width × height, an extension repeating the edge pixels: Chromium rounds a
 * clip's size at fractional scales, so a capture of the same band can come out a pixel larger or smaller.
 */
export function fitGrey(g: Grey, width: number, height: number): Grey {
  if (g.width === width && g.height === height) return g;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(y, g.height - 1) * g.width;
    for (let x = 0; x < width; x++) data[y * width + x] = g.data[sy + Math.min(x, g.width - 1)] as number;
  }
  return { data, width, height };
}

/** A grey image as a PNG (what OCR reads). */
export function greyPng(g: Grey): Promise<Buffer> {
  return sharp(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.length), {
    raw: { width: g.width, height: g.height, channels: 1 },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** The same region as a PNG (what OCR reads). */
export async function pngRegion(image: Buffer, r: Box): Promise<Buffer> {
  return sharp(image)
    .extract({ left: r.x, top: r.y, width: r.width, height: r.height })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * An image's red, green and blue channels, each as a grey image (a region of it when `r` is given): two
 * colours of one brightness (a red chip and a teal one) are one grey, but not one colour.
 */
export async function channelsOf(image: Buffer, r?: Box): Promise<Grey[]> {
  const s = r
    ? sharp(image).extract({ left: r.x, top: r.y, width: r.width, height: r.height })
    : sharp(image);
  const { data, info } = await s.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const n = info.width * info.height;
  const out = [0, 1, 2].map(() => new Uint8Array(n));
  for (let i = 0; i < n; i++)
    for (let c = 0; c < 3; c++) (out[c] as Uint8Array)[i] = data[i * info.channels + c] as number;
  return out.map((d) => ({ data: d, width: info.width, height: info.height }));
}

/** A copy of `g` with the box (its own px) taken from `from`: what is there is not compared. */
export function masked(g: Grey, from: Grey, box: Box): Grey {
  const data = g.data.slice();
  for (let y = Math.max(0, box.y); y < Math.min(g.height, box.y + box.height); y++)
    for (let x = Math.max(0, box.x); x < Math.min(g.width, box.x + box.width); x++)
      data[y * g.width + x] = from.data[y * from.width + x] as number;
  return { ...g, data };
}

export async function greyOf(png: Buffer): Promise<Grey> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/**
 * Whether v fits the 3×3 neighbourhood of (x, y) in g: within SLACK of the range of values there. An edge
 * antialiased at another sub-pixel phase takes a value between its neighbours' ink and paper; new ink where
 * the other image has only paper around does not.
 */
function fits(g: Grey, x: number, y: number, v: number): boolean {
  const { width: w, height: h, data } = g;
  let lo = 255;
  let hi = 0;
  for (let dy = -1; dy <= 1; dy++) {
    const yy = y + dy;
    if (yy < 0 || yy >= h) continue;
    for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx;
      if (xx < 0 || xx >= w) continue;
      const u = data[yy * w + xx] as number;
      if (u < lo) lo = u;
      if (u > hi) hi = u;
    }
  }
  return v >= lo - SLACK && v <= hi + SLACK;
}

interface Speck {
  n: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * How two same-sized grey images differ, as a person would see it. A pixel changed (by STEP or more) counts when its value in
 * either image does not fit the other image's values within one pixel (fits): a glyph shifted by a fraction of
 * a pixel fits, a new digit's stroke does not, however thin or light it is. Changed pixels are
 * grouped into 8-connected specks; noise (under MIN_SPECK px) and a caret (a thin column, counted with the
 * pieces of it that crossing glyphs left) are not counted.
 */
export function diffGrey(a: Grey, b: Grey, step = STEP): PixelDiff {
  if (a.width !== b.width || a.height !== b.height)
    throw new Error(`diffGrey: ${a.width}×${a.height} vs ${b.width}×${b.height}`);
  const { width: w, height: h } = a;
  const changed = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const va = a.data[i] as number;
      const vb = b.data[i] as number;
      if (Math.abs(va - vb) < step) continue;
      if (!fits(b, x, y, va) || !fits(a, x, y, vb)) changed[i] = 1;
    }
  }
  const specks: Speck[] = [];
  const stack: number[] = [];
  for (let start = 0; start < w * h; start++) {
    if (changed[start] !== 1) continue;
    changed[start] = 2;
    stack.push(start);
    const s: Speck = { n: 0, x0: w, y0: h, x1: -1, y1: -1 };
    while (stack.length) {
      const i = stack.pop() as number;
      const x = i % w;
      const y = (i - x) / w;
      s.n++;
      s.x0 = Math.min(s.x0, x);
      s.x1 = Math.max(s.x1, x);
      s.y0 = Math.min(s.y0, y);
      s.y1 = Math.max(s.y1, y);
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
    specks.push(s);
  }
  const counted = specks.filter((s) => s.n >= MIN_SPECK && !isCaret(s, specks));
  const count = counted.reduce((sum, s) => sum + s.n, 0);
  const box = counted.length
    ? {
        x: Math.min(...counted.map((s) => s.x0)),
        y: Math.min(...counted.map((s) => s.y0)),
        width: Math.max(...counted.map((s) => s.x1)) - Math.min(...counted.map((s) => s.x0)) + 1,
        height: Math.max(...counted.map((s) => s.y1)) - Math.min(...counted.map((s) => s.y0)) + 1,
      }
    : null;
  return { changedPixels: count, changedShare: count / (w * h), box };
}

/** Grey levels per bin of the tone histogram. */
const TONE_BIN = 16;

/**
 * How alike two pictures are in their tones, 0–1: the overlap of their grey histograms. For a picture that
 * moves by itself (a video, an animation) pixel positions say nothing, but a sweeping bar or a moving head
 * leaves the tones as they were, while another stream or another tile brings its own. Each value is shared
 * between its two nearest bins, so a level shifted by a few steps (video compression) still overlaps.
 */
export function tonesAlike(a: Grey, b: Grey): number {
  const ha = toneHistogram(a);
  const hb = toneHistogram(b);
  let overlap = 0;
  for (let i = 0; i < ha.length; i++) overlap += Math.min(ha[i] as number, hb[i] as number);
  return Math.round(overlap * 1000) / 1000;
}

function toneHistogram(g: Grey): Float64Array {
  const bins = new Float64Array(256 / TONE_BIN);
  const last = bins.length - 1;
  const share = 1 / Math.max(1, g.data.length);
  for (const v of g.data) {
    const p = Math.min(last, Math.max(0, v / TONE_BIN - 0.5));
    const lo = Math.floor(p);
    const w = p - lo;
    bins[lo] = (bins[lo] as number) + (1 - w) * share;
    if (w > 0) bins[lo + 1] = (bins[lo + 1] as number) + w * share;
  }
  return bins;
}

/** A thin speck in a thin column of specks that together stand tall: a caret, in pieces where it crossed text. */
function isCaret(s: Speck, all: Speck[]): boolean {
  if (s.x1 - s.x0 + 1 > CARET_WIDTH) return false;
  const column = all.filter((o) => o.x1 - o.x0 + 1 <= CARET_WIDTH && o.x0 <= s.x1 + 1 && o.x1 >= s.x0 - 1);
  const x0 = Math.min(...column.map((o) => o.x0));
  const x1 = Math.max(...column.map((o) => o.x1));
  const y0 = Math.min(...column.map((o) => o.y0));
  const y1 = Math.max(...column.map((o) => o.y1));
  return x1 - x0 + 1 <= CARET_WIDTH + 1 && y1 - y0 + 1 >= CARET_RATIO * (x1 - x0 + 1);
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
