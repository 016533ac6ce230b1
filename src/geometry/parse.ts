// Reads one click target out of a model's raw answer. Tolerant of prose and markdown around it; strict about
// ambiguity: two different targets, or a form another family writes, are refused rather than guessed.

import type { AxisOrder } from './conventions.js';
import { GeometryError, show } from './errors.js';
import { findMatches, type Match } from './grammars.js';
import {
  GENERIC_GRAMMARS,
  type Grammar,
  PRESET_NAMES,
  PRESETS,
  type PresetName,
  presetFor,
} from './presets.js';

/** The one click target read out of a model's raw answer: its numbers as written, not yet in any px. */
export interface ParsedOutput {
  kind: 'point' | 'box';
  /** 2 numbers for a point, 4 for a box, in the order the text wrote them. */
  values: number[];
  /**
   * Set when the text names its axes (`click_at(x=.., y=..)`, `{"x":..,"y":..}`, `<point x= y=>`,
   * `pyautogui.click(x, y)`): the values are then x first whatever the preset's default order (Gemini's
   * box_2d and point are y first, its Computer Use click_at is named x/y).
   */
  axis_order?: AxisOrder;
  grammar: Grammar;
}

/** Longest model answer parseModelOutput reads, in characters; a longer text is refused, not scanned. */
export const MAX_MODEL_OUTPUT_CHARS = 100_000;

const GRAMMAR_NAMES: Readonly<Record<Grammar, string>> = {
  array: 'a [x, y] array',
  tuple: 'an (x, y) tuple',
  'named-xy': 'named x/y values',
  pyautogui: 'a pyautogui call',
  box_2d: 'a box_2d',
  'qwen-json': 'a bbox_2d / point_2d',
  'box-tokens': 'a <|box_start|>...<|box_end|> box',
  'qwen-vl-box': 'a <box>(x,y),(x,y)</box> box',
  'molmo-point': 'a <point x= y=> tag',
  'loc-tokens': '<loc_N> tokens',
  'ui-tars-action': "a start_box='(x,y)' action",
  'point-tag': 'a <point>x y</point> / <bbox> tag',
};

function isGeneric(g: Grammar): boolean {
  return (GENERIC_GRAMMARS as readonly string[]).includes(g);
}

function familiesFor(g: Grammar): PresetName[] {
  return PRESET_NAMES.filter((n) => PRESETS[n].grammars.includes(g));
}

function snippet(text: string, m: Match): string {
  return JSON.stringify(text.slice(m.start, Math.min(m.end, m.start + 80)));
}

/** The target as x-first numbers with a box reduced to its xyxy centre, so forms can be compared. */
function centreXY(m: Match, presetOrder: AxisOrder): [number, number] {
  const v = m.named || presetOrder === 'xy' ? m.values : swapPairs(m.values);
  if (v.length === 4) return [((v[0] ?? 0) + (v[2] ?? 0)) / 2, ((v[1] ?? 0) + (v[3] ?? 0)) / 2];
  return [v[0] ?? 0, v[1] ?? 0];
}

function swapPairs(v: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < v.length; i += 2) out.push(v[i + 1] ?? 0, v[i] ?? 0);
  return out;
}

function same(a: [number, number], b: [number, number]): boolean {
  const close = (p: number, q: number) =>
    p === q || Math.abs(p - q) <= 1e-9 * Math.max(Math.abs(p), Math.abs(q));
  return close(a[0], b[0]) && close(a[1], b[1]);
}

/**
 * Reads the single click target in a model's raw answer, in the preset's family's output forms. Prose and
 * markdown around it are fine; two different targets, or a form another family writes, are refused.
 */
export function parseModelOutput(preset: PresetName, text: string): ParsedOutput {
  const p = presetFor(preset);
  if (typeof text !== 'string') {
    throw new GeometryError(
      'BAD_REQUEST',
      `model_output is ${show(text)}, not text.`,
      "Pass the model's raw answer as a string.",
      'model_output',
    );
  }
  if (text.length > MAX_MODEL_OUTPUT_CHARS) {
    throw new GeometryError(
      'BAD_REQUEST',
      `model_output is ${text.length} characters long.`,
      `Pass only the model's answer (at most ${MAX_MODEL_OUTPUT_CHARS} characters), or x/y or box directly.`,
      'model_output',
    );
  }
  const matches = findMatches(text);

  const foreign = matches.find((m) => !isGeneric(m.grammar) && !p.grammars.includes(m.grammar));
  if (foreign !== undefined) {
    const families = familiesFor(foreign.grammar);
    throw new GeometryError(
      'PARSE_WRONG_FAMILY',
      `model_output holds ${GRAMMAR_NAMES[foreign.grammar]} ${snippet(text, foreign)}, which is how ${families.join(' / ')} answer, not ${p.name} (${p.summary}).`,
      `Pass model: '${families[0] ?? 'the family that wrote it'}' if that model wrote it, or pass x/y or box with explicit units.`,
      'model_output',
    );
  }
  const malformed = matches.find((m) => m.badArity !== undefined && !isGeneric(m.grammar));
  if (malformed?.badArity !== undefined) {
    throw new GeometryError(
      'PARSE_BAD_ARITY',
      `model_output: ${malformed.badArity}.`,
      'Pass an answer with one point (2 numbers) or one box (4 numbers), or pass x/y or box directly.',
      'model_output',
    );
  }
  const candidates = matches.filter((m) => m.badArity === undefined);
  const first = candidates.find((m) => !isGeneric(m.grammar)) ?? candidates[0];
  if (first === undefined) {
    const odd = matches.find((m) => m.badArity !== undefined);
    throw new GeometryError(
      'PARSE_NO_TARGET',
      `No click target found in model_output ${show(text)}${odd?.badArity === undefined ? '' : ` (${odd.badArity})`}.`,
      `A ${p.name} answer is ${p.summary}; pass the model's raw answer text, or pass x/y or box directly.`,
      'model_output',
    );
  }
  const target = centreXY(first, p.convention.axis_order);
  const other = candidates.find((m) => !same(centreXY(m, p.convention.axis_order), target));
  if (other !== undefined) {
    throw new GeometryError(
      'PARSE_AMBIGUOUS',
      `model_output holds two different targets: ${snippet(text, first)} and ${snippet(text, other)}.`,
      'Pass an answer with a single click target (one action), or pass x/y or box directly.',
      'model_output',
    );
  }
  const result: ParsedOutput = {
    kind: first.values.length === 4 ? 'box' : 'point',
    values: first.values,
    grammar: first.grammar,
  };
  if (first.named) result.axis_order = 'xy';
  return result;
}
