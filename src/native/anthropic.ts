// Anthropic envelopes: one tool_use block, the bare `input`, the content array of one assistant turn (several
// tool_use blocks are a batch; text and thinking blocks are skipped) or the assistant message around it.

import { show } from '../geometry/index.js';
import { BROWSER_MEMBERS } from './anthropic-browser.js';
import { COMPUTER_ACTIONS } from './anthropic-computer.js';
import { NativeActionError } from './errors.js';
import {
  actionAt,
  badField,
  checkCount,
  get,
  isObj,
  jsonInput,
  noAction,
  type Obj,
  optId,
  type Scope,
} from './read.js';
import { nameOf, type Parsed, readWith, StepList } from './steps.js';
import type { NativeBatch } from './types.js';

const SHAPES =
  'a tool_use block {"type": "tool_use", "id": …, "name": "computer", "input": {"action": "left_click", "coordinate": [x, y]}}, ' +
  'a toolset member block {"type": "tool_use", "id": …, "name": "left_click", "toolset_name": "computer", "input": {"coordinate": [x, y]}}, ' +
  'the bare input {"action": "left_click", "coordinate": [x, y]}, the content array of the assistant turn, ' +
  'or the assistant message {"role": "assistant", "content": […]}';

interface Block {
  block: Obj;
  /** 'input' for a lone block or bare input, 'content[i]' inside a turn. */
  source: string;
}

type ToolUseIds = NonNullable<NativeBatch['reply']['toolUseIds']>;

export function readAnthropic(scope: Scope, output: unknown): Parsed {
  const value = typeof output === 'string' ? jsonInput(output, SHAPES) : output;
  const list = new StepList();
  const ids: ToolUseIds = [];

  if (isObj(value) && get(value, 'type') === undefined && get(value, 'action') !== undefined) {
    // The bare input of the single computer tool.
    readSingleTool(scope, value, 'input', 'input.', list);
    return { steps: list.steps, reply: {} };
  }
  const blocks = toolUses(value);
  for (const { block, source } of blocks) {
    // Fields name their block only when there are several: one block keeps the plain input.* names.
    const label = blocks.length > 1 ? `${source}.` : '';
    const id = optId(block, 'id', `${label}id`);
    const first = readBlock(scope, block, source, label, `${label}input.`, list);
    if (id !== undefined) ids.push({ id, step: first });
  }
  return { steps: list.steps, reply: ids.length > 0 ? { toolUseIds: ids } : {} };
}

/** The tool_use blocks of the input, in order, each with where it sits. */
function toolUses(value: unknown): Block[] {
  if (isObj(value) && get(value, 'type') === 'tool_use') return [{ block: value, source: 'input' }];
  const content = Array.isArray(value) ? value : isObj(value) ? get(value, 'content') : undefined;
  if (!Array.isArray(content)) {
    noAction(`The output is ${describe(value)}, with no tool_use block or computer input in it.`, SHAPES);
  }
  const blocks: Block[] = [];
  content.forEach((item: unknown, i) => {
    if (!isObj(item)) {
      badField(
        `content[${i}]`,
        `content[${i}] is ${show(item)}, not a content block.`,
        'Send the content blocks as the API returned them.',
      );
    }
    if (get(item, 'type') === 'tool_use') blocks.push({ block: item, source: `content[${i}]` });
  });
  if (blocks.length === 0)
    noAction('The content holds no tool_use block (only text or other blocks).', SHAPES);
  checkCount(blocks.length, 'content', 'tool_use blocks');
  return blocks;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return 'a string';
  return isObj(value) ? 'an object' : show(value);
}

/** Reads one tool_use block and returns the index of its first step. */
function readBlock(
  scope: Scope,
  block: Obj,
  source: string,
  label: string,
  prefix: string,
  list: StepList,
): number {
  const nameField = `${label}name`;
  const name = nameOf(get(block, 'name'), nameField, ['computer', ...COMPUTER_ACTIONS.keys()], 'tool');
  const input = get(block, 'input') ?? {};
  if (!isObj(input)) {
    badField(
      `${label}input`,
      `${label}input is ${show(input)}, not an object.`,
      'Send input as the object the model wrote.',
    );
  }
  const toolset = get(block, 'toolset_name');
  if (toolset === 'computer') {
    const at = actionAt(scope, name, source, prefix);
    return list.add(at, readWith(COMPUTER_ACTIONS, input, at, nameField, 'computer toolset member'));
  }
  if (toolset === 'browser') {
    const at = actionAt(scope, name, source, prefix);
    const tabId = optId(input, 'tab_id', at.field('tab_id'));
    return list.add(at, readWith(BROWSER_MEMBERS, input, at, nameField, 'browser toolset member'), tabId);
  }
  if (toolset !== undefined && toolset !== null) {
    throw new NativeActionError(
      'NATIVE_UNKNOWN_ACTION',
      `${label}toolset_name is ${show(toolset)}, not a computer-use toolset.`,
      'Pass only blocks of the computer tool (name "computer") or of the "computer" and "browser" toolsets.',
      `${label}toolset_name`,
    );
  }
  if (name !== 'computer') {
    throw new NativeActionError(
      'NATIVE_UNKNOWN_ACTION',
      `${nameField} is ${show(name)}: that tool_use calls another tool, not computer use.`,
      'Pass only blocks of the computer tool (name "computer") or of the "computer" and "browser" toolsets; run other tools yourself.',
      nameField,
    );
  }
  return readSingleTool(scope, input, source, prefix, list);
}

/** The single computer tool: the action is `input.action`. */
function readSingleTool(scope: Scope, input: Obj, source: string, prefix: string, list: StepList): number {
  const nameField = `${prefix}action`;
  const name = nameOf(get(input, 'action'), nameField, [...COMPUTER_ACTIONS.keys()]);
  const at = actionAt(scope, name, source, prefix);
  return list.add(at, readWith(COMPUTER_ACTIONS, input, at, nameField));
}
