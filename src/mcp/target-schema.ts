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
import { documented } from './field-docs.js';

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

// Each description is read by the model on every step: it says the unit and what to do, nothing more. What
// else a field means is its doc (field-docs.ts), which only docs/tools.md and the README print.

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
  origin: gated(
    'convention',
    documented(
      z.enum(ORIGINS).optional(),
      'The corner y is measured from: top-left (default, as screenshots and CSS) or bottom-left (y grows upwards from the bottom edge of the image, or of the viewport for css units).',
    ),
  ),
  space: gated(
    'convention',
    z.enum(SPACES).optional().describe('page: document px, scroll included; screen: screen px.'),
  ),
  shown_width: gated(
    'convention',
    z.number().min(16).max(MAX_SHOWN_SIDE).optional().describe('Width, px, the client resized the image to.'),
  ),
  shown_height: gated(
    'convention',
    documented(
      z.number().min(16).max(MAX_SHOWN_SIDE).optional(),
      'Height, px, the client resized the image to; default: in proportion to shown_width (give both when the client changed the aspect ratio).',
    ),
  ),
};

export const frameField = documented(
  z.string().max(32).optional().describe('Screenshot id, e.g. "f3".'),
  'The frame (of browser_screenshot or browser_zoom) whose image the numbers were read off; it must be of the tab trueclick acts on, taken since its last navigation. Without it, numbers are CSS px of the viewport now.',
);

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
  x: documented(
    coordinate.optional(),
    'The point’s distance from the left edge: px of the frame’s image as sent (`frame.image`) by default; CSS px of the viewport without `frame`; `model` or the convention fields name another reading (per-mille, a resized image…).',
  ),
  y: documented(
    coordinate.optional(),
    'The point’s distance from the top edge (the bottom with origin bottom-left), read as x is.',
  ),
  box: documented(
    z.array(coordinate).max(8).optional().describe('[x1, y1, x2, y2]; its centre is used.'),
    'Four numbers in the units x, y would be in; box_format says how they are laid out (default xyxy: left, top, right, bottom).',
  ),
  mark: markField,
};

export const expectField = documented(
  z
    .object({
      text: z.string().max(500).optional(),
      context: z.string().max(500).optional().describe('Text of its row or card.'),
      role: z.string().max(64).optional(),
      name: z.string().max(500).optional(),
      selector: z.string().max(1_000).optional(),
    })
    .strict()
    .optional()
    .describe('What you mean to hit; refused if the point holds something else.'),
  '{text: its own text or accessible name contains this; context: the text of its row, card or list item (or its own) contains this; role: its role is this; name: its accessible name contains this; selector: it or an ancestor matches this CSS selector, judged on the live element}. Text and roles are compared ignoring case; every field given must fit. On MISSED_TARGET the answer says where the described element was in the frame (`expectedAt`).',
);

export const followField = documented(
  z.boolean().optional().describe('If its row moved since the frame, act on it where it is now.'),
  'When the record (row, card, item) the frame showed at the point has moved, find it by the text that named it in the frame and act there, after the whole check again at that place; the answer says `followed` {from, to, record, why}. Never a guess: not followed, and refused as without it, when the record cannot be told apart, left the view, changed, appears twice, or is covered or disabled there (`notFollowed` says why). Off by default: some agents mean a place, not a record.',
);

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
  follow: followField,
};

/** The names of targetShape that say where (as opposed to how to read it): one of them makes a target. */
export const TARGET_KEYS = ['x', 'y', 'box', 'mark', 'model_output'] as const;

export function hasTarget(args: Record<string, unknown>): boolean {
  return TARGET_KEYS.some((k) => args[k] !== undefined);
}
