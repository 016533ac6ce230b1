import assert from 'node:assert/strict';
import type { PresetName } from '../../src/geometry/index.js';
import {
  NativeActionError,
  type NativeBatch,
  type NativeErrorCode,
  type NativeStep,
  parseNativeAction,
} from '../../src/native/index.js';

/** Asserts a NativeActionError with `code` (and `field`), whose message carries its hint and stays short. */
export function nativeError(fn: () => unknown, code: NativeErrorCode, field?: string): NativeActionError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof NativeActionError, `expected NativeActionError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  if (field !== undefined) assert.equal(caught.field, field, caught.message);
  assert.equal(caught.kind, 'bad_input');
  assert.ok(caught.hint.length > 0 && caught.message.endsWith(caught.hint), 'message ends with the hint');
  assert.ok(caught.message.length < 1_000, `message too long: ${caught.message.length}`);
  return caught;
}

/** The steps of a parse, for deepEqual. */
export function steps(model: PresetName, output: unknown): NativeStep[] {
  return parseNativeAction(model, output).steps;
}

/** The only step of a parse. */
export function only(model: PresetName, output: unknown): NativeStep {
  const s = steps(model, output);
  assert.equal(s.length, 1, `expected one step, got ${JSON.stringify(s)}`);
  const [first] = s;
  assert.ok(first);
  return first;
}

export function batch(model: PresetName, output: unknown): NativeBatch {
  return parseNativeAction(model, output);
}
