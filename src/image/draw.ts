import sharp, { type OverlayOptions } from 'sharp';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Label {
  box: Box;
  text: string;
  colour: string;
  /** Draw a cross-hair at the box centre instead of an outline (for points). */
  point?: boolean;
}

const PALETTE = [
  '#e6194b',
  '#3cb44b',
  '#4363d8',
  '#f58231',
  '#911eb4',
  '#008080',
  '#d6338a',
  '#4b0082',
  '#c04000',
  '#2e8b57',
];
export const markColour = (i: number) => PALETTE[i % PALETTE.length] ?? '#e6194b';

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** One SVG layer with every label, composited in a single pass: cheaper than drawing label by label. */
function overlaySvg(width: number, height: number, labels: Label[], fontPx: number): string {
  const parts: string[] = [];
  for (const l of labels) {
    const { x, y, width: w, height: h } = l.box;
    if (l.point) {
      const cx = x + w / 2;
      const cy = y + h / 2;
      const r = Math.max(6, fontPx * 0.6);
      parts.push(
        `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${l.colour}" stroke-width="3"/>`,
        `<line x1="${cx - r * 1.6}" y1="${cy}" x2="${cx + r * 1.6}" y2="${cy}" stroke="${l.colour}" stroke-width="2"/>`,
        `<line x1="${cx}" y1="${cy - r * 1.6}" x2="${cx}" y2="${cy + r * 1.6}" stroke="${l.colour}" stroke-width="2"/>`,
      );
    } else {
      parts.push(
        `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="none" stroke="${l.colour}" stroke-width="2"/>`,
      );
    }
    if (l.text) {
      const tw = l.text.length * fontPx * 0.62 + 6;
      const ty = y >= fontPx + 4 ? y - fontPx - 4 : y + h + 1;
      const tx = Math.min(Math.max(0, l.point ? x + w / 2 + 10 : x), width - tw);
      parts.push(
        `<rect x="${tx}" y="${ty}" width="${tw}" height="${fontPx + 4}" fill="${l.colour}"/>`,
        `<text x="${tx + 3}" y="${ty + fontPx}" font-family="DejaVu Sans, sans-serif" font-size="${fontPx}" font-weight="bold" fill="#fff">${esc(l.text)}</text>`,
      );
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
}

/** Draws labels onto a PNG and returns a PNG of the same size (so image px stay the frame's image px). */
export async function drawLabels(
  png: Buffer,
  labels: Label[],
  opts: { fontPx?: number } = {},
): Promise<Buffer> {
  const img = sharp(png);
  const meta = await img.metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const fontPx = opts.fontPx ?? Math.max(11, Math.round(width / 110));
  const svg = Buffer.from(overlaySvg(width, height, labels, fontPx));
  return img
    .composite([{ input: svg, top: 0, left: 0 }])
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** Places images side by side with a caption strip above each (for the demo's before/after picture). */
export async function sideBySide(panels: Array<{ png: Buffer; caption: string }>, gap = 16): Promise<Buffer> {
  const metas = await Promise.all(panels.map((p) => sharp(p.png).metadata()));
  const captionH = 34;
  const width = metas.reduce((s, m) => s + (m.width ?? 0), 0) + gap * (panels.length - 1);
  const height = Math.max(...metas.map((m) => m.height ?? 0)) + captionH;
  let left = 0;
  const layers: OverlayOptions[] = [];
  panels.forEach((p, i) => {
    const w = metas[i]?.width ?? 0;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${captionH}"><rect width="100%" height="100%" fill="#222"/><text x="10" y="23" font-family="DejaVu Sans, sans-serif" font-size="17" fill="#fff">${esc(p.caption)}</text></svg>`;
    layers.push({ input: Buffer.from(svg), top: 0, left }, { input: p.png, top: captionH, left });
    left += w + gap;
  });
  return sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite(layers)
    .png()
    .toBuffer();
}

/** Resizes a PNG to a width (height proportional), e.g. a device-px capture to its CSS size for a picture. */
export async function resizeToWidth(png: Buffer, width: number): Promise<Buffer> {
  return sharp(png)
    .resize({ width: Math.round(width) })
    .png()
    .toBuffer();
}
