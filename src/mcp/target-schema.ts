import { z } from 'zod';
import {
  AXIS_ORDERS,
  BOX_FORMATS,
  MAX_MODEL_OUTPUT_CHARS,
  ORIGINS,
  PRESET_NAMES,
  SPACES,
  UNITS,
} from '../geometry/index.js';
import type { Cap } from './caps.js';

// The argument shapes the tools share (SPEC S3/S4), each bounded by what it measures: a coordinate is at
// most a very large screen, a shown image at most 16384 px a side, a text at most what typing can send in
// a reasonable time.

/** Largest coordinate magnitude taken in any unit (css px of a page, px of an image, per-mille…). */
export const MAX_COORDINATE = 100_000;
/** Largest side of an image a client may have shown, px. */
export const MAX_SHOWN_SIDE = 16_384;
/** Text typed in one call: 10 000 characters take about 30 s of key events. */
export const MAX_TEXT = 10_000;
export const MAX_URL = 8_192;

const coordinate = z.number().finite().min(-MAX_COORDINATE).max(MAX_COORDINATE);

/** Fields a group brings (caps.ts): left out of the schema, and refused, when that group is off. */
export const FIELD_CAPS = new WeakMap<z.ZodType, Cap>();

function gated<T extends z.ZodType>(cap: Cap, field: T): T {
  FIELD_CAPS.set(field, cap);
  return field;
}

// Each description is read by the model on every step: it says the unit and what to do, nothing more. The
// long explanations are in docs/tools.md.

/** The expert fields that say how to read the numbers (the `model` preset sets them for a family). */
export const conventionShape = {
  units: gated(
    'convention',
    z
      .enum(UNITS)
      .optional()
      .describe(
        'px: of the frame image (default); css: CSS px; normalized 0–1, permille 0–1000, percent 0–100.',
      ),
  ),
  box_format: gated('convention', z.enum(BOX_FORMATS).optional().describe('Layout of `box` (default xyxy).')),
  axis_order: gated('convention', z.enum(AXIS_ORDERS).optional().describe('yx: y written first.')),
  origin: gated('convention', z.enum(ORIGINS).optional()),
  space: gated(
    'convention',
    z.enum(SPACES).optional().describe('page: document px, scroll included; screen: screen px.'),
  ),
  shown_width: gated(
    'convention',
    z.number().min(16).max(MAX_SHOWN_SIDE).optional().describe('Width, px, the client resized the image to.'),
  ),
  shown_height: gated('convention', z.number().min(16).max(MAX_SHOWN_SIDE).optional()),
};

export const frameField = z.string().max(32).optional().describe('Screenshot id, e.g. "f3".');

export const modelField = z
  .enum(PRESET_NAMES)
  .optional()
  .describe('Read the numbers in this model family’s convention (e.g. gemini: per-mille [y, x]).');

export const marksField = gated(
  'marks',
  z.boolean().optional().describe('Number the interactive elements; target one by `mark`.'),
);

export const markField = gated(
  'marks',
  z.number().int().min(1).max(10_000).optional().describe('A mark number of the screenshot.'),
);

/** One target: a point, a box, a mark or a model's raw answer. */
export const pointShape = {
  x: coordinate.optional(),
  y: coordinate.optional(),
  box: z.array(coordinate).max(8).optional().describe('[x1, y1, x2, y2]; its centre is used.'),
  mark: markField,
};

export const expectField = z
  .object({
    text: z.string().max(500).optional(),
    context: z.string().max(500).optional().describe('Text of its row or card.'),
    role: z.string().max(64).optional(),
    name: z.string().max(500).optional(),
    selector: z.string().max(1_000).optional(),
  })
  .strict()
  .optional()
  .describe('What you mean to hit; refused if the point holds something else.');

export const modifiersField = z
  .array(z.enum(['Alt', 'Control', 'Meta', 'Shift']))
  .max(4)
  .optional()
  .describe('Keys held meanwhile.');

/** The target fields shared by every action on a point (click, point, hover, type, select, upload, scroll). */
export const targetShape = {
  frame: frameField,
  ...pointShape,
  model: modelField,
  model_output: z
    .string()
    .max(MAX_MODEL_OUTPUT_CHARS)
    .optional()
    .describe('The model’s raw answer, read with `model`, instead of x, y.'),
  ...conventionShape,
  expect: expectField,
};

/** The names of targetShape that say where (as opposed to how to read it): one of them makes a target. */
export const TARGET_KEYS = ['x', 'y', 'box', 'mark', 'model_output'] as const;

export function hasTarget(args: Record<string, unknown>): boolean {
  return TARGET_KEYS.some((k) => args[k] !== undefined);
}
