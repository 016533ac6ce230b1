// The canonical mapping (research/conventions.md, top): a value becomes a fraction of the image the model saw,
// the fraction becomes CSS px of the area that image shows, each axis by its own ratio, floats kept. CSS
// values only move between CSS spaces. Both directions live here so they cannot drift apart.

import { type Convention, isRelative, RELATIVE_EXTENT } from './conventions.js';
import { GeometryError } from './errors.js';
import { type FrameGeometry, frameOrigin, modelImageSize } from './frame.js';

/** A point; its frame and unit (CSS viewport px, image px, a convention's units) are the caller's to say. */
export interface XY {
  x: number;
  y: number;
}

/** Number of <loc_k> bins per axis (Florence-2). */
export const BIN_COUNT = 1000;

/** The value range of each axis: [0, extent.x] x [0, extent.y] (for 'css', the viewport). */
export function imageExtent(convention: Convention, frame: FrameGeometry): XY {
  if (convention.units === 'px') {
    const size = modelImageSize(convention, frame);
    return { x: size.width, y: size.height };
  }
  if (isRelative(convention.units)) {
    if (convention.quantization === 'bin-centre') return { x: BIN_COUNT - 1, y: BIN_COUNT - 1 };
    const e = RELATIVE_EXTENT[convention.units];
    return { x: e, y: e };
  }
  return { x: frame.css.width, y: frame.css.height };
}

function toFraction(value: number, extent: number, convention: Convention): number {
  if (convention.quantization === 'bin-centre') return (value + 0.5) / BIN_COUNT;
  return value / extent;
}

function fromFraction(u: number, extent: number, convention: Convention): number {
  if (convention.quantization === 'bin-centre') {
    // What the model would write: the index of the bin the point falls in.
    return Math.min(BIN_COUNT - 1, Math.max(0, Math.floor(u * BIN_COUNT)));
  }
  return u * extent;
}

function whyFrame(convention: Convention): [string, string] {
  if (convention.units !== 'css') {
    return [
      `units '${convention.units}' need a frame to know the image the numbers refer to.`,
      "Pass frame (the id from browser_screenshot), or CSS viewport px with units 'css'.",
    ];
  }
  if (convention.space === 'page') {
    return [
      "space 'page' needs the frame's scroll offset at capture.",
      "Pass frame, or viewport px with space 'viewport'.",
    ];
  }
  if (convention.space === 'screen') {
    return [
      "space 'screen' needs the frame's window offset.",
      "Pass frame, or viewport px with space 'viewport'.",
    ];
  }
  return [
    "origin 'bottom-left' needs the frame's viewport height.",
    'Pass frame, or y measured from the top.',
  ];
}

export function requireFrame(frame: FrameGeometry | undefined, convention: Convention): FrameGeometry {
  if (frame !== undefined) return frame;
  const [problem, hint] = whyFrame(convention);
  throw new GeometryError('FRAME_REQUIRED', problem, hint, 'frame');
}

function windowOffset(frame: FrameGeometry): XY {
  if (frame.windowOffset !== undefined) return frame.windowOffset;
  throw new GeometryError(
    'WINDOW_OFFSET_REQUIRED',
    "space 'screen' needs the window's offset on the screen, and this frame has none.",
    "Pass viewport coordinates with space 'viewport', or a frame with windowOffset.",
    'space',
  );
}

/** CSS viewport point from an x-first point in `convention`'s units and space. */
export function forward(
  p: XY,
  convention: Convention,
  frame: FrameGeometry | undefined,
): { css: XY; image?: XY } {
  if (convention.units === 'css') {
    let { x, y } = p;
    if (convention.space === 'page') {
      const f = requireFrame(frame, convention);
      x -= f.scroll.x;
      y -= f.scroll.y;
    } else if (convention.space === 'screen') {
      const o = windowOffset(requireFrame(frame, convention));
      x -= o.x;
      y -= o.y;
    }
    if (convention.origin === 'bottom-left') y = requireFrame(frame, convention).css.height - y;
    if (frame === undefined) return { css: { x, y } };
    const o = frameOrigin(frame);
    return {
      css: { x, y },
      image: {
        x: ((x - o.x) / frame.css.width) * frame.image.width,
        y: ((y - o.y) / frame.css.height) * frame.image.height,
      },
    };
  }
  const f = requireFrame(frame, convention);
  const extent = imageExtent(convention, f);
  const u = toFraction(p.x, extent.x, convention);
  let v = toFraction(p.y, extent.y, convention);
  if (convention.origin === 'bottom-left') v = 1 - v;
  const o = frameOrigin(f);
  return {
    css: { x: o.x + u * f.css.width, y: o.y + v * f.css.height },
    image: { x: u * f.image.width, y: v * f.image.height },
  };
}

/** The inverse of `forward`: what a model using `convention` would write for a CSS viewport point (x first). */
export function inverse(css: XY, convention: Convention, frame: FrameGeometry | undefined): XY {
  if (convention.units === 'css') {
    let { x, y } = css;
    if (convention.origin === 'bottom-left') y = requireFrame(frame, convention).css.height - y;
    if (convention.space === 'page') {
      const f = requireFrame(frame, convention);
      x += f.scroll.x;
      y += f.scroll.y;
    } else if (convention.space === 'screen') {
      const o = windowOffset(requireFrame(frame, convention));
      x += o.x;
      y += o.y;
    }
    return { x, y };
  }
  const f = requireFrame(frame, convention);
  const extent = imageExtent(convention, f);
  const o = frameOrigin(f);
  const u = (css.x - o.x) / f.css.width;
  let v = (css.y - o.y) / f.css.height;
  if (convention.origin === 'bottom-left') v = 1 - v;
  return { x: fromFraction(u, extent.x, convention), y: fromFraction(v, extent.y, convention) };
}
