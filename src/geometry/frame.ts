// What the geometry layer needs to know about a screenshot (SPEC S2). The browser layer fills it at capture.

import type { Convention } from './conventions.js';
import { GeometryError, show } from './errors.js';
import { applyResize, type Size } from './resize.js';

/**
 * What mapping a screenshot's pixels to CSS px needs to know of it (SPEC S2): the image size sent, the CSS
 * viewport area it shows, and the scroll, window offset and devicePixelRatio at capture.
 */
export interface FrameGeometry {
  /** The image as sent to the client (after any server downscale), pixels. */
  image: { width: number; height: number };
  /** CSS px size of the viewport area that image shows (floats allowed: 1282.42 x 802.42 happens). */
  css: { width: number; height: number };
  /** CSS scroll offset at capture time (page space = viewport + scroll). */
  scroll: { x: number; y: number };
  /** CSS px from the screen origin to the viewport origin, for space 'screen'. */
  windowOffset?: { x: number; y: number };
  /**
   * Where the image's top-left corner lies in the CSS viewport. A zoom frame shows a region of the viewport,
   * not all of it; absent = (0, 0), the whole viewport.
   */
  origin?: { x: number; y: number };
  devicePixelRatio: number;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readPair(
  frame: Record<string, unknown>,
  key: string,
  a: string,
  b: string,
  positive: boolean,
): [number, number] {
  const pair = frame[key];
  if (!isPlainObject(pair)) {
    throw new GeometryError(
      'BAD_FRAME',
      `frame.${key} is ${show(pair)}.`,
      `Pass frame.${key} as {${a}, ${b}} numbers; use the frame returned by browser_screenshot.`,
      `frame.${key}`,
    );
  }
  const read = (k: string): number => {
    const v = pair[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || (positive && v <= 0)) {
      throw new GeometryError(
        'BAD_FRAME',
        `frame.${key}.${k} is ${show(v)}, not a ${positive ? 'positive ' : ''}finite number.`,
        'Use the frame returned by browser_screenshot unchanged.',
        `frame.${key}.${k}`,
      );
    }
    return v;
  };
  return [read(a), read(b)];
}

/** Checks a frame from an untrusted caller; returns a clean copy. */
export function validateFrame(frame: unknown): FrameGeometry {
  if (!isPlainObject(frame)) {
    throw new GeometryError(
      'BAD_FRAME',
      `The frame is ${show(frame)}.`,
      'Pass the frame returned by browser_screenshot.',
      'frame',
    );
  }
  const [imageWidth, imageHeight] = readPair(frame, 'image', 'width', 'height', true);
  const [cssWidth, cssHeight] = readPair(frame, 'css', 'width', 'height', true);
  const [scrollX, scrollY] = readPair(frame, 'scroll', 'x', 'y', false);
  const dpr = frame.devicePixelRatio;
  if (typeof dpr !== 'number' || !Number.isFinite(dpr) || dpr <= 0) {
    throw new GeometryError(
      'BAD_FRAME',
      `frame.devicePixelRatio is ${show(dpr)}.`,
      'Pass a positive number such as 1, 1.5 or 2.',
      'frame.devicePixelRatio',
    );
  }
  const out: FrameGeometry = {
    image: { width: imageWidth, height: imageHeight },
    css: { width: cssWidth, height: cssHeight },
    scroll: { x: scrollX, y: scrollY },
    devicePixelRatio: dpr,
  };
  if (frame.windowOffset !== undefined) {
    const [x, y] = readPair(frame, 'windowOffset', 'x', 'y', false);
    out.windowOffset = { x, y };
  }
  if (frame.origin !== undefined) {
    const [x, y] = readPair(frame, 'origin', 'x', 'y', false);
    out.origin = { x, y };
  }
  return out;
}

/** The CSS viewport point at the image's top-left corner. */
export function frameOrigin(frame: FrameGeometry): { x: number; y: number } {
  return frame.origin ?? { x: 0, y: 0 };
}

/** The size at which the client showed the frame image (shown_width/shown_height, the missing one proportional). */
export function shownSize(
  convention: Pick<Convention, 'shown_width' | 'shown_height'>,
  frame: FrameGeometry,
): Size {
  const { width, height } = frame.image;
  const sw = convention.shown_width;
  const sh = convention.shown_height;
  if (sw !== undefined && sh !== undefined) return { width: sw, height: sh };
  if (sw !== undefined) return { width: sw, height: (sw * height) / width };
  if (sh !== undefined) return { width: (sh * width) / height, height: sh };
  return { width, height };
}

/** The pixel grid units 'px' refer to: the image as shown, after the model provider's own resize. */
export function modelImageSize(
  convention: Pick<Convention, 'shown_width' | 'shown_height' | 'resize'>,
  frame: FrameGeometry,
): Size {
  const shown = shownSize(convention, frame);
  return applyResize(convention.resize, shown.width, shown.height);
}
