// Every refusal of a model's native output is a NativeActionError: the agent reads `message`, so it names the
// field in the family's own words (input.coordinate, actions[1].x, args.x, arguments.keys[0]) and what to send.

import { TrueclickError } from '../geometry/index.js';

export const NATIVE_ERROR_CODES = [
  /** The model preset has no native action format (molmo, florence-2…). */
  'NATIVE_NO_FORMAT',
  /** Nothing in the input has the shape of this family's actions. */
  'NATIVE_NO_ACTION',
  /** An action (or tool) name the family does not have. */
  'NATIVE_UNKNOWN_ACTION',
  /** A field the action needs is absent. */
  'NATIVE_MISSING_FIELD',
  /** A field of the wrong type, not finite, negative, of the wrong arity or not one of its choices. */
  'NATIVE_BAD_FIELD',
  /** A coordinate outside the 0..1000 grid of a grid family (Gemini, Qwen3-VL, UI-TARS v1). */
  'NATIVE_OFF_GRID',
  /** A key name no mapping knows. */
  'NATIVE_UNKNOWN_KEY',
  /** An element-ref target (Anthropic browser toolset): trueclick acts on coordinates only. */
  'NATIVE_UNSUPPORTED_TARGET',
  /** Over one of the bounds in limits.ts. */
  'NATIVE_TOO_LARGE',
] as const;

export type NativeErrorCode = (typeof NATIVE_ERROR_CODES)[number];

export class NativeActionError extends TrueclickError {
  declare readonly code: NativeErrorCode;

  constructor(code: NativeErrorCode, problem: string, hint: string, field?: string) {
    super(code, problem, hint, field);
    this.name = 'NativeActionError';
  }
}
