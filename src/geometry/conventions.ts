// The vocabulary of SPEC S3: how a model's numbers are to be read. Option lists are runtime arrays so the MCP
// layer can build zod enums from them and the resolver can reject strings outside them with a helpful message.

import { GeometryError, show } from './errors.js';

/**
 * The units a model may write coordinates in: 'px' of the image it saw, 'css' px, or fractions of the image
 * as 'normalized' (0..1), 'permille' (0..1000) or 'percent' (0..100).
 */
export const UNITS = ['px', 'css', 'normalized', 'permille', 'percent'] as const;
/**
 * How four numbers make a box: 'xyxy' [left, top, right, bottom], 'xywh' [left, top, width, height],
 * 'cxcywh' [centre x, centre y, width, height].
 */
export const BOX_FORMATS = ['xyxy', 'xywh', 'cxcywh'] as const;
/** Which coordinate a model writes first: 'xy', or 'yx' as Gemini writes its points and box_2d. */
export const AXIS_ORDERS = ['xy', 'yx'] as const;
/** The corner y is measured from: 'top-left' as screenshots and CSS, 'bottom-left' when y grows upwards. */
export const ORIGINS = ['top-left', 'bottom-left'] as const;
/**
 * What the numbers are measured against: 'image' (the screenshot, for image units), or for 'css' units the
 * 'viewport', the 'page' (viewport + scroll at capture) or the 'screen' (viewport + window offset).
 */
export const SPACES = ['image', 'viewport', 'page', 'screen'] as const;
/** Provider-side resizes that change the pixel grid a model answers in (see resize.ts). */
export const RESIZE_RULES = ['none', 'claude', 'anthropic-quickstart', 'qwen2.5-vl', 'ui-tars-1.5'] as const;
/**
 * How relative values are read: 'none' as written, 'bin-centre' as bin k of 1000 read at (k + 0.5) / 1000
 * (Florence-2).
 */
export const QUANTIZATIONS = ['none', 'bin-centre'] as const;

/** One of UNITS: the unit a model's coordinates are in. */
export type Units = (typeof UNITS)[number];
/** One of BOX_FORMATS: how a box's four numbers are laid out. */
export type BoxFormat = (typeof BOX_FORMATS)[number];
/** One of AXIS_ORDERS: 'xy' x first, 'yx' y first. */
export type AxisOrder = (typeof AXIS_ORDERS)[number];
/** One of ORIGINS: the corner y is measured from. */
export type Origin = (typeof ORIGINS)[number];
/** One of SPACES: what the coordinates are measured against. */
export type Space = (typeof SPACES)[number];
/** One of RESIZE_RULES: the provider's resize from the image sent to the pixel grid the model answers in. */
export type ResizeRule = (typeof RESIZE_RULES)[number];
/** 'bin-centre': values are bin indices k of 1000 bins per axis, read as (k + 0.5) / 1000 (Florence-2). */
export type Quantization = (typeof QUANTIZATIONS)[number];

/**
 * How a model's numbers are to be read (SPEC S3): their units, box layout, axis order, origin and space, and
 * the size and resize of the image the model saw. A model's preset supplies it; request fields override that.
 */
export interface Convention {
  units: Units;
  box_format: BoxFormat;
  axis_order: AxisOrder;
  origin: Origin;
  space: Space;
  /** Width in px at which the frame image was shown to the model (units 'px' only). */
  shown_width?: number;
  shown_height?: number;
  /** Resize the model's provider applies to the image it is given, before the model reads it (units 'px'). */
  resize: ResizeRule;
  quantization: Quantization;
  /** The preset these values came from, if any, for reporting. */
  model?: string;
}

/** Full extent of a relative unit: the value that means "the far edge of the image". */
export const RELATIVE_EXTENT: Readonly<Record<'normalized' | 'permille' | 'percent', number>> = {
  normalized: 1,
  permille: 1000,
  percent: 100,
};

export function isRelative(units: Units): units is 'normalized' | 'permille' | 'percent' {
  return units === 'normalized' || units === 'permille' || units === 'percent';
}

/** Image-space units are measured on the picture; 'css' is measured on the page in some CSS space. */
export function isImageUnits(units: Units): boolean {
  return units !== 'css';
}

export function checkOption<T extends string>(
  field: string,
  value: unknown,
  allowed: readonly T[],
  why: string,
): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new GeometryError(
    'UNKNOWN_OPTION',
    `${field} ${show(value)} is not one of the known values.`,
    `Pass ${field} as one of ${allowed.map((a) => `'${a}'`).join(', ')} (${why}).`,
    field,
  );
}

export const OPTION_HELP = {
  units:
    "'px' = pixels of the image the model saw, 'css' = CSS px, 'normalized' = 0..1, 'permille' = 0..1000, 'percent' = 0..100",
  box_format:
    "'xyxy' = [left, top, right, bottom], 'xywh' = [left, top, width, height], 'cxcywh' = [cx, cy, w, h]",
  axis_order: "'xy' = x first, 'yx' = y first as Gemini answers",
  origin: "'top-left' as screenshots, 'bottom-left' when y grows upwards",
  space:
    "'image' for image units, 'viewport' / 'page' (viewport + scroll) / 'screen' (viewport + window offset) for css",
} as const;
