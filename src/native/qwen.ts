// Qwen2.5-VL / Qwen3-VL computer_use (QwenLM/Qwen3-VL cookbooks/utils/agent_function_call.py): Nous-style
// <tool_call>{"name": "computer_use", "arguments": {…}}</tool_call> blocks, one or several, or the call object.
// Qwen2.5-VL writes pixels of the smart-resized image, Qwen3-VL the 0–999 grid.

import { show } from '../geometry/index.js';
import { NativeActionError } from './errors.js';
import { chordOfList, chordOfPlus } from './keys.js';
import { NATIVE_LIMITS } from './limits.js';
import {
  type ActionAt,
  actionAt,
  badField,
  checkCount,
  get,
  isObj,
  missingField,
  type NumberRule,
  noAction,
  type Obj,
  optPoint,
  parseJson,
  reqChoice,
  reqNumber,
  reqPoint,
  reqText,
  type Scope,
  SECONDS,
} from './read.js';
import { type ActionReader, nameOf, type Parsed, readWith, StepList, unsupported } from './steps.js';
import type { Button } from './types.js';

const SHAPES =
  'the model\'s text with <tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [x, y]}}</tool_call> ' +
  'blocks (one or several), or the call object {"name": "computer_use", "arguments": {…}}';

const PIXELS: NumberRule = { unit: 'pixels (positive scrolls up)', maxAbs: NATIVE_LIMITS.scroll.image_px };

function click(button: Button, count: 1 | 2 | 3): ActionReader {
  return (args, at) => {
    // Without a coordinate the click happens where the cursor is.
    const p = optPoint(args, 'coordinate', at);
    return [{ kind: 'click', ...(p ? { at: p } : {}), button, count, modifiers: [] }];
  };
}

/** scroll and hscroll: `pixels` > 0 scrolls up (scroll) or right (hscroll, as pyautogui.hscroll does). */
function scroll(axis: 'vertical' | 'horizontal'): ActionReader {
  return (args, at) => {
    const pixels = reqNumber(args, 'pixels', at, PIXELS);
    const p = optPoint(args, 'coordinate', at);
    const amount =
      axis === 'vertical'
        ? { dx: 0, dy: 0 - pixels, unit: 'image_px' as const }
        : { dx: pixels, dy: 0, unit: 'image_px' as const };
    return [{ kind: 'scroll', ...(p ? { at: p } : {}), amount, modifiers: [] }];
  };
}

function keys(args: Obj, at: ActionAt): string[] {
  const value = get(args, 'keys');
  if (value === undefined || value === null)
    missingField(at, 'keys', '(the keys to press together, e.g. ["ctrl", "c"])');
  return typeof value === 'string'
    ? chordOfPlus('qwen', value, at.field('keys'))
    : chordOfList('qwen', value, at.field('keys'));
}

const ACTIONS: ReadonlyMap<string, ActionReader> = new Map<string, ActionReader>([
  ['key', (args, at) => [{ kind: 'key', chord: keys(args, at), repeat: 1 }]],
  [
    'type',
    (args, at) => [{ kind: 'type', text: reqText(args, 'text', at), pressEnter: false, clearFirst: false }],
  ],
  ['mouse_move', (args, at) => [{ kind: 'move', at: reqPoint(args, 'coordinate', at), modifiers: [] }]],
  ['left_click', click('left', 1)],
  ['right_click', click('right', 1)],
  ['middle_click', click('middle', 1)],
  ['double_click', click('left', 2)],
  ['triple_click', click('left', 3)],
  // The drag starts where the cursor is: the action names only where it ends.
  [
    'left_click_drag',
    (args, at) => [{ kind: 'drag', to: reqPoint(args, 'coordinate', at), via: [], modifiers: [] }],
  ],
  ['scroll', scroll('vertical')],
  ['hscroll', scroll('horizontal')],
  ['wait', (args, at) => [{ kind: 'wait', seconds: reqNumber(args, 'time', at, SECONDS) }]],
  [
    'terminate',
    (args, at) => [{ kind: 'done', status: reqChoice(args, 'status', at, ['success', 'failure'] as const) }],
  ],
  ['answer', (args, at) => [{ kind: 'done', text: reqText(args, 'text', at) }]],
]);

interface RawCall {
  value: unknown;
  source: string;
}

export function readQwen(scope: Scope, output: unknown): Parsed {
  const calls = typeof output === 'string' ? callsInText(output) : callsInValue(output);
  if (calls.length === 0) noAction('The output is an empty list of tool calls.', SHAPES);
  checkCount(calls.length, 'tool_call', 'tool calls');
  const list = new StepList();
  for (const call of calls) readCall(scope, call, calls.length > 1 ? `${call.source}.` : '', list);
  return { steps: list.steps, reply: {} };
}

function callsInText(text: string): RawCall[] {
  const bodies = toolCallBodies(text);
  if (bodies.length === 0) {
    // No tags: the call's JSON, as a parser that strips them leaves it.
    const r = parseJson(text);
    if (!r.ok) noAction('The text holds no <tool_call> block.', SHAPES);
    return callsInValue(r.value);
  }
  return bodies.map((body, i) => {
    const source = `tool_call[${i}]`;
    const r = parseJson(body);
    if (!r.ok) {
      badField(
        source,
        `${source} is not JSON (${r.reason}).`,
        'Write each block as <tool_call>{"name": "computer_use", "arguments": {…}}</tool_call>.',
      );
    }
    return { value: r.value, source };
  });
}

/** The bodies of the <tool_call> blocks; one the model left open ends where the next opens, or at the end. */
function toolCallBodies(text: string): string[] {
  const open = '<tool_call>';
  const close = '</tool_call>';
  const bodies: string[] = [];
  for (let i = text.indexOf(open); i >= 0 && bodies.length <= NATIVE_LIMITS.actions; ) {
    const start = i + open.length;
    const next = text.indexOf(open, start);
    const end = text.indexOf(close, start);
    bodies.push(
      text.slice(start, end >= 0 && (next < 0 || end < next) ? end : next >= 0 ? next : text.length),
    );
    i = next;
  }
  return bodies;
}

function callsInValue(value: unknown): RawCall[] {
  if (Array.isArray(value)) return value.map((v: unknown, i) => ({ value: v, source: `tool_call[${i}]` }));
  if (isObj(value)) return [{ value, source: 'tool_call' }];
  return noAction(`The output is ${show(value)}, not a tool call.`, SHAPES);
}

function readCall(scope: Scope, raw: RawCall, label: string, list: StepList): void {
  if (!isObj(raw.value)) {
    badField(
      raw.source,
      `${raw.source} is ${show(raw.value)}, not a call object.`,
      'Send {"name": "computer_use", "arguments": {…}}.',
    );
  }
  // An OpenAI-style tool call (vLLM's hermes parser): {"type": "function", "function": {name, arguments}}.
  const wrapped = get(raw.value, 'function');
  const call = isObj(wrapped) ? wrapped : raw.value;
  const bare = get(call, 'arguments') === undefined && typeof get(call, 'action') === 'string';
  const args = bare ? call : argumentsOf(get(call, 'arguments'), `${label}arguments`);
  const name = bare
    ? 'computer_use'
    : nameOf(get(call, 'name'), `${label}name`, ['computer_use'], 'function');
  const nameField = `${label}arguments.action`;
  if (name === 'mobile_use') {
    const action = get(args, 'action');
    const named = typeof action === 'string' && action !== '' && action.length <= 64 ? action : name;
    const at = actionAt(scope, named, raw.source, `${label}arguments.`);
    list.add(at, [
      unsupported(
        'mobile_use drives a phone touchscreen; trueclick drives a browser',
        'Call computer_use instead (left_click, type, key, scroll…).',
      ),
    ]);
    return;
  }
  if (name !== 'computer_use') {
    throw new NativeActionError(
      'NATIVE_UNKNOWN_ACTION',
      `${label}name is ${show(name)}: that tool call is not computer_use.`,
      'Pass only computer_use calls; run other tools yourself.',
      `${label}name`,
    );
  }
  const action = nameOf(get(args, 'action'), nameField, [...ACTIONS.keys()]);
  const at = actionAt(scope, action, raw.source, `${label}arguments.`);
  list.add(at, readWith(ACTIONS, args, at, nameField));
}

/** `arguments` as an object, or as the JSON string chat APIs carry it in. */
function argumentsOf(value: unknown, field: string): Obj {
  if (value === undefined || value === null) {
    throw new NativeActionError(
      'NATIVE_MISSING_FIELD',
      `The call has no ${field}.`,
      `Send ${field} as {"action": …}.`,
      field,
    );
  }
  const parsed = typeof value === 'string' ? parseJson(value) : { ok: true as const, value };
  if (!parsed.ok || !isObj(parsed.value)) {
    return badField(field, `${field} is ${show(value)}, not an object.`, `Send ${field} as {"action": …}.`);
  }
  return parsed.value;
}
