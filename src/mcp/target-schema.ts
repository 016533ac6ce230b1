import { z } from 'zod';
import { AXIS_ORDERS, BOX_FORMATS, ORIGINS, PRESET_NAMES, SPACES, UNITS } from '../geometry/index.js';

/** The target fields shared by browser_click, browser_point and browser_type (SPEC S3/S4). */
export const targetShape = {
  frame: z
    .string()
    .optional()
    .describe(
      'Id of the browser_screenshot frame the point was read from (e.g. "f3"). With a frame, x/y/box default to pixels of that screenshot image; without one, to CSS viewport px.',
    ),
  x: z
    .number()
    .optional()
    .describe(
      'Horizontal coordinate, in `units` (default: image px of `frame`, or CSS px without a frame), from the left edge.',
    ),
  y: z
    .number()
    .optional()
    .describe('Vertical coordinate, in `units`, from the top edge (bottom edge when origin is bottom-left).'),
  box: z
    .array(z.number())
    .optional()
    .describe(
      'A box instead of a point, 4 numbers in `units` and `box_format` (default xyxy: left, top, right, bottom); its centre is used.',
    ),
  mark: z
    .number()
    .int()
    .optional()
    .describe(
      'Number of a mark drawn by browser_screenshot {marks: true}; resolved by element identity at click time.',
    ),
  model: z
    .enum(PRESET_NAMES)
    .optional()
    .describe(
      'Model family whose coordinate convention to apply (units, axis order, resize rule), e.g. "gemini" = per-mille [y, x], "qwen2.5-vl" = px of the smart-resized image.',
    ),
  model_output: z
    .string()
    .optional()
    .describe(
      "The model's raw answer text (e.g. `{\"box_2d\":[100,200,300,400]}`, `click(start_box='(512,300)')`), parsed by the `model` preset. Replaces x/y/box.",
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
    .optional()
    .describe(
      'Width in px at which the client showed the image to the model, if it resized it (units px then mean px of that shown image).',
    ),
  shown_height: z
    .number()
    .optional()
    .describe('Height in px of the shown image (default: proportional to shown_width).'),
  expect: z
    .object({
      text: z.string().optional().describe('Text of the element itself, e.g. "Delete".'),
      context: z
        .string()
        .optional()
        .describe('Text of its row / list item / card, e.g. the row label "TCK-7741".'),
      role: z.string().optional().describe('ARIA role, e.g. "button", "checkbox", "link".'),
      name: z.string().optional().describe('Accessible name.'),
      selector: z.string().optional().describe('A CSS selector the element must match.'),
    })
    .optional()
    .describe(
      'What you mean to click. If the point does not hold it, nothing is clicked and the answer says where it was.',
    ),
};
