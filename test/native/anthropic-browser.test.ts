// Anthropic's browser toolset (browser_toolset_20260801): coordinate targets, refs refused, tabs, navigation,
// and the DOM members that trueclick answers with `unsupported` steps.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batch, nativeError, only, steps } from './helpers.js';

const browser = (name: string, input: object, id = `toolu_${name}`) => ({
  type: 'tool_use',
  id,
  name,
  toolset_name: 'browser',
  input,
});
const at = (x: number, y: number) => ({ type: 'coordinate', x, y });
const one = (name: string, input: object) => only('claude', browser(name, input));

describe('anthropic browser toolset: mouse members', () => {
  it('clicks at a coordinate target, holding modifiers, on a tab', () => {
    assert.deepEqual(one('left_click', { target: at(200, 300), modifiers: 'ctrl+shift', tab_id: 'tab_2' }), {
      kind: 'click',
      at: { x: 200, y: 300, field: 'input.target' },
      button: 'left',
      count: 1,
      modifiers: ['Control', 'Shift'],
      name: 'left_click',
      source: 'input',
      tabId: 'tab_2',
    });
    const cmd = one('right_click', { target: at(1, 2), modifiers: 'cmd+alt' });
    assert.deepEqual(cmd.kind === 'click' && [cmd.button, cmd.modifiers], ['right', ['Meta', 'Alt']]);
    assert.equal(cmd.tabId, undefined);
    const clicks = ['middle_click', 'double_click', 'triple_click'].map((n) => one(n, { target: at(1, 2) }));
    assert.deepEqual(
      clicks.map((s) => s.kind === 'click' && [s.button, s.count]),
      [
        ['middle', 1],
        ['left', 2],
        ['left', 3],
      ],
    );
  });

  it('hover and mouse_move move; drag goes from `from` to `target`', () => {
    assert.deepEqual(one('hover', { target: at(5, 6) }), {
      kind: 'move',
      at: { x: 5, y: 6, field: 'input.target' },
      modifiers: [],
      name: 'hover',
      source: 'input',
    });
    assert.equal(one('mouse_move', { target: at(5, 6) }).kind, 'move');
    assert.deepEqual(one('left_click_drag', { from: at(1, 2), target: at(3, 4) }), {
      kind: 'drag',
      from: { x: 1, y: 2, field: 'input.from' },
      to: { x: 3, y: 4, field: 'input.target' },
      via: [],
      modifiers: [],
      name: 'left_click_drag',
      source: 'input',
    });
    assert.equal(one('left_mouse_down', { target: at(1, 2) }).kind, 'mouse_down');
    assert.equal(one('left_mouse_up', { target: at(1, 2) }).kind, 'mouse_up');
  });

  it('scroll defaults to 3 notches', () => {
    assert.deepEqual(one('scroll', { target: at(640, 400), scroll_direction: 'down' }), {
      kind: 'scroll',
      at: { x: 640, y: 400, field: 'input.target' },
      amount: { dx: 0, dy: 3, unit: 'wheel_click' },
      modifiers: [],
      name: 'scroll',
      source: 'input',
    });
    const right = one('scroll', { target: at(1, 1), scroll_direction: 'right', scroll_amount: 7 });
    assert.deepEqual(right.kind === 'scroll' && right.amount, { dx: 7, dy: 0, unit: 'wheel_click' });
  });

  it('a ref target is refused: trueclick has no element refs', () => {
    const e = nativeError(
      () => steps('claude', browser('left_click', { target: { type: 'ref', ref: 'ref_7' } })),
      'NATIVE_UNSUPPORTED_TARGET',
      'input.target',
    );
    assert.match(e.problem, /no element refs/);
    assert.match(e.hint, /coordinate/);
    nativeError(
      () =>
        steps('claude', browser('left_click_drag', { from: { type: 'ref', ref: 'r1' }, target: at(1, 2) })),
      'NATIVE_UNSUPPORTED_TARGET',
      'input.from',
    );
  });

  it('bad targets name their field', () => {
    nativeError(() => steps('claude', browser('left_click', {})), 'NATIVE_MISSING_FIELD', 'input.target');
    nativeError(
      () => steps('claude', browser('left_click', { target: [1, 2] })),
      'NATIVE_BAD_FIELD',
      'input.target',
    );
    nativeError(
      () => steps('claude', browser('left_click', { target: { type: 'css', selector: '#a' } })),
      'NATIVE_BAD_FIELD',
      'input.target',
    );
    nativeError(
      () => steps('claude', browser('left_click', { target: { type: 'coordinate', x: 1 } })),
      'NATIVE_MISSING_FIELD',
      'input.target.y',
    );
    nativeError(
      () => steps('claude', browser('left_click', { target: { type: 'coordinate', x: -4, y: 1 } })),
      'NATIVE_BAD_FIELD',
      'input.target.x',
    );
    nativeError(
      () => steps('claude', browser('left_click', { target: at(1, 2), modifiers: 'a' })),
      'NATIVE_BAD_FIELD',
      'input.modifiers',
    );
  });
});

describe('anthropic browser toolset: keyboard, page and tabs', () => {
  it('key text with spaces is a sequence of presses; repeat repeats one key', () => {
    const b = batch('claude', browser('key', { text: 'Backspace Backspace Delete' }));
    assert.deepEqual(
      b.steps.map((s) => (s.kind === 'key' ? s.chord : [])),
      [['Backspace'], ['Backspace'], ['Delete']],
    );
    assert.ok(b.steps.every((s) => s.source === 'input' && s.name === 'key'));
    // One tool_use answers for the whole sequence: its id points at the first step.
    assert.deepEqual(b.reply.toolUseIds, [{ id: 'toolu_key', step: 0 }]);
    const held = one('key', { text: 'cmd+shift+p', repeat: 2 });
    assert.deepEqual(held.kind === 'key' && [held.chord, held.repeat], [['Meta', 'Shift', 'p'], 2]);
  });

  it('type, hold_key, wait, zoom and screenshot', () => {
    assert.equal(one('type', { text: 'hi' }).kind, 'type');
    assert.deepEqual(one('hold_key', { text: 'shift', duration: 1 }).kind, 'hold_key');
    assert.deepEqual(one('wait', { duration: 2 }), {
      kind: 'wait',
      seconds: 2,
      name: 'wait',
      source: 'input',
    });
    assert.equal(one('zoom', { region: [0, 0, 100, 100] }).kind, 'zoom');
    assert.equal(one('screenshot', {}).kind, 'screenshot');
  });

  it('navigate opens a URL, or goes back, forward or reloads', () => {
    assert.deepEqual(one('navigate', { url: 'https://example.com/', tab_id: 'tab_1' }), {
      kind: 'navigate',
      url: 'https://example.com/',
      name: 'navigate',
      source: 'input',
      tabId: 'tab_1',
    });
    assert.equal(one('navigate', { url: 'back' }).kind, 'back');
    assert.equal(one('navigate', { url: 'Forward' }).kind, 'forward');
    assert.equal(one('navigate', { url: 'reload' }).kind, 'reload');
    nativeError(() => steps('claude', browser('navigate', {})), 'NATIVE_MISSING_FIELD', 'input.url');
    nativeError(() => steps('claude', browser('navigate', { url: ' ' })), 'NATIVE_BAD_FIELD', 'input.url');
    nativeError(
      () => steps('claude', browser('navigate', { url: `https://e.com/${'a'.repeat(8_200)}` })),
      'NATIVE_TOO_LARGE',
      'input.url',
    );
  });

  it('tab members become tab steps', () => {
    assert.deepEqual(one('list_tabs', {}), {
      kind: 'tab',
      action: 'list',
      name: 'list_tabs',
      source: 'input',
    });
    assert.deepEqual(one('new_tab', {}), { kind: 'tab', action: 'new', name: 'new_tab', source: 'input' });
    assert.deepEqual(one('switch_tab', { tab_id: 'tab_3' }), {
      kind: 'tab',
      action: 'select',
      name: 'switch_tab',
      source: 'input',
      tabId: 'tab_3',
    });
    assert.deepEqual(one('close_tab', { tab_id: 'tab_3' }).tabId, 'tab_3');
    nativeError(() => steps('claude', browser('switch_tab', {})), 'NATIVE_MISSING_FIELD', 'input.tab_id');
    nativeError(() => steps('claude', browser('close_tab', {})), 'NATIVE_MISSING_FIELD', 'input.tab_id');
    nativeError(
      () => steps('claude', browser('switch_tab', { tab_id: 3 })),
      'NATIVE_BAD_FIELD',
      'input.tab_id',
    );
  });

  it('DOM members are unsupported steps with a reason and a hint', () => {
    const cases: Array<[string, object, RegExp]> = [
      ['javascript_exec', { text: 'document.title' }, /runs no page JavaScript/],
      ['read_page', {}, /refs/],
      ['find', { query: 'search box' }, /refs/],
      ['form_input', { ref: 'ref_1', value: 'x' }, /refs/],
      ['file_upload', { ref: 'ref_1', paths: ['/tmp/a'] }, /refs/],
      ['get_page_text', {}, /screenshots/],
      ['read_console', {}, /console/],
      ['read_network', {}, /network/],
      ['scroll_to', { target: { type: 'ref', ref: 'ref_9' } }, /refs/],
    ];
    for (const [name, input, reason] of cases) {
      const s = one(name, input);
      assert.ok(s.kind === 'unsupported', name);
      assert.match(s.reason, reason, name);
      assert.ok(s.hint.length > 10, name);
      assert.equal(s.name, name);
    }
  });

  it('a turn mixing computer, browser and text blocks', () => {
    const b = batch('claude', {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Opening the page.' },
        browser('navigate', { url: 'example.com' }, 'toolu_1'),
        browser('left_click', { target: at(10, 20) }, 'toolu_2'),
        browser('key', { text: 'Tab Tab' }, 'toolu_3'),
        browser('screenshot', {}, 'toolu_4'),
      ],
    });
    assert.deepEqual(
      b.steps.map((s) => s.kind),
      ['navigate', 'click', 'key', 'key', 'screenshot'],
    );
    assert.deepEqual(b.reply.toolUseIds, [
      { id: 'toolu_1', step: 0 },
      { id: 'toolu_2', step: 1 },
      { id: 'toolu_3', step: 2 },
      { id: 'toolu_4', step: 4 },
    ]);
    const click = b.steps[1];
    assert.equal(click?.kind === 'click' && click.at?.field, 'content[2].input.target');
    nativeError(
      () => steps('claude', [browser('wait', {}, 'a'), browser('wait', { duration: 1 }, 'b')]),
      'NATIVE_MISSING_FIELD',
      'content[0].input.duration',
    );
  });
});
