// Building steps: each family reader returns step bodies per action, and one collector stamps them with the
// action's name and source and keeps the index its reply entries (tool_use ids, function calls) point at.

import { NativeActionError } from './errors.js';
import { type ActionAt, type Obj, unknownAction } from './read.js';
import type { NativeBatch, NativeStep, ScrollAmount } from './types.js';

type Body<T> = T extends unknown ? Omit<T, 'name' | 'source' | 'tabId'> : never;
/** A step without its name, source and tab, as a family's action reader returns it. */
export type StepBody = Body<NativeStep>;

export type ActionReader = (input: Obj, at: ActionAt) => StepBody[];

export type Reply = NativeBatch['reply'];

export interface Parsed {
  steps: NativeStep[];
  reply: Reply;
}

export class StepList {
  readonly steps: NativeStep[] = [];

  /** Adds one action's steps and returns the index of the first. */
  add(at: ActionAt, bodies: StepBody[], tabId?: string): number {
    const first = this.steps.length;
    for (const body of bodies) {
      this.steps.push({
        ...body,
        name: at.name,
        source: at.source,
        ...(tabId === undefined ? {} : { tabId }),
      });
    }
    return first;
  }
}

/** Reads one action with the family's table of readers, refusing a name the table lacks. */
export function readWith(
  readers: ReadonlyMap<string, ActionReader>,
  input: Obj,
  at: ActionAt,
  nameField: string,
  what = 'action',
): StepBody[] {
  const reader = readers.get(at.name);
  if (reader === undefined) unknownAction(nameField, what, at.name, [...readers.keys()]);
  return reader(input, at);
}

export const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
type Direction = (typeof DIRECTIONS)[number];

/** A scroll of `amount` towards `direction`: dy > 0 is down, dx > 0 is right (0 - x: no -0 for a 0 scroll). */
export function scrollToward(direction: Direction, amount: number, unit: ScrollAmount['unit']): ScrollAmount {
  switch (direction) {
    case 'up':
      return { dx: 0, dy: 0 - amount, unit };
    case 'down':
      return { dx: 0, dy: amount, unit };
    case 'left':
      return { dx: 0 - amount, dy: 0, unit };
    case 'right':
      return { dx: amount, dy: 0, unit };
  }
}

export function unsupported(reason: string, hint: string): StepBody {
  return { kind: 'unsupported', reason, hint };
}

/** The name of an action or tool as written; an absent name or anything but a non-empty string is refused. */
export function nameOf(value: unknown, field: string, known: readonly string[], what = 'action'): string {
  if (typeof value === 'string' && value !== '') return value;
  if (value === undefined || value === null) {
    throw new NativeActionError(
      'NATIVE_MISSING_FIELD',
      `${field} is missing: it names the ${what}.`,
      `Send ${field} as one of: ${known.join(', ')}.`,
      field,
    );
  }
  return unknownAction(field, what, value, known);
}
