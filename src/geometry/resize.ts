// Provider-side resizes. A model answering in pixels answers in pixels of the image *it* saw, which is the
// image we sent after its provider's resize; these reproduce the published rules so that grid can be known.

import type { ResizeRule } from './conventions.js';
import { GeometryError, show } from './errors.js';

/** A width and height in px of an image. */
export interface Size {
  width: number;
  height: number;
}

function checkSize(width: number, height: number, what: string): void {
  for (const [name, v] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
      throw new GeometryError(
        'BAD_SIZE',
        `${what}: ${name} ${show(v)} is not a positive finite number.`,
        'Pass the image size in pixels, e.g. 1280 x 800.',
        name,
      );
    }
  }
}

/** Longest edge, px, of an image Claude reads unresized; a longer one is scaled down to it. */
export const CLAUDE_MAX_LONG_EDGE = 1568;
/** Largest area (width x height, px) of an image Claude reads unresized; a larger one is scaled down. */
export const CLAUDE_MAX_PIXELS = 1_150_000;

/**
 * Claude computer-use docs: scale = min(1, 1568 / long_edge, sqrt(1 150 000 / (w*h))), sent as
 * int(w*scale) x int(h*scale). ("a 1512x982 screen gets downsampled to approximately 1330x864".)
 */
export function claudeResize(width: number, height: number): Size & { scale: number } {
  checkSize(width, height, 'claudeResize');
  const scale = Math.min(
    1,
    CLAUDE_MAX_LONG_EDGE / Math.max(width, height),
    Math.sqrt(CLAUDE_MAX_PIXELS / (width * height)),
  );
  // Python's int() truncates; the max(1, ...) only matters for absurd aspect ratios, where 0 px would
  // make every later division meaningless.
  return {
    width: Math.max(1, Math.trunc(width * scale)),
    height: Math.max(1, Math.trunc(height * scale)),
    scale,
  };
}

/** The screen sizes (px) the Anthropic computer-use quickstart scales screenshots to: XGA, WXGA, FWXGA. */
export const ANTHROPIC_QUICKSTART_TARGETS: readonly (Size & { name: string })[] = [
  { name: 'XGA', width: 1024, height: 768 },
  { name: 'WXGA', width: 1280, height: 800 },
  { name: 'FWXGA', width: 1366, height: 768 },
];

/**
 * anthropic-quickstarts computer-use-demo `scale_coordinates`: the first target whose aspect ratio is within
 * 0.02 of the screen's decides; it is used only when smaller than the screen. Returns null for "no scaling".
 */
export function anthropicQuickstartTarget(width: number, height: number): (Size & { name: string }) | null {
  checkSize(width, height, 'anthropicQuickstartTarget');
  const ratio = width / height;
  for (const target of ANTHROPIC_QUICKSTART_TARGETS) {
    if (Math.abs(target.width / target.height - ratio) < 0.02) {
      return target.width < width ? target : null;
    }
  }
  return null;
}

/** smart_resize settings: sides become multiples of `factor` px, the area kept in minPixels..maxPixels. */
export interface SmartResizeOptions {
  factor?: number;
  minPixels?: number;
  maxPixels?: number;
}

/** smart_resize defaults of Qwen2-VL and Qwen2.5-VL (qwen-vl-utils): 4 to 16384 tokens of 28 x 28 px. */
export const QWEN2_VL_RESIZE = { factor: 28, minPixels: 4 * 28 * 28, maxPixels: 16384 * 28 * 28 } as const;
/** smart_resize defaults of Qwen3-VL (qwen-vl-utils): 4 to 16384 tokens of 32 x 32 px. */
export const QWEN3_VL_RESIZE = { factor: 32, minPixels: 4 * 32 * 32, maxPixels: 16384 * 32 * 32 } as const;
/** smart_resize settings of UI-TARS-1.5: 100 to 16384 tokens of 28 x 28 px (at least 78 400 px in all). */
export const UI_TARS_15_RESIZE = {
  factor: 28,
  minPixels: 100 * 28 * 28,
  maxPixels: 16384 * 28 * 28,
} as const;
const QWEN_MAX_RATIO = 200;

/** Python 3's round(): ties go to the even neighbour (round(2.5) == 2), unlike Math.round. */
export function pythonRound(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * QwenLM qwen-vl-utils `smart_resize(height, width, factor, min_pixels, max_pixels)`, line for line:
 * round each side to a multiple of `factor`; if over max_pixels shrink by beta = sqrt(h*w/max) and floor to the
 * factor; if under min_pixels grow by beta = sqrt(min/(h*w)) and ceil. Height first, as in the original.
 */
export function qwenSmartResize(height: number, width: number, options: SmartResizeOptions = {}): Size {
  checkSize(width, height, 'qwenSmartResize');
  const factor = options.factor ?? QWEN2_VL_RESIZE.factor;
  const minPixels = options.minPixels ?? QWEN2_VL_RESIZE.minPixels;
  const maxPixels = options.maxPixels ?? QWEN2_VL_RESIZE.maxPixels;
  if (Math.max(height, width) / Math.min(height, width) > QWEN_MAX_RATIO) {
    throw new GeometryError(
      'ASPECT_TOO_EXTREME',
      `smart_resize refuses aspect ratios above ${QWEN_MAX_RATIO} (got ${width}x${height}).`,
      'Send a less elongated image, e.g. crop it.',
    );
  }
  let hBar = Math.max(factor, pythonRound(height / factor) * factor);
  let wBar = Math.max(factor, pythonRound(width / factor) * factor);
  if (hBar * wBar > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    hBar = Math.floor(height / beta / factor) * factor;
    wBar = Math.floor(width / beta / factor) * factor;
  } else if (hBar * wBar < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    hBar = Math.ceil((height * beta) / factor) * factor;
    wBar = Math.ceil((width * beta) / factor) * factor;
  }
  return { width: wBar, height: hBar };
}

/** The size (px) at which Qwen3-VL reads an image of the given size: smart_resize with QWEN3_VL_RESIZE. */
export function qwen3VlResize(height: number, width: number): Size {
  return qwenSmartResize(height, width, QWEN3_VL_RESIZE);
}

/** The size (px) at which UI-TARS-1.5 reads an image of the given size, the grid its pixel answers are in. */
export function uiTars15Resize(height: number, width: number): Size {
  return qwenSmartResize(height, width, UI_TARS_15_RESIZE);
}

/** The image size the model reads, given the size it was handed. Inputs are rounded: images are whole pixels. */
export function applyResize(rule: ResizeRule, width: number, height: number): Size {
  if (rule === 'none') return { width, height };
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  switch (rule) {
    case 'claude': {
      const r = claudeResize(w, h);
      return { width: r.width, height: r.height };
    }
    case 'anthropic-quickstart':
      return anthropicQuickstartTarget(w, h) ?? { width: w, height: h };
    case 'qwen2.5-vl':
      return qwenSmartResize(h, w);
    case 'ui-tars-1.5':
      return uiTars15Resize(h, w);
  }
}
