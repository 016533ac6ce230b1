// trueclick's reader of computer-use models' native actions: what Claude, OpenAI's computer tool, Gemini,
// UI-TARS or Qwen emitted → family-neutral steps, coordinates kept as written. Pure: no browser, no MCP.

import { PRESETS, type PresetName, show } from '../geometry/index.js';
import { readAnthropic } from './anthropic.js';
import { NativeActionError } from './errors.js';
import { readGemini } from './gemini.js';
import { NATIVE_LIMITS } from './limits.js';
import { readOpenAI } from './openai.js';
import { readQwen } from './qwen.js';
import type { Scope } from './read.js';
import type { Parsed } from './steps.js';
import type { Family, NativeBatch } from './types.js';
import { readUiTars } from './ui-tars.js';

export { NATIVE_ERROR_CODES, NativeActionError, type NativeErrorCode } from './errors.js';
export {
  asModifiers,
  chordOfList,
  chordOfPlus,
  chordOfWords,
  modifierOf,
  playwrightKey,
  sequenceOf,
} from './keys.js';
export { GRID_MAX, NATIVE_LIMITS } from './limits.js';
export type {
  Button,
  Family,
  FieldPath,
  Modifier,
  NativeBatch,
  NativePoint,
  NativeStep,
  ScrollAmount,
  StepKind,
} from './types.js';

const FAMILIES: ReadonlyMap<PresetName, Family> = new Map<PresetName, Family>([
  ['claude', 'anthropic'],
  ['anthropic-quickstart', 'anthropic'],
  ['openai-cua', 'openai'],
  ['gemini', 'gemini'],
  ['ui-tars', 'ui-tars'],
  ['ui-tars-1.5', 'ui-tars'],
  ['qwen2.5-vl', 'qwen'],
  ['qwen3-vl', 'qwen'],
]);

/** The model presets whose native action format parseNativeAction reads. */
export const NATIVE_MODELS: readonly PresetName[] = [...FAMILIES.keys()];

const READERS: Readonly<Record<Family, (scope: Scope, output: unknown) => Parsed>> = {
  anthropic: readAnthropic,
  openai: readOpenAI,
  gemini: readGemini,
  'ui-tars': readUiTars,
  qwen: readQwen,
};

export function familyOf(model: PresetName): Family | undefined {
  return FAMILIES.get(model);
}

/**
 * Reads what a computer-use model emitted (the object, or its raw text) into steps. Throws NativeActionError,
 * whose message says what was wrong in the family's own field names and what to send instead.
 */
export function parseNativeAction(model: PresetName, action: unknown): NativeBatch {
  const family = familyOf(model);
  if (family === undefined) {
    throw new NativeActionError(
      'NATIVE_NO_FORMAT',
      `model ${show(model)} has no native action format in trueclick.`,
      `Pass model as one of ${NATIVE_MODELS.join(', ')}, or send a point with browser_click instead.`,
      'model',
    );
  }
  if (typeof action === 'string' && action.length > NATIVE_LIMITS.rawChars) {
    throw new NativeActionError(
      'NATIVE_TOO_LARGE',
      `The model output holds ${action.length} characters; trueclick reads at most ${NATIVE_LIMITS.rawChars}.`,
      "Pass only the model's latest answer (its action part), not the whole conversation.",
      'model_output',
    );
  }
  // The grid families are the per-mille presets: their coordinates are range-checked while reading.
  const scope: Scope = { family, model, grid: PRESETS[model].convention.units === 'permille' };
  const { steps, reply } = READERS[family](scope, action);
  return { family, model, steps, reply };
}
