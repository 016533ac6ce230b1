// Ground truth the frame cannot fake: the PNG's own header, and where each target's colour actually is in the
// picture. The oracle maps the DOM box into the image as "the image shows the whole viewport"; this checks the
// picture agrees, so a capture whose clip and reported CSS size disagree cannot hide behind a consistent oracle.

import sharp from 'sharp';
import type { CssBox, Size } from '../../geometry/index.js';

/** Width and height from a PNG's IHDR chunk (bytes 16..23, big-endian), read here rather than by trueclick. */
export function pngSize(base64: string): Size {
  const head = Buffer.from(base64.slice(0, 44), 'base64');
  if (head.length < 24 || head.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/** Fill colours of the /targets buttons (targets.html), by kind. */
export const TARGET_FILL: Readonly<Record<string, [number, number, number]>> = {
  near: [0xe5, 0x48, 0x4d],
  far: [0x1f, 0x7a, 0x4d],
  edge: [0x7a, 0x4c, 0xe0],
  mid: [0xd0, 0x8a, 0x00],
};

export interface Raster {
  width: number;
  height: number;
  channels: number;
  data: Buffer;
}

export async function decode(base64: string): Promise<Raster> {
  const { data, info } = await sharp(Buffer.from(base64, 'base64'))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: info.channels, data };
}

export interface PixelCheck {
  ok: boolean;
  /** Where the oracle puts the box's centre in the image, px. */
  expected: { x: number; y: number };
  /** Centre of the fill-coloured pixels found near it, px (null: none found). */
  found: { x: number; y: number } | null;
  message: string;
}

/**
 * Finds the target's fill colour around where the DOM box maps to in an image of the whole viewport
 * (`css` CSS px shown at the raster's size) and compares the centres. The tolerance is a fifth of the box
 * in image px (at least 2 px): anti-aliasing moves a box's colour edge by a pixel, a frame error by more.
 */
export function checkTarget(r: Raster, kind: string, box: CssBox, css: Size): PixelCheck {
  const kx = r.width / css.width;
  const ky = r.height / css.height;
  const exp = { left: box.left * kx, top: box.top * ky, right: box.right * kx, bottom: box.bottom * ky };
  const expected = { x: (exp.left + exp.right) / 2, y: (exp.top + exp.bottom) / 2 };
  const w = exp.right - exp.left;
  const h = exp.bottom - exp.top;
  const fill = TARGET_FILL[kind] ?? [0, 0, 0];
  const x0 = Math.max(0, Math.floor(exp.left - 2 * w - 8));
  const x1 = Math.min(r.width, Math.ceil(exp.right + 2 * w + 8));
  const y0 = Math.max(0, Math.floor(exp.top - 2 * h - 8));
  const y1 = Math.min(r.height, Math.ceil(exp.bottom + 2 * h + 8));
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * r.width + x) * r.channels;
      const d =
        Math.abs((r.data[i] ?? 0) - fill[0]) +
        Math.abs((r.data[i + 1] ?? 0) - fill[1]) +
        Math.abs((r.data[i + 2] ?? 0) - fill[2]);
      if (d > 60) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  const where = `(${expected.x.toFixed(1)}, ${expected.y.toFixed(1)})`;
  if (minX > maxX) {
    return {
      ok: false,
      expected,
      found: null,
      message: `#${kind}'s colour is not in the ${r.width}x${r.height} image near ${where}, where the viewport puts it`,
    };
  }
  const found = { x: (minX + maxX + 1) / 2, y: (minY + maxY + 1) / 2 };
  const tol = Math.max(2, Math.min(w, h) / 5);
  const ok = Math.abs(found.x - expected.x) <= tol && Math.abs(found.y - expected.y) <= tol;
  return {
    ok,
    expected,
    found,
    message: ok
      ? ''
      : `#${kind} is at image px (${found.x.toFixed(1)}, ${found.y.toFixed(1)}), not ${where} where the viewport puts it (${(found.x - expected.x).toFixed(1)}, ${(found.y - expected.y).toFixed(1)} px off)`,
  };
}
