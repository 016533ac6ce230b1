// The one set of readers every family uses: what a number, a coordinate, a point, a text or a choice must be,
// and how a refusal names its field. Names come from ActionAt.field, so each family's errors speak its own
// words (input.coordinate, actions[1].x, args.x, click(start_box='…'), arguments.coordinate).

import { type PresetName, show } from '../geometry/index.js';
import { NativeActionError } from './errors.js';
import { GRID_MAX, NATIVE_LIMITS } from './limits.js';
import type { Family, FieldPath, NativePoint } from './types.js';

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own property, or undefined: a name taken from model output must never reach Object.prototype. */
export function get(obj: Obj, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** JSON writers send null for "not given" (OpenAI's `keys: null`), so null counts as absent. */
function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

export interface Scope {
  family: Family;
  model: PresetName;
  /** Coordinates are on the 0..1000 grid and are checked here; pixels are checked later, against the image. */
  grid: boolean;
}

/** One action being read: its name as written, where it sits in the input, and how its fields are named. */
export interface ActionAt {
  scope: Scope;
  name: string;
  source: string;
  field(key: string): FieldPath;
}

export function actionAt(scope: Scope, name: string, source: string, prefix: string): ActionAt {
  return { scope, name, source, field: (key) => `${prefix}${key}` };
}

export function badField(field: FieldPath, problem: string, hint: string): never {
  throw new NativeActionError('NATIVE_BAD_FIELD', problem, hint, field);
}

export function tooLarge(field: FieldPath, problem: string, hint: string): never {
  throw new NativeActionError('NATIVE_TOO_LARGE', problem, hint, field);
}

/** `expected` reads after the field name: '[x, y]', '(seconds, a number)'. */
export function missingField(at: ActionAt, key: string, expected: string, hint?: string): never {
  const field = at.field(key);
  throw new NativeActionError(
    'NATIVE_MISSING_FIELD',
    `${at.name} needs ${field} ${expected}.`,
    hint ?? `Send ${field} ${expected}.`,
    field,
  );
}

export function noAction(problem: string, shapes: string): never {
  throw new NativeActionError('NATIVE_NO_ACTION', problem, `Pass ${shapes}.`, 'model_output');
}

export function unknownAction(
  field: FieldPath,
  what: string,
  name: unknown,
  known: readonly string[],
): never {
  throw new NativeActionError(
    'NATIVE_UNKNOWN_ACTION',
    `${field} names the ${what} ${show(name)}, which this family does not have.`,
    `Use one of: ${known.join(', ')}.`,
    field,
  );
}

/** At most NATIVE_LIMITS.actions actions per call, checked before any is read. */
export function checkCount(count: number, field: FieldPath, what: string): void {
  const max = NATIVE_LIMITS.actions;
  if (count > max) {
    tooLarge(
      field,
      `${field} holds ${count} ${what}; trueclick runs at most ${max} in one batch.`,
      `Send at most ${max} actions, then look at the next screenshot before sending more.`,
    );
  }
}

export interface NumberRule {
  /** What the number counts, for messages: 'seconds', 'wheel notches', 'pixels'. */
  unit: string;
  /** Smallest value allowed (inclusive); below it is NATIVE_BAD_FIELD. */
  min?: number;
  /** Largest value allowed (inclusive); above it is NATIVE_TOO_LARGE. */
  max?: number;
  /** Largest size of a signed value (a scroll delta); beyond it is NATIVE_TOO_LARGE. */
  maxAbs?: number;
  integer?: boolean;
}

function describeNumber(rule: NumberRule): string {
  const kind = rule.integer ? 'a whole number' : 'a number';
  if (rule.maxAbs !== undefined) return `${kind} of ${rule.unit} from -${rule.maxAbs} to ${rule.maxAbs}`;
  if (rule.min !== undefined && rule.max !== undefined)
    return `${kind} of ${rule.unit} from ${rule.min} to ${rule.max}`;
  if (rule.min !== undefined) return `${kind} of ${rule.unit}, ${rule.min} or more`;
  if (rule.max !== undefined) return `${kind} of ${rule.unit} up to ${rule.max}`;
  return `${kind} of ${rule.unit}`;
}

function readNumber(value: unknown, field: FieldPath, rule: NumberRule): number {
  const hint = `Send ${field} as ${describeNumber(rule)}.`;
  if (typeof value !== 'number') badField(field, `${field} is ${show(value)}, not a number.`, hint);
  if (!Number.isFinite(value)) badField(field, `${field} is ${show(value)}, not a finite number.`, hint);
  if (rule.integer && !Number.isInteger(value))
    badField(field, `${field} is ${value}, not a whole number.`, hint);
  if (rule.min !== undefined && value < rule.min) {
    const what = rule.min === 0 ? 'negative' : `below ${rule.min}`;
    badField(field, `${field} is ${value}, ${what}.`, hint);
  }
  if (rule.max !== undefined && value > rule.max)
    tooLarge(field, `${field} is ${value}, above the ${rule.max} trueclick accepts.`, hint);
  if (rule.maxAbs !== undefined && Math.abs(value) > rule.maxAbs)
    tooLarge(field, `${field} is ${value}, beyond the ±${rule.maxAbs} trueclick accepts.`, hint);
  return value;
}

function coordinateUnit(scope: Scope): string {
  return scope.grid ? 'grid units, 0 to 999' : 'screenshot pixels';
}

/** One coordinate as written: never negative; on the grid families, anything outside 0..1000 is off the grid. */
export function readCoordinate(value: unknown, field: FieldPath, scope: Scope): number {
  const v = readNumber(
    value,
    field,
    scope.grid ? { unit: coordinateUnit(scope) } : { unit: coordinateUnit(scope), min: 0 },
  );
  if (scope.grid && (v < 0 || v > GRID_MAX)) {
    throw new NativeActionError(
      'NATIVE_OFF_GRID',
      `${field} is ${v}, off the 0..1000 grid that ${scope.model} answers on.`,
      `Send ${field} on the 0–999 grid: x in thousandths of the screenshot's width, y of its height, whatever its size in pixels.`,
      field,
    );
  }
  return v;
}

/** A point written as [x, y]. */
function readPair(value: unknown, field: FieldPath, scope: Scope): NativePoint {
  if (!Array.isArray(value) || value.length !== 2) {
    badField(
      field,
      `${field} is ${show(value)}, not [x, y].`,
      `Send ${field} as [x, y], two numbers (${coordinateUnit(scope)}).`,
    );
  }
  return {
    x: readCoordinate(value[0], `${field}[0]`, scope),
    y: readCoordinate(value[1], `${field}[1]`, scope),
    field,
  };
}

export function optPoint(obj: Obj, key: string, at: ActionAt): NativePoint | undefined {
  const value = get(obj, key);
  return given(value) ? readPair(value, at.field(key), at.scope) : undefined;
}

export function reqPoint(obj: Obj, key: string, at: ActionAt): NativePoint {
  return optPoint(obj, key, at) ?? missingField(at, key, '[x, y]');
}

/** A point written as two named numbers (x and y, destination_x and destination_y). */
function optXY(obj: Obj, xKey: string, yKey: string, at: ActionAt): NativePoint | undefined {
  const x = get(obj, xKey);
  const y = get(obj, yKey);
  if (!given(x) && !given(y)) return undefined;
  if (!given(x)) missingField(at, xKey, `(with ${at.field(yKey)})`);
  if (!given(y)) missingField(at, yKey, `(with ${at.field(xKey)})`);
  return {
    x: readCoordinate(x, at.field(xKey), at.scope),
    y: readCoordinate(y, at.field(yKey), at.scope),
    field: `${at.field(xKey)}/${at.field(yKey)}`,
  };
}

export function reqXY(obj: Obj, xKey: string, yKey: string, at: ActionAt): NativePoint {
  return optXY(obj, xKey, yKey, at) ?? missingField(at, `${xKey}`, `and ${at.field(yKey)} (the point)`);
}

export function optNumber(obj: Obj, key: string, at: ActionAt, rule: NumberRule): number | undefined {
  const value = get(obj, key);
  return given(value) ? readNumber(value, at.field(key), rule) : undefined;
}

export function reqNumber(obj: Obj, key: string, at: ActionAt, rule: NumberRule): number {
  return optNumber(obj, key, at, rule) ?? missingField(at, key, `(${describeNumber(rule)})`);
}

/** Seconds of a wait or a held key: 0 to NATIVE_LIMITS.seconds. */
export const SECONDS: NumberRule = { unit: 'seconds', min: 0, max: NATIVE_LIMITS.seconds };

/** A string of at most `max` characters (typed text by default). */
export function readText(value: unknown, field: FieldPath, max: number = NATIVE_LIMITS.typedChars): string {
  if (typeof value !== 'string')
    badField(field, `${field} is ${show(value)}, not a string.`, `Send ${field} as a string.`);
  if (value.length > max) {
    tooLarge(
      field,
      `${field} holds ${value.length} characters; trueclick takes at most ${max}.`,
      `Send at most ${max} characters in one action; split longer text over several.`,
    );
  }
  return value;
}

export function optText(obj: Obj, key: string, at: ActionAt, max?: number): string | undefined {
  const value = get(obj, key);
  return given(value) ? readText(value, at.field(key), max) : undefined;
}

export function reqText(obj: Obj, key: string, at: ActionAt, max?: number): string {
  return optText(obj, key, at, max) ?? missingField(at, key, '(a string)');
}

export function optBool(obj: Obj, key: string, at: ActionAt): boolean | undefined {
  const value = get(obj, key);
  if (!given(value)) return undefined;
  if (typeof value !== 'boolean') {
    const field = at.field(key);
    badField(field, `${field} is ${show(value)}, not true or false.`, `Send ${field} as true or false.`);
  }
  return value;
}

/** One of a fixed set of words, read case-insensitively ('Down' is 'down'). */
export function readChoice<T extends string>(value: unknown, field: FieldPath, choices: readonly T[]): T {
  const word = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  const found = choices.find((c) => c === word);
  if (found === undefined) {
    badField(
      field,
      `${field} is ${show(value)}, not one of ${choices.map((c) => `"${c}"`).join(', ')}.`,
      `Send ${field} as one of ${choices.map((c) => `"${c}"`).join(', ')}.`,
    );
  }
  return found;
}

export function optChoice<T extends string>(
  obj: Obj,
  key: string,
  at: ActionAt,
  choices: readonly T[],
): T | undefined {
  const value = get(obj, key);
  return given(value) ? readChoice(value, at.field(key), choices) : undefined;
}

export function reqChoice<T extends string>(obj: Obj, key: string, at: ActionAt, choices: readonly T[]): T {
  return (
    optChoice(obj, key, at, choices) ??
    missingField(at, key, `(one of ${choices.map((c) => `"${c}"`).join(', ')})`)
  );
}

/** An id to echo back (tool_use id, call_id, tab_id): a non-empty string of bounded length. */
function readId(value: unknown, field: FieldPath): string {
  const id = readText(value, field, NATIVE_LIMITS.idChars);
  if (id === '') badField(field, `${field} is empty.`, `Send ${field} as the id the model wrote.`);
  return id;
}

export function optId(obj: Obj, key: string, field: FieldPath): string | undefined {
  const value = get(obj, key);
  return given(value) ? readId(value, field) : undefined;
}

/** Removes one surrounding markdown code fence (```json … ```), which chat front ends like to add. */
export function unfence(text: string): string {
  const t = text.trim();
  if (!t.startsWith('```')) return t;
  const firstBreak = t.indexOf('\n');
  if (firstBreak < 0) return t;
  const body = t.slice(firstBreak + 1);
  return (body.trimEnd().endsWith('```') ? body.trimEnd().slice(0, -3) : body).trim();
}

type JsonResult = { ok: true; value: unknown } | { ok: false; reason: string };

export function parseJson(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(unfence(text)) };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message.slice(0, 120) : 'not JSON' };
  }
}

/** A JSON family's text input: its value, or NATIVE_NO_ACTION listing the shapes the family accepts. */
export function jsonInput(text: string, shapes: string): unknown {
  const r = parseJson(text);
  if (!r.ok) noAction(`The output is text that does not parse as JSON (${r.reason}).`, shapes);
  return r.value;
}
