// A click request as the MCP tools receive it, and the convention it implies: preset first, explicit fields
// over it, defaults for the rest, every combination checked so the resolver only sees sensible ones.

import {
  AXIS_ORDERS,
  BOX_FORMATS,
  type BoxFormat,
  type Convention,
  checkOption,
  isImageUnits,
  OPTION_HELP,
  ORIGINS,
  SPACES,
  UNITS,
  type Units,
} from './conventions.js';
import { GeometryError, show } from './errors.js';
import type { FrameGeometry } from './frame.js';
import { type PresetName, presetFor } from './presets.js';

/** Mirrors the MCP tool input fields, snake_case on purpose. */
export interface TargetRequest {
  x?: number;
  y?: number;
  box?: number[];
  model?: PresetName;
  model_output?: string;
  units?: Convention['units'];
  box_format?: BoxFormat;
  axis_order?: Convention['axis_order'];
  origin?: Convention['origin'];
  space?: Convention['space'];
  shown_width?: number;
  shown_height?: number;
}

/** JSON clients send null for "not given"; treat it like undefined. */
export function given(v: unknown): boolean {
  return v !== undefined && v !== null;
}

export function asRecord(req: unknown): Record<string, unknown> {
  if (typeof req === 'object' && req !== null && !Array.isArray(req)) return req as Record<string, unknown>;
  throw new GeometryError(
    'BAD_REQUEST',
    `The request is ${show(req)}.`,
    'Pass an object with one target (x and y, box, or model_output) and its convention fields.',
  );
}

function shownSide(r: Record<string, unknown>, field: 'shown_width' | 'shown_height'): number | undefined {
  const v = r[field];
  if (!given(v)) return undefined;
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v;
  throw new GeometryError(
    'BAD_SHOWN_SIZE',
    `${field} ${show(v)} is not a positive number of pixels.`,
    `Pass ${field} as the ${field === 'shown_width' ? 'width' : 'height'} in px at which the model saw the image (e.g. 1024), or omit it if the model saw the image as sent.`,
    field,
  );
}

/**
 * The convention a request asks for. `frame` only decides the default units: 'px' (of the frame's image) when
 * there is a frame, else 'css'.
 */
export function conventionFor(req: TargetRequest, frame?: FrameGeometry): Convention {
  const r = asRecord(req);
  const preset = given(r.model) ? presetFor(r.model) : undefined;
  const pick = <T extends string>(field: keyof typeof OPTION_HELP, allowed: readonly T[], fallback: T): T =>
    given(r[field]) ? checkOption(field, r[field], allowed, OPTION_HELP[field]) : fallback;

  const defaultUnits: Units = preset?.convention.units ?? (frame === undefined ? 'css' : 'px');
  const units = pick('units', UNITS, defaultUnits);
  const space = pick('space', SPACES, isImageUnits(units) ? 'image' : 'viewport');
  const origin = pick('origin', ORIGINS, preset?.convention.origin ?? 'top-left');
  const convention: Convention = {
    units,
    box_format: pick('box_format', BOX_FORMATS, preset?.convention.box_format ?? 'xyxy'),
    axis_order: pick('axis_order', AXIS_ORDERS, preset?.convention.axis_order ?? 'xy'),
    origin,
    space,
    // A preset's resize and bins describe its own units; they do not follow an override to other units.
    resize: units === 'px' && preset?.convention.units === 'px' ? preset.convention.resize : 'none',
    quantization:
      preset !== undefined && units === preset.convention.units ? preset.convention.quantization : 'none',
  };
  if (preset !== undefined) convention.model = preset.name;

  if (isImageUnits(units) && space !== 'image') {
    throw new GeometryError(
      'SPACE_MISMATCH',
      `units '${units}' measure the image, but space is '${space}'.`,
      `Pass space 'image' (or omit it) with units '${units}', or pass units 'css' for CSS px in the ${space}.`,
      'space',
    );
  }
  if (units === 'css' && space === 'image') {
    throw new GeometryError(
      'SPACE_MISMATCH',
      "units 'css' cannot be in space 'image'.",
      "Pass space 'viewport', 'page' or 'screen' with units 'css', or units 'px' for pixels of the image.",
      'space',
    );
  }
  if (units === 'css' && origin === 'bottom-left' && space !== 'viewport') {
    throw new GeometryError(
      'SPACE_MISMATCH',
      `origin 'bottom-left' in space '${space}' needs the ${space}'s height, which trueclick does not know.`,
      "Pass viewport coordinates (space 'viewport') with origin 'bottom-left', or top-left coordinates.",
      'origin',
    );
  }
  const shownWidth = shownSide(r, 'shown_width');
  const shownHeight = shownSide(r, 'shown_height');
  if (shownWidth !== undefined) convention.shown_width = shownWidth;
  if (shownHeight !== undefined) convention.shown_height = shownHeight;
  return convention;
}
