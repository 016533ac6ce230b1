// Gemini Computer Use: both function vocabularies (legacy 2.5/3-preview and 3.5), every envelope from a bare
// call to a GenerateContentResponse, the 0..1000 grid, safety decisions and function-call bookkeeping.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batch, nativeError, only, steps } from './helpers.js';

const fc = (name: string, args: object = {}) => ({ name, args });
const one = (name: string, args: object = {}) => only('gemini', fc(name, args));

describe('gemini: envelopes', () => {
  it('a bare call, a functionCall part, a function_call part and JSON text', () => {
    const expected = [
      {
        kind: 'click',
        at: { x: 500, y: 250, field: 'args.x/args.y' },
        button: 'left',
        count: 1,
        modifiers: [],
        name: 'click_at',
        source: 'function_call',
      },
    ];
    assert.deepEqual(steps('gemini', fc('click_at', { x: 500, y: 250 })), expected);
    assert.deepEqual(steps('gemini', { functionCall: fc('click_at', { x: 500, y: 250 }) }), expected);
    assert.deepEqual(steps('gemini', { function_call: fc('click_at', { x: 500, y: 250 }) }), expected);
    assert.deepEqual(
      steps('gemini', JSON.stringify({ functionCall: fc('click_at', { x: 500, y: 250 }) })),
      expected,
    );
  });

  it('the research note’s legacy example, with its safety decision', () => {
    const b = batch(
      'gemini',
      '{"functionCall":{"name":"type_text_at","args":{"x":371,"y":470,"text":"trueclick","press_enter":true,' +
        '"safety_decision":{"decision":"require_confirmation","explanation":"Typing into a login form."}}}}',
    );
    assert.deepEqual(b.steps, [
      {
        kind: 'type',
        text: 'trueclick',
        at: { x: 371, y: 470, field: 'args.x/args.y' },
        pressEnter: true,
        clearFirst: true,
        name: 'type_text_at',
        source: 'function_call',
      },
    ]);
    assert.deepEqual(b.reply, {
      functionCalls: [{ name: 'type_text_at', step: 0 }],
      safetyDecision: { decision: 'require_confirmation', explanation: 'Typing into a login form.' },
    });
  });

  it('several parts are a batch; text and thought parts are skipped; ids are kept', () => {
    const response = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'I will search for trueclick.', thought: true },
              {
                functionCall: { id: 'fc_1', name: 'click', args: { x: 100, y: 200, intent: 'focus search' } },
              },
              { functionCall: { id: 'fc_2', name: 'type', args: { text: 'trueclick', press_enter: true } } },
            ],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { totalTokenCount: 1200 },
    };
    const b = batch('gemini', response);
    assert.deepEqual(
      b.steps.map((s) => [s.kind, s.source]),
      [
        ['click', 'parts[1]'],
        ['type', 'parts[2]'],
      ],
    );
    const [click] = b.steps;
    assert.equal(click?.kind === 'click' && click.at?.field, 'parts[1].args.x/parts[1].args.y');
    assert.deepEqual(b.reply, {
      functionCalls: [
        { name: 'click', step: 0, id: 'fc_1' },
        { name: 'type', step: 1, id: 'fc_2' },
      ],
    });
    assert.deepEqual(batch('gemini', response.candidates[0]?.content.parts), b);
    assert.deepEqual(batch('gemini', { content: response.candidates[0]?.content }), b);
  });

  it('refuses what holds no call', () => {
    nativeError(() => steps('gemini', [{ text: 'Done.' }]), 'NATIVE_NO_ACTION');
    nativeError(() => steps('gemini', { candidates: [] }), 'NATIVE_NO_ACTION');
    nativeError(() => steps('gemini', 'click_at(x=1, y=2)'), 'NATIVE_NO_ACTION');
    nativeError(() => steps('gemini', null), 'NATIVE_NO_ACTION');
    nativeError(() => steps('gemini', [7]), 'NATIVE_BAD_FIELD', 'parts[0]');
    const many = Array.from({ length: 51 }, () => ({ functionCall: fc('wait_5_seconds') }));
    nativeError(() => steps('gemini', many), 'NATIVE_TOO_LARGE', 'parts');
  });
});

describe('gemini: legacy functions', () => {
  it('open_web_browser is unsupported: the browser is already open', () => {
    const s = one('open_web_browser');
    assert.ok(s.kind === 'unsupported');
    assert.equal(s.reason, 'the browser is already open');
    assert.match(s.hint, /next action/);
  });

  it('hover_at, type_text_at defaults, key_combination, drag_and_drop', () => {
    assert.deepEqual(one('hover_at', { x: 10, y: 20 }), {
      kind: 'move',
      at: { x: 10, y: 20, field: 'args.x/args.y' },
      modifiers: [],
      name: 'hover_at',
      source: 'function_call',
    });
    const t = one('type_text_at', { x: 1, y: 2, text: 'abc' });
    assert.deepEqual(t.kind === 'type' && [t.pressEnter, t.clearFirst], [false, true]);
    const kept = one('type_text_at', { x: 1, y: 2, text: 'abc', clear_before_typing: false });
    assert.equal(kept.kind === 'type' && kept.clearFirst, false);
    assert.deepEqual(one('key_combination', { keys: 'Control+A' }), {
      kind: 'key',
      chord: ['Control', 'A'],
      repeat: 1,
      name: 'key_combination',
      source: 'function_call',
    });
    const enter = one('key_combination', { keys: 'enter' });
    assert.deepEqual(enter.kind === 'key' && enter.chord, ['Enter']);
    assert.deepEqual(one('drag_and_drop', { x: 100, y: 100, destination_x: 900, destination_y: 950 }), {
      kind: 'drag',
      from: { x: 100, y: 100, field: 'args.x/args.y' },
      to: { x: 900, y: 950, field: 'args.destination_x/args.destination_y' },
      via: [],
      modifiers: [],
      name: 'drag_and_drop',
      source: 'function_call',
    });
  });

  it('scroll_document scrolls viewports; scroll_at scrolls grid units (800 by default)', () => {
    assert.deepEqual(one('scroll_document', { direction: 'down' }), {
      kind: 'scroll',
      amount: { dx: 0, dy: 1, unit: 'viewport' },
      modifiers: [],
      name: 'scroll_document',
      source: 'function_call',
    });
    const left = one('scroll_document', { direction: 'left' });
    assert.deepEqual(left.kind === 'scroll' && left.amount, { dx: -1, dy: 0, unit: 'viewport' });
    assert.deepEqual(one('scroll_at', { x: 500, y: 500, direction: 'up' }), {
      kind: 'scroll',
      at: { x: 500, y: 500, field: 'args.x/args.y' },
      amount: { dx: 0, dy: -800, unit: 'grid' },
      modifiers: [],
      name: 'scroll_at',
      source: 'function_call',
    });
    const r = one('scroll_at', { x: 500, y: 500, direction: 'right', magnitude: 300 });
    assert.deepEqual(r.kind === 'scroll' && r.amount, { dx: 300, dy: 0, unit: 'grid' });
  });

  it('wait_5_seconds, go_back, go_forward, navigate; search is unsupported', () => {
    assert.deepEqual(one('wait_5_seconds'), {
      kind: 'wait',
      seconds: 5,
      name: 'wait_5_seconds',
      source: 'function_call',
    });
    assert.equal(one('go_back').kind, 'back');
    assert.equal(one('go_forward').kind, 'forward');
    assert.deepEqual(one('navigate', { url: 'https://www.wikipedia.org' }), {
      kind: 'navigate',
      url: 'https://www.wikipedia.org',
      name: 'navigate',
      source: 'function_call',
    });
    const s = one('search');
    assert.ok(s.kind === 'unsupported');
    assert.match(s.hint, /[Nn]avigate to a URL/);
  });
});

describe('gemini: 3.5 functions', () => {
  it('the click family, mouse_down/up and move', () => {
    const kinds = ['click', 'double_click', 'triple_click', 'middle_click', 'right_click'].map((n) => {
      const s = one(n, { x: 1, y: 2 });
      return s.kind === 'click' ? [s.button, s.count] : [];
    });
    assert.deepEqual(kinds, [
      ['left', 1],
      ['left', 2],
      ['left', 3],
      ['middle', 1],
      ['right', 1],
    ]);
    assert.deepEqual(one('mouse_down', { x: 1, y: 2 }), {
      kind: 'mouse_down',
      at: { x: 1, y: 2, field: 'args.x/args.y' },
      button: 'left',
      name: 'mouse_down',
      source: 'function_call',
    });
    assert.equal(one('mouse_up', { x: 1, y: 2 }).kind, 'mouse_up');
    assert.equal(one('move', { x: 1, y: 2 }).kind, 'move');
  });

  it('type has no point; hotkey, press_key, key_down, key_up', () => {
    assert.deepEqual(one('type', { text: 'hello' }), {
      kind: 'type',
      text: 'hello',
      pressEnter: false,
      clearFirst: false,
      name: 'type',
      source: 'function_call',
    });
    const h = one('hotkey', { keys: ['Control', 'Shift', 'T'] });
    assert.deepEqual(h.kind === 'key' && h.chord, ['Control', 'Shift', 'T']);
    const cmd = one('hotkey', { keys: ['command', 'c'] });
    assert.deepEqual(cmd.kind === 'key' && cmd.chord, ['Meta', 'c']);
    const p = one('press_key', { key: 'PageDown' });
    assert.deepEqual(p.kind === 'key' && p.chord, ['PageDown']);
    const sp = one('press_key', { key: 'space' });
    assert.deepEqual(sp.kind === 'key' && sp.chord, ['Space']);
    assert.deepEqual(one('key_down', { key: 'shift' }), {
      kind: 'key_down',
      key: 'Shift',
      name: 'key_down',
      source: 'function_call',
    });
    assert.deepEqual(one('key_up', { key: 'control' }), {
      kind: 'key_up',
      key: 'Control',
      name: 'key_up',
      source: 'function_call',
    });
  });

  it('scroll, wait (1 s by default) and take_screenshot', () => {
    const s = one('scroll', { x: 10, y: 10, direction: 'down', magnitude: 500 });
    assert.deepEqual(s.kind === 'scroll' && s.amount, { dx: 0, dy: 500, unit: 'grid' });
    assert.deepEqual(one('wait'), { kind: 'wait', seconds: 1, name: 'wait', source: 'function_call' });
    assert.deepEqual(one('wait', { seconds: 3 }), {
      kind: 'wait',
      seconds: 3,
      name: 'wait',
      source: 'function_call',
    });
    assert.equal(one('take_screenshot').kind, 'screenshot');
  });
});

describe('gemini: the grid and bad input', () => {
  it('accepts 0..1000 inclusive, refuses beyond with the field named', () => {
    assert.equal(one('click', { x: 0, y: 1000 }).kind, 'click');
    const e = nativeError(
      () => steps('gemini', fc('click_at', { x: 1001, y: 5 })),
      'NATIVE_OFF_GRID',
      'args.x',
    );
    assert.match(e.problem, /1001/);
    assert.match(e.hint, /0–999/);
    nativeError(() => steps('gemini', fc('click_at', { x: 5, y: 1440 })), 'NATIVE_OFF_GRID', 'args.y');
    nativeError(() => steps('gemini', fc('click_at', { x: -1, y: 5 })), 'NATIVE_OFF_GRID', 'args.x');
    nativeError(
      () => steps('gemini', fc('drag_and_drop', { x: 1, y: 1, destination_x: 2000, destination_y: 1 })),
      'NATIVE_OFF_GRID',
      'args.destination_x',
    );
    nativeError(
      () =>
        steps('gemini', [
          { functionCall: fc('wait_5_seconds') },
          { functionCall: fc('click', { x: 5, y: 5000 }) },
        ]),
      'NATIVE_OFF_GRID',
      'parts[1].args.y',
    );
  });

  it('unknown and missing fields', () => {
    const e = nativeError(() => steps('gemini', fc('teleport_to')), 'NATIVE_UNKNOWN_ACTION', 'name');
    assert.match(e.hint, /click_at/);
    nativeError(() => steps('gemini', { args: { x: 1 }, name: 5 }), 'NATIVE_UNKNOWN_ACTION', 'name');
    nativeError(() => steps('gemini', fc('click_at', { y: 5 })), 'NATIVE_MISSING_FIELD', 'args.x');
    nativeError(() => steps('gemini', fc('click_at')), 'NATIVE_MISSING_FIELD', 'args.x');
    nativeError(
      () => steps('gemini', fc('type_text_at', { x: 1, y: 1 })),
      'NATIVE_MISSING_FIELD',
      'args.text',
    );
    nativeError(
      () => steps('gemini', fc('scroll_at', { x: 1, y: 1 })),
      'NATIVE_MISSING_FIELD',
      'args.direction',
    );
    nativeError(() => steps('gemini', fc('key_combination')), 'NATIVE_MISSING_FIELD', 'args.keys');
    nativeError(() => steps('gemini', fc('press_key')), 'NATIVE_MISSING_FIELD', 'args.key');
    nativeError(() => steps('gemini', fc('navigate')), 'NATIVE_MISSING_FIELD', 'args.url');
  });

  it('wrong types and choices', () => {
    nativeError(() => steps('gemini', fc('click_at', { x: '5', y: 5 })), 'NATIVE_BAD_FIELD', 'args.x');
    nativeError(
      () => steps('gemini', fc('scroll_at', { x: 1, y: 1, direction: 'diagonal' })),
      'NATIVE_BAD_FIELD',
      'args.direction',
    );
    nativeError(
      () => steps('gemini', fc('type_text_at', { x: 1, y: 1, text: 'a', press_enter: 'yes' })),
      'NATIVE_BAD_FIELD',
      'args.press_enter',
    );
    nativeError(() => steps('gemini', { name: 'click_at', args: [1, 2] }), 'NATIVE_BAD_FIELD', 'args');
    nativeError(
      () => steps('gemini', fc('click_at', { x: 1, y: 1, safety_decision: 'confirm' })),
      'NATIVE_BAD_FIELD',
      'args.safety_decision',
    );
  });

  it('unknown keys name args.keys or args.key', () => {
    const e = nativeError(
      () => steps('gemini', fc('key_combination', { keys: 'Control+Warp' })),
      'NATIVE_UNKNOWN_KEY',
      'args.keys',
    );
    assert.match(e.problem, /"Warp"/);
    nativeError(
      () => steps('gemini', fc('hotkey', { keys: ['Control', 'Warp'] })),
      'NATIVE_UNKNOWN_KEY',
      'args.keys[1]',
    );
    nativeError(() => steps('gemini', fc('press_key', { key: 'Warp' })), 'NATIVE_UNKNOWN_KEY', 'args.key');
  });

  it('bounds', () => {
    nativeError(() => steps('gemini', fc('wait', { seconds: 120 })), 'NATIVE_TOO_LARGE', 'args.seconds');
    nativeError(
      () => steps('gemini', fc('scroll', { x: 1, y: 1, direction: 'down', magnitude: 20_000 })),
      'NATIVE_TOO_LARGE',
      'args.magnitude',
    );
    nativeError(
      () => steps('gemini', fc('navigate', { url: 'x'.repeat(9_000) })),
      'NATIVE_TOO_LARGE',
      'args.url',
    );
  });
});
