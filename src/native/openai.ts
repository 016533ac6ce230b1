// OpenAI computer use (Responses API): a computer_call item with one `action` or an `actions[]` batch (GA
// `computer` tool), a bare action, or the response `output` the call sits in. Coordinates are screenshot
// pixels; `keys` on mouse actions are held modifiers; scroll_x/scroll_y are pixel deltas.

import { show } from '../geometry/index.js';
import { asModifiers, chordOfList } from './keys.js';
import { NATIVE_LIMITS } from './limits.js';
import {
  type ActionAt,
  actionAt,
  badField,
  checkCount,
  get,
  isObj,
  jsonInput,
  missingField,
  noAction,
  type Obj,
  optChoice,
  optId,
  readCoordinate,
  readText,
  reqNumber,
  reqText,
  reqXY,
  type Scope,
  tooLarge,
} from './read.js';
import { type ActionReader, nameOf, type Parsed, type Reply, readWith, StepList } from './steps.js';
import type { Button, Modifier, NativePoint } from './types.js';

const SHAPES =
  'a computer_call item {"type": "computer_call", "call_id": …, "actions": [{"type": "click", "button": "left", "x": …, "y": …}]} ' +
  '(or with a single "action"), a bare action {"type": "click", "button": "left", "x": …, "y": …}, ' +
  'or the response output [ … ] / {"output": [ … ]} holding one computer_call';

/** The sample app waits 1 s: the action carries no duration. */
const WAIT_SECONDS = 1;

const BUTTONS = ['left', 'right', 'wheel', 'back', 'forward'] as const;

function held(input: Obj, at: ActionAt): Modifier[] {
  const keys = get(input, 'keys');
  if (keys === undefined || keys === null || (Array.isArray(keys) && keys.length === 0)) return [];
  const field = at.field('keys');
  return asModifiers(chordOfList('openai', keys, field), field, at.name);
}

function click(count: 1 | 2): ActionReader {
  return (input, at) => {
    const written = optChoice(input, 'button', at, BUTTONS) ?? 'left';
    const button: Button = written === 'wheel' ? 'middle' : written;
    return [{ kind: 'click', at: reqXY(input, 'x', 'y', at), button, count, modifiers: held(input, at) }];
  };
}

/** drag.path: the first point is where the press happens, the last where it ends, the rest are passed through. */
const drag: ActionReader = (input, at) => {
  const field = at.field('path');
  const path = get(input, 'path');
  if (path === undefined || path === null) missingField(at, 'path', '[{x, y}, …] (at least two points)');
  if (!Array.isArray(path) || path.length < 2) {
    badField(
      field,
      `${field} is ${show(path)}, not a list of at least two {x, y} points.`,
      `Send ${field} as [{"x": …, "y": …}, {"x": …, "y": …}].`,
    );
  }
  if (path.length > NATIVE_LIMITS.pathPoints) {
    tooLarge(
      field,
      `${field} holds ${path.length} points; trueclick takes at most ${NATIVE_LIMITS.pathPoints}.`,
      'Send fewer points along the path.',
    );
  }
  const points = path.map((p: unknown, i): NativePoint => {
    const pointField = `${field}[${i}]`;
    if (!isObj(p))
      badField(
        pointField,
        `${pointField} is ${show(p)}, not {x, y}.`,
        `Send ${pointField} as {"x": …, "y": …}.`,
      );
    return {
      x: readCoordinate(get(p, 'x'), `${pointField}.x`, at.scope),
      y: readCoordinate(get(p, 'y'), `${pointField}.y`, at.scope),
      field: pointField,
    };
  });
  const from = points[0];
  const to = points[points.length - 1];
  if (from === undefined || to === undefined) return missingField(at, 'path', '(at least two points)');
  return [{ kind: 'drag', from, to, via: points.slice(1, -1), modifiers: held(input, at) }];
};

const SCROLL_PX = { unit: 'pixels', maxAbs: NATIVE_LIMITS.scroll.image_px };

const ACTIONS: ReadonlyMap<string, ActionReader> = new Map<string, ActionReader>([
  ['click', click(1)],
  ['double_click', click(2)],
  ['drag', drag],
  [
    'keypress',
    (input, at) => {
      const keys = get(input, 'keys');
      if (keys === undefined || keys === null)
        missingField(at, 'keys', '(the keys to press together, e.g. ["CTRL", "A"])');
      return [{ kind: 'key', chord: chordOfList('openai', keys, at.field('keys')), repeat: 1 }];
    },
  ],
  ['move', (input, at) => [{ kind: 'move', at: reqXY(input, 'x', 'y', at), modifiers: held(input, at) }]],
  [
    'scroll',
    (input, at) => [
      {
        kind: 'scroll',
        at: reqXY(input, 'x', 'y', at),
        amount: {
          dx: reqNumber(input, 'scroll_x', at, SCROLL_PX),
          dy: reqNumber(input, 'scroll_y', at, SCROLL_PX),
          unit: 'image_px',
        },
        modifiers: held(input, at),
      },
    ],
  ],
  [
    'type',
    (input, at) => [{ kind: 'type', text: reqText(input, 'text', at), pressEnter: false, clearFirst: false }],
  ],
  ['wait', () => [{ kind: 'wait', seconds: WAIT_SECONDS }]],
  ['screenshot', () => [{ kind: 'screenshot' }]],
]);

export function readOpenAI(scope: Scope, output: unknown): Parsed {
  const value = typeof output === 'string' ? jsonInput(output, SHAPES) : output;
  const call = computerCall(value);
  const list = new StepList();
  if (call === undefined) {
    const type = isObj(value) ? get(value, 'type') : undefined;
    if (!isObj(value) || typeof type !== 'string') {
      noAction('The output holds no computer_call and is not a computer action.', SHAPES);
    }
    readAction(scope, value, 'action', list);
    return { steps: list.steps, reply: {} };
  }
  const actions = get(call, 'actions');
  if (Array.isArray(actions) && actions.length > 0) {
    checkCount(actions.length, 'actions', 'actions');
    actions.forEach((a: unknown, i) => {
      readAction(scope, a, `actions[${i}]`, list);
    });
  } else if (isObj(get(call, 'action'))) {
    readAction(scope, get(call, 'action'), 'action', list);
  } else {
    noAction('The computer_call has no action and an empty or missing actions list.', SHAPES);
  }
  return { steps: list.steps, reply: replyOf(call) };
}

function readAction(scope: Scope, action: unknown, source: string, list: StepList): void {
  if (!isObj(action))
    badField(
      source,
      `${source} is ${show(action)}, not an action object.`,
      `Send ${source} as {"type": "click", …}.`,
    );
  const name = nameOf(get(action, 'type'), `${source}.type`, [...ACTIONS.keys()]);
  const at = actionAt(scope, name, source, `${source}.`);
  list.add(at, readWith(ACTIONS, action, at, `${source}.type`));
}

/** The one computer_call in the input, if there is one; several are refused (each needs its own reply). */
function computerCall(value: unknown): Obj | undefined {
  if (isObj(value) && get(value, 'type') === 'computer_call') return value;
  const items = Array.isArray(value) ? value : isObj(value) ? get(value, 'output') : undefined;
  if (!Array.isArray(items)) return undefined;
  const calls = items.filter((item): item is Obj => isObj(item) && get(item, 'type') === 'computer_call');
  if (calls.length > 1) {
    badField(
      'output',
      `The output holds ${calls.length} computer_call items; trueclick runs one computer_call at a time.`,
      'Pass each computer_call on its own and answer each with its own call_id.',
    );
  }
  if (calls.length === 0) {
    noAction('The output holds no computer_call item (only messages, reasoning or other tools).', SHAPES);
  }
  return calls[0];
}

function replyOf(call: Obj): Reply {
  const reply: Reply = {};
  const callId = optId(call, 'call_id', 'call_id');
  if (callId !== undefined) reply.callId = callId;
  const checks = get(call, 'pending_safety_checks');
  if (Array.isArray(checks)) {
    if (checks.length > NATIVE_LIMITS.safetyChecks) {
      tooLarge(
        'pending_safety_checks',
        `pending_safety_checks holds ${checks.length} checks.`,
        `Send at most ${NATIVE_LIMITS.safetyChecks}.`,
      );
    }
    reply.pendingSafetyChecks = checks.map((c: unknown, i) => {
      const field = `pending_safety_checks[${i}]`;
      if (!isObj(c))
        badField(
          field,
          `${field} is ${show(c)}, not {id, code, message}.`,
          'Send the checks as the API returned them.',
        );
      const id = optId(c, 'id', `${field}.id`);
      if (id === undefined)
        badField(field, `${field} has no id.`, 'Send the checks as the API returned them, each with its id.');
      const code = get(c, 'code');
      const message = get(c, 'message');
      return {
        id,
        ...(typeof code === 'string' ? { code: readText(code, `${field}.code`, NATIVE_LIMITS.idChars) } : {}),
        ...(typeof message === 'string' ? { message: readText(message, `${field}.message`) } : {}),
      };
    });
  }
  return reply;
}
