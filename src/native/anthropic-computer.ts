// Anthropic's computer actions. The single tool (computer_20241022 … computer_20251124, `input.action`) and
// the computer toolset's members (computer_toolset_20260801, the member is the block's `name`) share names
// and inputs; the browser toolset reuses the keyboard, wait and zoom readers.

import { show } from '../geometry/index.js';
import { asModifiers, chordOfPlus, sequenceOf } from './keys.js';
import { NATIVE_LIMITS } from './limits.js';
import {
  type ActionAt,
  badField,
  get,
  missingField,
  type NumberRule,
  type Obj,
  optNumber,
  optPoint,
  optText,
  readCoordinate,
  reqChoice,
  reqNumber,
  reqPoint,
  reqText,
  SECONDS,
  tooLarge,
} from './read.js';
import { type ActionReader, DIRECTIONS, type StepBody, scrollToward } from './steps.js';
import type { Button, Modifier } from './types.js';

const F = 'anthropic';

/** Longest key text: a sequence of NATIVE_LIMITS.keySequence chords, each a few names long. */
const KEY_TEXT_CHARS = 2_000;

const REPEAT: NumberRule = { unit: 'presses', min: 1, max: NATIVE_LIMITS.repeat, integer: true };
export const WHEEL_NOTCHES: NumberRule = {
  unit: 'wheel notches',
  min: 0,
  max: NATIVE_LIMITS.scroll.wheel_click,
};

/** A modifier chord held during a mouse action ("shift", "ctrl+shift"); empty text holds nothing. */
export function heldChord(input: Obj, key: string, at: ActionAt): Modifier[] {
  const text = optText(input, key, at, KEY_TEXT_CHARS);
  if (text === undefined || text.trim() === '') return [];
  return asModifiers(chordOfPlus(F, text, at.field(key)), at.field(key), at.name);
}

/** The docs put the held chord in `text`; the quickstart's 20250124 clicks read `key`. Both are accepted. */
function held(input: Obj, at: ActionAt): Modifier[] {
  return optText(input, 'text', at, KEY_TEXT_CHARS) !== undefined
    ? heldChord(input, 'text', at)
    : heldChord(input, 'key', at);
}

function click(button: Button, count: 1 | 2 | 3): ActionReader {
  return (input, at) => {
    // No coordinate is legal: the click happens at the cursor.
    const p = optPoint(input, 'coordinate', at);
    return [{ kind: 'click', ...(p ? { at: p } : {}), button, count, modifiers: held(input, at) }];
  };
}

function mouseButton(kind: 'mouse_down' | 'mouse_up'): ActionReader {
  return (input, at) => {
    const p = optPoint(input, 'coordinate', at);
    return [{ kind, ...(p ? { at: p } : {}), button: 'left' }];
  };
}

/** Chords pressed in order; one chord is one step with its repeat, a sequence is spelled out. */
function pressSequence(chords: string[][], repeat: number, field: string): StepBody[] {
  const [only] = chords;
  if (chords.length === 1 && only !== undefined) return [{ kind: 'key', chord: only, repeat }];
  if (chords.length * repeat > NATIVE_LIMITS.keySequence) {
    tooLarge(
      field,
      `${field} repeats a sequence of ${chords.length} presses ${repeat} times; trueclick presses at most ${NATIVE_LIMITS.keySequence} in one action.`,
      'Send a shorter sequence or a smaller repeat.',
    );
  }
  const steps: StepBody[] = [];
  for (let i = 0; i < repeat; i++) for (const chord of chords) steps.push({ kind: 'key', chord, repeat: 1 });
  return steps;
}

export const keyAction: ActionReader = (input, at) => {
  const text = reqText(input, 'text', at, KEY_TEXT_CHARS);
  const repeat = optNumber(input, 'repeat', at, REPEAT) ?? 1;
  return pressSequence(sequenceOf(F, text, at.field('text')), repeat, at.field('repeat'));
};

export const holdKeyAction: ActionReader = (input, at) => {
  const field = at.field('text');
  const chords = sequenceOf(F, reqText(input, 'text', at, KEY_TEXT_CHARS), field);
  const [chord] = chords;
  if (chords.length !== 1 || chord === undefined) {
    badField(
      field,
      `${field} names ${chords.length} presses; hold_key holds one key or chord.`,
      'Send one key or chord, such as shift or ctrl+shift.',
    );
  }
  return [{ kind: 'hold_key', chord, seconds: reqNumber(input, 'duration', at, SECONDS) }];
};

export const typeAction: ActionReader = (input, at) => [
  { kind: 'type', text: reqText(input, 'text', at), pressEnter: false, clearFirst: false },
];

export const waitAction: ActionReader = (input, at) => [
  { kind: 'wait', seconds: reqNumber(input, 'duration', at, SECONDS) },
];

/** zoom's region [x0, y0, x1, y1]: top-left then bottom-right, in the screenshot's pixels. */
export const zoomAction: ActionReader = (input, at) => {
  const field = at.field('region');
  const region = get(input, 'region');
  if (region === undefined || region === null) missingField(at, 'region', '[x0, y0, x1, y1]');
  if (!Array.isArray(region) || region.length !== 4) {
    badField(
      field,
      `${field} is ${show(region)}, not [x0, y0, x1, y1].`,
      `Send ${field} as four numbers: the top-left and the bottom-right corner.`,
    );
  }
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = region.map((v, i) =>
    readCoordinate(v, `${field}[${i}]`, at.scope),
  );
  if (x1 <= x0 || y1 <= y0) {
    badField(
      field,
      `${field} is [${x0}, ${y0}, ${x1}, ${y1}]: its corners are out of order or the region is empty.`,
      `Send ${field} as [x0, y0, x1, y1] with x1 > x0 and y1 > y0.`,
    );
  }
  return [{ kind: 'zoom', from: { x: x0, y: y0, field }, to: { x: x1, y: y1, field } }];
};

const scroll: ActionReader = (input, at) => {
  const direction = reqChoice(input, 'scroll_direction', at, DIRECTIONS);
  const amount = reqNumber(input, 'scroll_amount', at, WHEEL_NOTCHES);
  const p = optPoint(input, 'coordinate', at);
  return [
    {
      kind: 'scroll',
      ...(p ? { at: p } : {}),
      amount: scrollToward(direction, amount, 'wheel_click'),
      modifiers: heldChord(input, 'text', at),
    },
  ];
};

export const COMPUTER_ACTIONS: ReadonlyMap<string, ActionReader> = new Map<string, ActionReader>([
  ['screenshot', () => [{ kind: 'screenshot' }]],
  ['left_click', click('left', 1)],
  ['right_click', click('right', 1)],
  ['middle_click', click('middle', 1)],
  ['double_click', click('left', 2)],
  ['triple_click', click('left', 3)],
  ['mouse_move', (input, at) => [{ kind: 'move', at: reqPoint(input, 'coordinate', at), modifiers: [] }]],
  [
    'left_click_drag',
    (input, at) => {
      // computer_20241022 has no start_coordinate: the drag starts at the cursor.
      const from = optPoint(input, 'start_coordinate', at);
      const to = reqPoint(input, 'coordinate', at);
      return [{ kind: 'drag', ...(from ? { from } : {}), to, via: [], modifiers: held(input, at) }];
    },
  ],
  ['left_mouse_down', mouseButton('mouse_down')],
  ['left_mouse_up', mouseButton('mouse_up')],
  ['scroll', scroll],
  ['key', keyAction],
  ['hold_key', holdKeyAction],
  ['type', typeAction],
  ['wait', waitAction],
  ['cursor_position', () => [{ kind: 'cursor_position' }]],
  ['zoom', zoomAction],
]);
