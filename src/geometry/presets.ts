// One preset per model family: how its answers are to be read (research/conventions.md section 1 has the
// sources). A preset only supplies defaults; explicit request fields override it.

import type { Convention } from './conventions.js';
import { GeometryError, show } from './errors.js';

/** The model families trueclick knows how to read, the values of a request's `model` field. */
export const PRESET_NAMES = [
  'claude',
  'anthropic-quickstart',
  'openai-cua',
  'gemini',
  'qwen2-vl',
  'qwen2.5-vl',
  'qwen3-vl',
  'ui-tars',
  'ui-tars-1.5',
  'molmo',
  'florence-2',
  'seeclick',
  'showui',
  'os-atlas',
] as const;

/** One of PRESET_NAMES: a model family whose answers trueclick can read. */
export type PresetName = (typeof PRESET_NAMES)[number];

/**
 * Output grammars a parser recognises. The generic ones (plain arrays, tuples, named x/y, pyautogui calls) are
 * read by every preset; the family-specific ones are accepted only by their families, because the same numbers
 * mean different things elsewhere (Qwen2.5-VL bbox_2d is pixels, Qwen3-VL bbox_2d is per-mille).
 */
export const GENERIC_GRAMMARS = ['array', 'tuple', 'named-xy', 'pyautogui'] as const;
export const FAMILY_GRAMMARS = [
  'box_2d',
  'qwen-json',
  'box-tokens',
  'qwen-vl-box',
  'molmo-point',
  'loc-tokens',
  'ui-tars-action',
  'point-tag',
] as const;
/** An output form a model's answer can take: one of GENERIC_GRAMMARS, or of a family's FAMILY_GRAMMARS. */
export type Grammar = (typeof GENERIC_GRAMMARS)[number] | (typeof FAMILY_GRAMMARS)[number];

/** How one model family's answers are read: its default convention and the output forms it accepts. */
export interface Preset {
  name: PresetName;
  convention: Omit<Convention, 'shown_width' | 'shown_height' | 'model'>;
  /** Family-specific grammars this preset's parser accepts, in addition to the generic ones. */
  grammars: readonly Grammar[];
  /** What the family's numbers are, in one line, for error messages and docs. */
  summary: string;
}

const base = {
  box_format: 'xyxy',
  axis_order: 'xy',
  origin: 'top-left',
  space: 'image',
  resize: 'none',
  quantization: 'none',
} as const;

/** The preset of every model family, by name (sources in research/conventions.md, section 1). */
export const PRESETS: Readonly<Record<PresetName, Preset>> = {
  claude: {
    name: 'claude',
    convention: { ...base, units: 'px', resize: 'claude' },
    grammars: [],
    summary: 'pixels of the image after Claude’s resize (long edge <= 1568, <= 1.15 MP), [x, y]',
  },
  'anthropic-quickstart': {
    name: 'anthropic-quickstart',
    convention: { ...base, units: 'px', resize: 'anthropic-quickstart' },
    grammars: [],
    summary: 'pixels of the screenshot scaled to XGA/WXGA/FWXGA as the computer-use quickstart does, [x, y]',
  },
  'openai-cua': {
    name: 'openai-cua',
    convention: { ...base, units: 'px' },
    grammars: [],
    summary: 'pixels of the screenshot as declared (display_width; pass shown_width if it differs), {x, y}',
  },
  gemini: {
    name: 'gemini',
    convention: { ...base, units: 'permille', axis_order: 'yx' },
    grammars: ['box_2d'],
    summary:
      'per-mille 0..1000, y first: box_2d [ymin, xmin, ymax, xmax], point [y, x]; click_at(x=, y=) is named x/y',
  },
  'qwen2-vl': {
    name: 'qwen2-vl',
    convention: { ...base, units: 'permille' },
    grammars: ['box-tokens', 'qwen-vl-box'],
    summary: 'per-mille 0..1000, <|box_start|>(x1,y1),(x2,y2)<|box_end|>',
  },
  'qwen2.5-vl': {
    name: 'qwen2.5-vl',
    convention: { ...base, units: 'px', resize: 'qwen2.5-vl' },
    grammars: ['qwen-json'],
    summary: 'pixels of the smart_resize-d image (sides multiples of 28), bbox_2d / point_2d / coordinate',
  },
  'qwen3-vl': {
    name: 'qwen3-vl',
    convention: { ...base, units: 'permille' },
    grammars: ['qwen-json'],
    summary: 'per-mille 0..1000, bbox_2d [x1, y1, x2, y2] / point_2d [x, y]',
  },
  'ui-tars': {
    name: 'ui-tars',
    convention: { ...base, units: 'permille' },
    grammars: ['ui-tars-action', 'box-tokens', 'point-tag'],
    summary: "per-mille 0..1000, click(start_box='(x,y)')",
  },
  'ui-tars-1.5': {
    name: 'ui-tars-1.5',
    convention: { ...base, units: 'px', resize: 'ui-tars-1.5' },
    grammars: ['ui-tars-action', 'box-tokens', 'point-tag'],
    summary:
      "pixels of the smart_resize-d image (min 78 400 px), click(start_box='(x,y)') or <point>x y</point>",
  },
  molmo: {
    name: 'molmo',
    convention: { ...base, units: 'percent' },
    grammars: ['molmo-point'],
    summary: 'percent 0..100, <point x="61.5" y="40.6" alt="...">',
  },
  'florence-2': {
    name: 'florence-2',
    convention: { ...base, units: 'permille', quantization: 'bin-centre' },
    grammars: ['loc-tokens'],
    summary: '1000 bins per axis, <loc_k> read at the bin centre (k + 0.5) / 1000',
  },
  seeclick: {
    name: 'seeclick',
    convention: { ...base, units: 'normalized' },
    grammars: ['qwen-vl-box'],
    summary: 'normalized 0..1, (x, y) or (left, top, right, bottom)',
  },
  showui: {
    name: 'showui',
    convention: { ...base, units: 'normalized' },
    grammars: [],
    summary: 'normalized 0..1, [x, y]',
  },
  'os-atlas': {
    name: 'os-atlas',
    convention: { ...base, units: 'permille' },
    grammars: ['box-tokens', 'qwen-vl-box', 'point-tag'],
    summary: 'per-mille 0..1000, <|box_start|>(x1,y1),(x2,y2)<|box_end|> or a centre point',
  },
};

/** Whether a value names a known preset. */
export function isPresetName(name: unknown): name is PresetName {
  return typeof name === 'string' && (PRESET_NAMES as readonly string[]).includes(name);
}

/** The preset of a model family; throws a GeometryError listing the known names when there is none. */
export function presetFor(name: unknown): Preset {
  if (isPresetName(name)) return PRESETS[name];
  throw new GeometryError(
    'UNKNOWN_PRESET',
    `model ${show(name)} is not a known preset.`,
    `Pass model as one of ${PRESET_NAMES.map((n) => `'${n}'`).join(', ')}, or omit model and pass units/box_format/axis_order yourself.`,
    'model',
  );
}
