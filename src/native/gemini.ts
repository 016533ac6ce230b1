// Gemini Computer Use: function calls ({name, args}), alone, as functionCall/function_call parts, as a list,
// or inside content/candidates. Both vocabularies are read: the legacy one (click_at, type_text_at…; 2.5,
// 3-flash-preview, 3.1-pro-preview) and the 3.5 one (click, hotkey, press_key…). Points are on the 0–999 grid.

import { show } from '../geometry/index.js';
import { chordOfList, chordOfPlus, playwrightKey } from './keys.js';
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
  type NumberRule,
  noAction,
  type Obj,
  optBool,
  optId,
  optNumber,
  readText,
  reqChoice,
  reqText,
  reqXY,
  type Scope,
  SECONDS,
} from './read.js';
import {
  type ActionReader,
  DIRECTIONS,
  nameOf,
  type Parsed,
  type Reply,
  readWith,
  StepList,
  scrollToward,
  unsupported,
} from './steps.js';
import type { Button } from './types.js';

const SHAPES =
  'a function call {"name": "click_at", "args": {"x": …, "y": …}}, a part {"functionCall": {…}} or {"function_call": {…}}, ' +
  'a list of them, or {"content": {"parts": […]}} / {"candidates": [{"content": {"parts": […]}}]}';

/** The reference's default scroll magnitude, in grid units of the viewport's side. */
const DEFAULT_MAGNITUDE = 800;
const MAGNITUDE: NumberRule = { unit: 'grid units of the viewport', min: 0, max: NATIVE_LIMITS.scroll.grid };

function click(button: Button, count: 1 | 2 | 3): ActionReader {
  return (args, at) => [{ kind: 'click', at: reqXY(args, 'x', 'y', at), button, count, modifiers: [] }];
}

const move: ActionReader = (args, at) => [{ kind: 'move', at: reqXY(args, 'x', 'y', at), modifiers: [] }];

const scrollAt: ActionReader = (args, at) => {
  const direction = reqChoice(args, 'direction', at, DIRECTIONS);
  const magnitude = optNumber(args, 'magnitude', at, MAGNITUDE) ?? DEFAULT_MAGNITUDE;
  return [
    {
      kind: 'scroll',
      at: reqXY(args, 'x', 'y', at),
      amount: scrollToward(direction, magnitude, 'grid'),
      modifiers: [],
    },
  ];
};

/** key_combination writes "Control+A"; hotkey writes ["Control", "A"]. Either form is read in either. */
function chord(args: Obj, at: ActionAt): string[] {
  const keys = get(args, 'keys');
  const field = at.field('keys');
  if (keys === undefined || keys === null) missingField(at, 'keys', '(e.g. "Control+A" or ["Control", "A"])');
  if (typeof keys === 'string') return chordOfPlus('gemini', keys, field);
  return chordOfList('gemini', keys, field);
}

function oneKey(args: Obj, at: ActionAt): string {
  const key = get(args, 'key');
  if (key === undefined || key === null) missingField(at, 'key', '(a key name, e.g. "Enter")');
  return playwrightKey('gemini', key, at.field('key'));
}

const navigate: ActionReader = (args, at) => {
  const url = reqText(args, 'url', at, NATIVE_LIMITS.urlChars).trim();
  if (url === '') badField(at.field('url'), `${at.field('url')} is empty.`, 'Send the URL to open.');
  return [{ kind: 'navigate', url }];
};

const ACTIONS: ReadonlyMap<string, ActionReader> = new Map<string, ActionReader>([
  ['open_web_browser', () => [unsupported('the browser is already open', 'Go on with the next action.')]],
  ['click_at', click('left', 1)],
  ['click', click('left', 1)],
  ['double_click', click('left', 2)],
  ['triple_click', click('left', 3)],
  ['middle_click', click('middle', 1)],
  ['right_click', click('right', 1)],
  ['mouse_down', (args, at) => [{ kind: 'mouse_down', at: reqXY(args, 'x', 'y', at), button: 'left' }]],
  ['mouse_up', (args, at) => [{ kind: 'mouse_up', at: reqXY(args, 'x', 'y', at), button: 'left' }]],
  ['hover_at', move],
  ['move', move],
  [
    'type_text_at',
    (args, at) => [
      {
        kind: 'type',
        text: reqText(args, 'text', at),
        at: reqXY(args, 'x', 'y', at),
        pressEnter: optBool(args, 'press_enter', at) ?? false,
        clearFirst: optBool(args, 'clear_before_typing', at) ?? true,
      },
    ],
  ],
  [
    'type',
    (args, at) => [
      {
        kind: 'type',
        text: reqText(args, 'text', at),
        pressEnter: optBool(args, 'press_enter', at) ?? false,
        clearFirst: false,
      },
    ],
  ],
  ['key_combination', (args, at) => [{ kind: 'key', chord: chord(args, at), repeat: 1 }]],
  ['hotkey', (args, at) => [{ kind: 'key', chord: chord(args, at), repeat: 1 }]],
  ['press_key', (args, at) => [{ kind: 'key', chord: [oneKey(args, at)], repeat: 1 }]],
  ['key_down', (args, at) => [{ kind: 'key_down', key: oneKey(args, at) }]],
  ['key_up', (args, at) => [{ kind: 'key_up', key: oneKey(args, at) }]],
  [
    'scroll_document',
    (args, at) => [
      {
        kind: 'scroll',
        amount: scrollToward(reqChoice(args, 'direction', at, DIRECTIONS), 1, 'viewport'),
        modifiers: [],
      },
    ],
  ],
  ['scroll_at', scrollAt],
  ['scroll', scrollAt],
  [
    'drag_and_drop',
    (args, at) => [
      {
        kind: 'drag',
        from: reqXY(args, 'x', 'y', at),
        to: reqXY(args, 'destination_x', 'destination_y', at),
        via: [],
        modifiers: [],
      },
    ],
  ],
  ['wait_5_seconds', () => [{ kind: 'wait', seconds: 5 }]],
  ['wait', (args, at) => [{ kind: 'wait', seconds: optNumber(args, 'seconds', at, SECONDS) ?? 1 }]],
  ['go_back', () => [{ kind: 'back' }]],
  ['go_forward', () => [{ kind: 'forward' }]],
  ['navigate', navigate],
  [
    'search',
    () => [
      unsupported(
        'search opens a search engine page of the agent’s choosing; trueclick does not pick one',
        'Navigate to a URL instead, e.g. navigate {"url": "https://www.google.com/search?q=…"}.',
      ),
    ],
  ],
  ['take_screenshot', () => [{ kind: 'screenshot' }]],
]);

interface Call {
  call: Obj;
  source: string;
}

export function readGemini(scope: Scope, output: unknown): Parsed {
  const value = typeof output === 'string' ? jsonInput(output, SHAPES) : output;
  const calls = functionCalls(value);
  const list = new StepList();
  const reply: Reply = {};
  const functions: NonNullable<Reply['functionCalls']> = [];
  for (const { call, source } of calls) {
    const label = calls.length > 1 ? `${source}.` : '';
    const name = nameOf(get(call, 'name'), `${label}name`, [...ACTIONS.keys()], 'function');
    const args = get(call, 'args') ?? {};
    if (!isObj(args))
      badField(`${label}args`, `${label}args is ${show(args)}, not an object.`, 'Send args as an object.');
    const at = actionAt(scope, name, source, `${label}args.`);
    const first = list.add(at, readWith(ACTIONS, args, at, `${label}name`, 'function'));
    const id = optId(call, 'id', `${label}id`);
    functions.push({ name, step: first, ...(id === undefined ? {} : { id }) });
    if (reply.safetyDecision === undefined) {
      const decision = safetyDecision(args, at);
      if (decision !== undefined) reply.safetyDecision = decision;
    }
  }
  reply.functionCalls = functions;
  return { steps: list.steps, reply };
}

/** args.safety_decision is the model asking for confirmation, not an argument of the action. */
function safetyDecision(args: Obj, at: ActionAt): Reply['safetyDecision'] {
  const value = get(args, 'safety_decision');
  if (value === undefined || value === null) return undefined;
  const field = at.field('safety_decision');
  if (!isObj(value))
    badField(
      field,
      `${field} is ${show(value)}, not {decision, explanation}.`,
      'Send safety_decision as the model wrote it.',
    );
  const decision = readText(get(value, 'decision'), `${field}.decision`, NATIVE_LIMITS.idChars);
  const explanation = get(value, 'explanation');
  return {
    decision,
    ...(explanation === undefined || explanation === null
      ? {}
      : { explanation: readText(explanation, `${field}.explanation`) }),
  };
}

/** The function calls in the input, in order, each with where it sits. */
function functionCalls(value: unknown): Call[] {
  if (isObj(value)) {
    const single = get(value, 'functionCall') ?? get(value, 'function_call');
    if (isObj(single)) return [{ call: single, source: 'function_call' }];
    const envelope = ['candidates', 'content', 'parts', 'functionCalls', 'function_calls'].some(
      (key) => get(value, key) !== undefined,
    );
    if (!envelope && (get(value, 'name') !== undefined || get(value, 'args') !== undefined)) {
      return [{ call: value, source: 'function_call' }];
    }
  }
  const parts = partsOf(value);
  const calls: Call[] = [];
  parts.forEach((part: unknown, i) => {
    const source = `parts[${i}]`;
    if (!isObj(part))
      badField(source, `${source} is ${show(part)}, not a part.`, 'Send the parts as the API returned them.');
    const call = get(part, 'functionCall') ?? get(part, 'function_call');
    if (isObj(call)) calls.push({ call, source });
    else if (typeof get(part, 'name') === 'string') calls.push({ call: part, source });
    // Text and thought parts carry no action.
  });
  if (calls.length === 0) noAction('The parts hold no function call (only text or thoughts).', SHAPES);
  checkCount(calls.length, 'parts', 'function calls');
  return calls;
}

function partsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isObj(value)) {
    const candidates = get(value, 'candidates');
    const first = Array.isArray(candidates) ? candidates[0] : undefined;
    const content = isObj(first) ? get(first, 'content') : get(value, 'content');
    const parts = isObj(content) ? get(content, 'parts') : get(value, 'parts');
    if (Array.isArray(parts)) return parts;
    const listed = get(value, 'functionCalls') ?? get(value, 'function_calls');
    if (Array.isArray(listed)) return listed;
  }
  return noAction('The output holds no function call.', SHAPES);
}
