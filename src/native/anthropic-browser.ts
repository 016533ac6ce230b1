// Anthropic's browser toolset (browser_toolset_20260801, toolset_name "browser"). Its mouse members aim with
// `target`, a viewport coordinate or an element ref from read_page/find; trueclick reads pages from
// screenshots and has no refs, so a ref target is refused and the DOM members become `unsupported` steps.

import { show } from '../geometry/index.js';
import {
  heldChord,
  holdKeyAction,
  keyAction,
  typeAction,
  WHEEL_NOTCHES,
  waitAction,
  zoomAction,
} from './anthropic-computer.js';
import { NativeActionError } from './errors.js';
import { NATIVE_LIMITS } from './limits.js';
import {
  type ActionAt,
  badField,
  get,
  isObj,
  missingField,
  type Obj,
  optNumber,
  readCoordinate,
  reqChoice,
  reqText,
} from './read.js';
import { type ActionReader, DIRECTIONS, type StepBody, scrollToward, unsupported } from './steps.js';
import type { Button, NativePoint } from './types.js';

const COORDINATE_TARGET = '{"type": "coordinate", "x": …, "y": …}';

/** A `target` (or `from`): a coordinate target's point; a ref target is NATIVE_UNSUPPORTED_TARGET. */
function target(input: Obj, key: string, at: ActionAt): NativePoint {
  const field = at.field(key);
  const value = get(input, key);
  if (value === undefined || value === null)
    missingField(at, key, `(a coordinate target ${COORDINATE_TARGET})`);
  if (!isObj(value)) {
    badField(
      field,
      `${field} is ${show(value)}, not a target object.`,
      `Send ${field} as ${COORDINATE_TARGET}.`,
    );
  }
  const type = get(value, 'type');
  if (type === 'ref') {
    throw new NativeActionError(
      'NATIVE_UNSUPPORTED_TARGET',
      `${field} is the element ref ${show(get(value, 'ref'))}: trueclick has no element refs (it reads the page from screenshots, not read_page or find).`,
      `Send ${field} as a coordinate target ${COORDINATE_TARGET}, read off the screenshot.`,
      field,
    );
  }
  if (type !== undefined && type !== 'coordinate') {
    badField(
      field,
      `${field} has type ${show(type)}, not "coordinate".`,
      `Send ${field} as ${COORDINATE_TARGET}.`,
    );
  }
  const x = get(value, 'x');
  const y = get(value, 'y');
  if (x === undefined || x === null || y === undefined || y === null) {
    missingField(
      at,
      `${key}.${x === undefined || x === null ? 'x' : 'y'}`,
      '(a coordinate target needs x and y)',
    );
  }
  return {
    x: readCoordinate(x, `${field}.x`, at.scope),
    y: readCoordinate(y, `${field}.y`, at.scope),
    field,
  };
}

function click(button: Button, count: 1 | 2 | 3): ActionReader {
  return (input, at) => [
    {
      kind: 'click',
      at: target(input, 'target', at),
      button,
      count,
      modifiers: heldChord(input, 'modifiers', at),
    },
  ];
}

const move: ActionReader = (input, at) => [{ kind: 'move', at: target(input, 'target', at), modifiers: [] }];

const scroll: ActionReader = (input, at) => {
  const direction = reqChoice(input, 'scroll_direction', at, DIRECTIONS);
  // The toolset's default is 3 notches.
  const amount = optNumber(input, 'scroll_amount', at, WHEEL_NOTCHES) ?? 3;
  return [
    {
      kind: 'scroll',
      at: target(input, 'target', at),
      amount: scrollToward(direction, amount, 'wheel_click'),
      modifiers: [],
    },
  ];
};

const navigate: ActionReader = (input, at) => {
  const url = reqText(input, 'url', at, NATIVE_LIMITS.urlChars).trim();
  if (url === '')
    badField(
      at.field('url'),
      `${at.field('url')} is empty.`,
      'Send a URL, or "back", "forward" or "reload".',
    );
  const word = url.toLowerCase();
  if (word === 'back') return [{ kind: 'back' }];
  if (word === 'forward') return [{ kind: 'forward' }];
  if (word === 'reload') return [{ kind: 'reload' }];
  return [{ kind: 'navigate', url }];
};

/** switch_tab and close_tab name the tab (tab_id, required); the envelope stamps it on the step. */
function onTab(action: 'select' | 'close'): ActionReader {
  return (input, at) => {
    const id = get(input, 'tab_id');
    if (id === undefined || id === null) missingField(at, 'tab_id', '(the tab, from list_tabs)');
    return [{ kind: 'tab', action }];
  };
}

const NO_REFS = 'trueclick has no element refs: it acts on what the screenshot shows';

function refused(reason: string, hint: string): ActionReader {
  const body: StepBody = unsupported(reason, hint);
  return () => [body];
}

export const BROWSER_MEMBERS: ReadonlyMap<string, ActionReader> = new Map<string, ActionReader>([
  ['left_click', click('left', 1)],
  ['right_click', click('right', 1)],
  ['middle_click', click('middle', 1)],
  ['double_click', click('left', 2)],
  ['triple_click', click('left', 3)],
  ['hover', move],
  ['mouse_move', move],
  [
    'left_click_drag',
    (input, at) => [
      {
        kind: 'drag',
        from: target(input, 'from', at),
        to: target(input, 'target', at),
        via: [],
        modifiers: [],
      },
    ],
  ],
  [
    'left_mouse_down',
    (input, at) => [{ kind: 'mouse_down', at: target(input, 'target', at), button: 'left' }],
  ],
  ['left_mouse_up', (input, at) => [{ kind: 'mouse_up', at: target(input, 'target', at), button: 'left' }]],
  ['scroll', scroll],
  ['type', typeAction],
  ['key', keyAction],
  ['hold_key', holdKeyAction],
  ['wait', waitAction],
  ['zoom', zoomAction],
  ['screenshot', () => [{ kind: 'screenshot' }]],
  ['navigate', navigate],
  ['list_tabs', () => [{ kind: 'tab', action: 'list' }]],
  ['new_tab', () => [{ kind: 'tab', action: 'new' }]],
  ['switch_tab', onTab('select')],
  ['close_tab', onTab('close')],
  [
    'scroll_to',
    refused(
      `scroll_to scrolls an element ref into view; ${NO_REFS}.`,
      'Use scroll with a coordinate target and a scroll_direction.',
    ),
  ],
  [
    'read_page',
    refused(`read_page lists elements with refs; ${NO_REFS}.`, 'Take a screenshot and act on coordinates.'),
  ],
  [
    'find',
    refused(`find returns element refs; ${NO_REFS}.`, 'Look at the screenshot and click the coordinates.'),
  ],
  [
    'form_input',
    refused(`form_input sets a field through an element ref; ${NO_REFS}.`, 'Click the field, then use type.'),
  ],
  [
    'file_upload',
    refused(
      `file_upload sets files through an element ref; ${NO_REFS}.`,
      "Use trueclick's browser_file_upload tool instead.",
    ),
  ],
  [
    'get_page_text',
    refused(
      'get_page_text reads the DOM text; trueclick reads pages from screenshots.',
      'Take a screenshot, or zoom into the part you need to read.',
    ),
  ],
  [
    'javascript_exec',
    refused('trueclick runs no page JavaScript.', 'Act with clicks, typing and keys instead.'),
  ],
  [
    'read_console',
    refused("trueclick does not expose the page's console.", 'Check the page state on a screenshot.'),
  ],
  [
    'read_network',
    refused(
      "trueclick does not expose the page's network requests.",
      'Check the page state on a screenshot.',
    ),
  ],
]);
