// UI-TARS actions (bytedance/UI-TARS prompt.py, README_v1.md, action_parser.py). UI-TARS v1 writes
// start_box='(x,y)' or '<|box_start|>(x,y)<|box_end|>' per mille; UI-TARS-1.5 writes point='<point>x y</point>'
// in pixels of the smart-resized image. A box (x1,y1,x2,y2) stands for its centre, as the reference reads it.

import { show } from '../geometry/index.js';
import { chordOfWords } from './keys.js';
import {
  type ActionAt,
  badField,
  get,
  missingField,
  noAction,
  type Obj,
  optText,
  readCoordinate,
  reqChoice,
  reqText,
  type Scope,
} from './read.js';
import {
  type ActionReader,
  DIRECTIONS,
  type Parsed,
  readWith,
  StepList,
  scrollToward,
  unsupported,
} from './steps.js';
import type { Button, FieldPath, NativePoint } from './types.js';
import { TARS_SHAPES, tarsCalls } from './ui-tars-text.js';

/** The reference executor scrolls 5 wheel notches; the action has no amount. */
const SCROLL_NOTCHES = 5;
/** wait() sleeps 5 s in the prompt's words. */
const WAIT_SECONDS = 5;

const START = ['start_box', 'point', 'start_point'] as const;
const END = ['end_box', 'end_point'] as const;

const TAGS = /<\|box_start\|>|<\|box_end\|>|<\/?point>|<\/?bbox>/g;
const NUMBER = /[-+]?(?:\d+(?:\.\d*)?|\.\d+)/g;

/** '(x,y)', '(x1,y1,x2,y2)', '<|box_start|>(x,y)<|box_end|>', '<point>x y</point>', '[x, y]'. */
function tarsPoint(raw: string, field: FieldPath, scope: Scope): NativePoint {
  const inner = raw.replace(TAGS, ' ');
  const numbers = inner.match(NUMBER) ?? [];
  const rest = inner.replace(NUMBER, '').replace(/[\s(),[\]]/g, '');
  if (rest !== '' || (numbers.length !== 2 && numbers.length !== 4)) {
    badField(
      field,
      `${field} is ${show(raw)}, not a point (x,y) or a box (x1,y1,x2,y2).`,
      scope.model === 'ui-tars-1.5' ? `Write it as '<point>x y</point>'.` : `Write it as '(x,y)'.`,
    );
  }
  const [x1 = 0, y1 = 0, x2 = x1, y2 = y1] = numbers.map((n) => readCoordinate(Number(n), field, scope));
  return { x: (x1 + x2) / 2, y: (y1 + y2) / 2, field };
}

function optPointOf(args: Obj, at: ActionAt, keys: readonly string[]): NativePoint | undefined {
  for (const key of keys) {
    const value = get(args, key);
    if (typeof value === 'string' && value.trim() !== '') return tarsPoint(value, at.field(key), at.scope);
  }
  return undefined;
}

function reqPointOf(args: Obj, at: ActionAt, keys: typeof START | typeof END): NativePoint {
  const p = optPointOf(args, at, keys);
  if (p !== undefined) return p;
  const v15 = at.scope.model === 'ui-tars-1.5';
  const key = keys === START ? (v15 ? 'point' : 'start_box') : v15 ? 'end_point' : 'end_box';
  return missingField(at, key, v15 ? "('<point>x y</point>')" : "('(x,y)')");
}

function click(button: Button, count: 1 | 2): ActionReader {
  return (args, at) => [{ kind: 'click', at: reqPointOf(args, at, START), button, count, modifiers: [] }];
}

/** hotkey(key='ctrl c'): space separated, one chord (older prompts name the argument `hotkey`). */
function keyText(args: Obj, at: ActionAt): { text: string; field: FieldPath } {
  for (const key of ['key', 'hotkey', 'press']) {
    const text = optText(args, key, at, 200);
    if (text !== undefined && text.trim() !== '') return { text, field: at.field(key) };
  }
  return missingField(at, 'key', "('ctrl c': the keys, space separated)");
}

function keys(args: Obj, at: ActionAt): string[] {
  const { text, field } = keyText(args, at);
  return chordOfWords('ui-tars', text, field);
}

function oneKey(args: Obj, at: ActionAt): string {
  const { text, field } = keyText(args, at);
  const chord = chordOfWords('ui-tars', text, field);
  const [key] = chord;
  if (chord.length !== 1 || key === undefined) {
    badField(
      field,
      `${field} names ${chord.length} keys; ${at.name} takes one.`,
      `Use hotkey(key='…') for a chord.`,
    );
  }
  return key;
}

/** type(content='…'): a trailing newline means "press Enter", as the prompt tells the model. */
const type: ActionReader = (args, at) => {
  const content = reqText(args, 'content', at);
  const text = content.replace(/\n+$/, '');
  return [{ kind: 'type', text, pressEnter: text !== content, clearFirst: false }];
};

function done(status: 'success' | 'needs_user'): ActionReader {
  return (args, at) => {
    const text = optText(args, 'content', at);
    return [{ kind: 'done', status, ...(text ? { text } : {}) }];
  };
}

const MOBILE = 'is a phone action; trueclick drives a desktop browser';

const VERBS: ReadonlyMap<string, ActionReader> = new Map<string, ActionReader>([
  ['click', click('left', 1)],
  ['left_single', click('left', 1)],
  ['left_double', click('left', 2)],
  ['right_single', click('right', 1)],
  ['hover', (args, at) => [{ kind: 'move', at: reqPointOf(args, at, START), modifiers: [] }]],
  [
    'drag',
    (args, at) => [
      {
        kind: 'drag',
        from: reqPointOf(args, at, START),
        to: reqPointOf(args, at, END),
        via: [],
        modifiers: [],
      },
    ],
  ],
  [
    'select',
    (args, at) => [
      {
        kind: 'drag',
        from: reqPointOf(args, at, START),
        to: reqPointOf(args, at, END),
        via: [],
        modifiers: [],
      },
    ],
  ],
  ['hotkey', (args, at) => [{ kind: 'key', chord: keys(args, at), repeat: 1 }]],
  ['press', (args, at) => [{ kind: 'key', chord: keys(args, at), repeat: 1 }]],
  ['keydown', (args, at) => [{ kind: 'key_down', key: oneKey(args, at) }]],
  ['keyup', (args, at) => [{ kind: 'key_up', key: oneKey(args, at) }]],
  ['release', (args, at) => [{ kind: 'key_up', key: oneKey(args, at) }]],
  ['type', type],
  [
    'scroll',
    (args, at) => {
      const p = optPointOf(args, at, START);
      const direction = reqChoice(args, 'direction', at, DIRECTIONS);
      return [
        {
          kind: 'scroll',
          ...(p ? { at: p } : {}),
          amount: scrollToward(direction, SCROLL_NOTCHES, 'wheel_click'),
          modifiers: [],
        },
      ];
    },
  ],
  ['wait', () => [{ kind: 'wait', seconds: WAIT_SECONDS }]],
  ['finished', done('success')],
  ['call_user', done('needs_user')],
  ['long_press', () => [unsupported(`long_press ${MOBILE}`, 'Use click(…), or drag(…) to select.')]],
  [
    'open_app',
    () => [
      unsupported('open_app opens a phone app; the browser is already open', 'Go on with the next action.'),
    ],
  ],
  [
    'press_home',
    () => [unsupported(`press_home ${MOBILE}`, 'Use the page itself, e.g. click its home link.')],
  ],
  ['press_back', () => [unsupported(`press_back ${MOBILE}`, "Go back with hotkey(key='alt left').")]],
]);

export function readUiTars(scope: Scope, output: unknown): Parsed {
  if (typeof output !== 'string') {
    noAction(
      `UI-TARS answers in text; the output is ${output === null ? 'null' : typeof output}.`,
      TARS_SHAPES,
    );
  }
  const calls = tarsCalls(output);
  const list = new StepList();
  for (const call of calls) {
    const label = calls.length > 1 ? `Action ${call.index}: ` : '';
    const at: ActionAt = {
      scope,
      name: call.verb,
      source: `Action ${call.index}`,
      field: (key) => `${label}${call.verb}(${key}='…')`,
    };
    list.add(at, readWith(VERBS, Object.fromEntries(call.args), at, `${label}${call.verb}(…)`));
  }
  return { steps: list.steps, reply: {} };
}
