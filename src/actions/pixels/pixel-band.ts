import type { ElementFacts } from '../../browser/identity/element-facts.js';
import type { Box } from '../../image/draw.js';
import { type Grey, greyRegion, greyRows, lineBand } from '../../image/pixel-diff.js';
import type { Attempt } from '../check/attempt.js';
import type { FrameRecord } from '../session/frames.js';

// Which points only pixels can vouch for, and the band of the frame's image the pixel guard compares.

const PIXEL_TAGS: Record<string, string> = {
  CANVAS: '<canvas>',
  VIDEO: '<video>',
  EMBED: '<embed>',
  OBJECT: '<object>',
  IFRAME: 'cross-site <iframe> trueclick could not read into',
  IMG: '<img>',
};

/**
 * Why the element under the point tells nothing of what the model saw there, or null when its DOM facts do:
 * a canvas (WebGL included) or a video is one node whatever it shows, an iframe the snapshot could not enter
 * is one box, and an element with no text, no identity attributes and no record around it is anonymous.
 */
export function pixelOnly(facts: ElementFacts): string | null {
  if (facts.background) return null;
  const named = Object.keys(facts.attrs).some((k) => k !== 'src') || facts.text !== '' || facts.contextText;
  const tag = PIXEL_TAGS[facts.tag];
  if (tag && (facts.tag !== 'IMG' || !named)) return tag;
  if (!named && !facts.actionable && !facts.labelText && facts.value === undefined)
    return `<${facts.tag.toLowerCase()}> with no text or identity`;
  return null;
}

/** Image px per CSS px of a frame, and where its image starts in the viewport (a zoom's region). */
export function frameScale(frame: FrameRecord): { k: number; origin: { x: number; y: number } } {
  return {
    k: frame.geometry.image.width / frame.geometry.css.width,
    origin: frame.geometry.origin ?? { x: 0, y: 0 },
  };
}

/** How far above and below the point the line is looked for, CSS px. */
const LOOK = 48;
/** A line of content taller than this is a picture, not a row: the band falls back to a fixed height. */
const MAX_LINE = 64;
const PAD = 4;

/** The captured element's box in the frame's image, whole px, clipped to the image (the whole image without one). */
export function elementInImage(
  a: Attempt,
  frame: FrameRecord,
): { x0: number; y0: number; x1: number; y1: number } {
  const { k, origin } = frameScale(frame);
  const { image, scroll: fs } = frame.geometry;
  const el = a.pixelArea ?? a.captured?.bounds;
  return {
    x0: Math.max(0, Math.floor(el ? (el.x - fs.x - origin.x) * k : 0)),
    y0: Math.max(0, Math.floor(el ? (el.y - fs.y - origin.y) * k : 0)),
    x1: Math.min(image.width, Math.ceil(el ? (el.x + el.width - fs.x - origin.x) * k : image.width)),
    y1: Math.min(image.height, Math.ceil(el ? (el.y + el.height - fs.y - origin.y) * k : image.height)),
  };
}

/**
 * The band of the frame's image around the point, in whole image px. As wide as the element is in view: a
 * row's identity may be drawn far from the point (the ticket id on the left, the button clicked on the
 * right). As tall as the line of content at the point (a row's text and controls) plus a little; where no
 * line stands out (a bar, a tile, a photo), LOOK above and below the point, so a bar's axis label is in it.
 */
export async function bandAround(
  a: Attempt,
  frame: FrameRecord,
  png: Buffer,
): Promise<{ box: Box; grey: Grey }> {
  const { k, origin } = frameScale(frame);
  const py = (a.resolved.point.y - origin.y) * k;
  const el = elementInImage(a, frame);
  const { x0, x1 } = el;
  const y0 = Math.max(el.y0, Math.floor(py - LOOK * k));
  const y1 = Math.min(el.y1, Math.ceil(py + LOOK * k));
  const window = { x: x0, y: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
  const grey = await greyRegion(png, window);
  const line = lineBand(grey, py - y0, 12 * k, MAX_LINE * k);
  const pad = Math.round(PAD * k);
  const top = line ? Math.max(y0, y0 + line.top - pad) : y0;
  const bottom = line ? Math.min(y1, y0 + line.bottom + pad) : y1;
  const height = Math.max(1, bottom - top);
  return {
    box: { x: window.x, y: top, width: window.width, height },
    grey: greyRows(grey, top - y0, top - y0 + height),
  };
}

/** A band of image px as CSS px of the viewport at capture. */
export function bandCss(frame: FrameRecord, band: Box): Box {
  const { k, origin } = frameScale(frame);
  return {
    x: band.x / k + origin.x,
    y: band.y / k + origin.y,
    width: band.width / k,
    height: band.height / k,
  };
}
