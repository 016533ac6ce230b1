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

/** How the numbers are to be read: units, box layout, axis order, origin, space, the size the model saw. */
export const conventionShape = {
  model: z
    .enum(PRESET_NAMES)
    .optional()
    .describe(
      'Model family whose coordinate convention to apply (units, axis order, resize rule), e.g. "gemini" = per-mille [y, x], "qwen2.5-vl" = px of the smart-resized image.',
    ),
  units: z
    .enum(UNITS)
    .optional()
    .describe(
      'px = pixels of the frame image (as shown at `shown_width`, if given); css = CSS px; normalized = 0–1; permille = 0–1000; percent = 0–100 of the image.',
    ),
  box_format: z
    .enum(BOX_FORMATS)
    .optional()
    .describe('Layout of `box`: corners, corner+size, or centre+size.'),
  axis_order: z.enum(AXIS_ORDERS).optional().describe('yx when the model writes y before x (Gemini).'),
  origin: z.enum(ORIGINS).optional().describe('Where y = 0 is.'),
  space: z
    .enum(SPACES)
    .optional()
    .describe(
      'What the numbers measure: the screenshot image, the CSS viewport, the whole page (document px, scroll included) or the screen.',
    ),
  shown_width: z
    .number()
    .min(16)
    .max(MAX_SHOWN_SIDE)
    .optional()
    .describe(
      'Width in px at which the client showed the image to the model, if it resized it (units px then mean px of that shown image).',
    ),
  shown_height: z
    .number()
    .min(16)
    .max(MAX_SHOWN_SIDE)
    .optional()
    .describe('Height in px of the shown image (default: proportional to shown_width).'),
};

export const frameField = z
  .string()
  .max(32)
  .optional()
  .describe(
    'Id of the browser_screenshot frame the point was read from (e.g. "f3"). With a frame, x/y/box default to pixels of that screenshot image; without one, to CSS viewport px.',
  );

/** One target: a point, a box, a mark or a model's raw answer. */
export const pointShape = {
  x: coordinate
    .optional()
    .describe(
      'Horizontal coordinate, in `units` (default: image px of `frame`, or CSS px without a frame), from the left edge.',
    ),
  y: coordinate
    .optional()
    .describe('Vertical coordinate, in `units`, from the top edge (bottom edge when origin is bottom-left).'),
  box: z
    .array(coordinate)
    .max(8)
    .optional()
    .describe(
      'A box instead of a point, 4 numbers in `units` and `box_format` (default xyxy: left, top, right, bottom); its centre is used.',
    ),
  mark: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe(
      'Number of a mark drawn by browser_screenshot {marks: true}; resolved by element identity at action time.',
    ),
};

export const expectField = z
  .object({
    text: z.string().max(500).optional().describe('Text of the element itself, e.g. "Delete".'),
    context: z
      .string()
      .max(500)
      .optional()
      .describe('Text of its row / list item / card, e.g. the row label "TCK-7741".'),
    role: z.string().max(64).optional().describe('ARIA role, e.g. "button", "checkbox", "link".'),
    name: z.string().max(500).optional().describe('Accessible name.'),
    selector: z.string().max(1_000).optional().describe('A CSS selector the element must match.'),
  })
  .strict()
  .optional()
  .describe(
    'What you mean to act on. If the point does not hold it, nothing is done and the answer says where it was.',
  );

export const modifiersField = z
  .array(z.enum(['Alt', 'Control', 'Meta', 'Shift']))
  .max(4)
  .optional()
  .describe(
    'Keys held during the action, e.g. ["Shift"] for a range select, ["Control"] to open a link in a new tab.',
  );

/** The target fields shared by every action on a point (click, point, hover, type, select, upload, scroll). */
export const targetShape = {
  frame: frameField,
  ...pointShape,
  model_output: z
    .string()
    .max(MAX_MODEL_OUTPUT_CHARS)
    .optional()
    .describe(
      "The model's raw answer text (e.g. `{\"box_2d\":[100,200,300,400]}`, `click(start_box='(512,300)')`), parsed by the `model` preset. Replaces x/y/box.",
    ),
  ...conventionShape,
  expect: expectField,
};

/** The names of targetShape that say where (as opposed to how to read it): one of them makes a target. */
export const TARGET_KEYS = ['x', 'y', 'box', 'mark', 'model_output'] as const;

export function hasTarget(args: Record<string, unknown>): boolean {
  return TARGET_KEYS.some((k) => args[k] !== undefined);
}
