// Qwen2.5-VL / Qwen3-VL computer_use: <tool_call> blocks (one or several), the call object and its chat-API
// wrappers; every action of the cookbook's schema; the 0..1000 grid for Qwen3-VL; scroll signs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batch, nativeError, only, steps } from './helpers.js';

const block = (args: object, name = 'computer_use') =>
  `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
const one = (args: object, model: 'qwen2.5-vl' | 'qwen3-vl' = 'qwen2.5-vl') => only(model, block(args));

describe('qwen: envelopes', () => {
  it('one <tool_call> block, as the research note shows it', () => {
    const text =
      '<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [640, 360]}}\n</tool_call>';
    const b = batch('qwen3-vl', text);
    assert.equal(b.family, 'qwen');
    assert.deepEqual(b.steps, [
      {
        kind: 'click',
        at: { x: 640, y: 360, field: 'arguments.coordinate' },
        button: 'left',
        count: 1,
        modifiers: [],
        name: 'left_click',
        source: 'tool_call[0]',
      },
    ]);
    assert.deepEqual(b.reply, {});
  });

  it('prose around the blocks, several blocks as a batch, a block left open', () => {
    const text =
      'I will click the search box and type.\n' +
      block({ action: 'left_click', coordinate: [100, 50] }) +
      '\n' +
      block({ action: 'type', text: 'trueclick' }) +
      '\n<tool_call>\n{"name": "computer_use", "arguments": {"action": "key", "keys": ["Return"]}}';
    const s = steps('qwen2.5-vl', text);
    assert.deepEqual(
      s.map((x) => [x.kind, x.source]),
      [
        ['click', 'tool_call[0]'],
        ['type', 'tool_call[1]'],
        ['key', 'tool_call[2]'],
      ],
    );
    const [click] = s;
    assert.equal(click?.kind === 'click' && click.at?.field, 'tool_call[0].arguments.coordinate');
  });

  it('the call object, its arguments as a JSON string, an OpenAI-style wrapper, a list, or bare arguments', () => {
    const expected = steps('qwen2.5-vl', block({ action: 'mouse_move', coordinate: [5, 6] })).map((s) => ({
      ...s,
      source: 'tool_call',
    }));
    const obj = { name: 'computer_use', arguments: { action: 'mouse_move', coordinate: [5, 6] } };
    assert.deepEqual(steps('qwen2.5-vl', obj), expected);
    assert.deepEqual(steps('qwen2.5-vl', JSON.stringify(obj)), expected);
    assert.deepEqual(
      steps('qwen2.5-vl', { name: 'computer_use', arguments: JSON.stringify(obj.arguments) }),
      expected,
    );
    assert.deepEqual(
      steps('qwen2.5-vl', {
        id: 'chatcmpl-tool-1',
        type: 'function',
        function: { name: 'computer_use', arguments: JSON.stringify(obj.arguments) },
      }),
      expected,
    );
    assert.deepEqual(steps('qwen2.5-vl', { action: 'mouse_move', coordinate: [5, 6] }), expected);
    assert.deepEqual(
      steps('qwen2.5-vl', [obj, obj]).map((s) => s.source),
      ['tool_call[0]', 'tool_call[1]'],
    );
  });

  it('mobile_use calls are unsupported: this is a browser', () => {
    const s = only(
      'qwen3-vl',
      '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [447, 81]}}\n</tool_call>',
    );
    assert.ok(s.kind === 'unsupported');
    assert.equal(s.name, 'click');
    assert.match(s.hint, /computer_use/);
  });

  it('refuses what holds no call, and other functions', () => {
    nativeError(() => steps('qwen2.5-vl', 'I clicked the button.'), 'NATIVE_NO_ACTION');
    nativeError(() => steps('qwen2.5-vl', 12), 'NATIVE_NO_ACTION');
    nativeError(
      () => steps('qwen2.5-vl', '<tool_call>\n{"name": "computer_use", "arguments": {\n</tool_call>'),
      'NATIVE_BAD_FIELD',
      'tool_call[0]',
    );
    const e = nativeError(
      () => steps('qwen2.5-vl', block({ query: 'x' }, 'web_search')),
      'NATIVE_UNKNOWN_ACTION',
      'name',
    );
    assert.match(e.problem, /"web_search"/);
    nativeError(() => steps('qwen2.5-vl', { name: 'computer_use' }), 'NATIVE_MISSING_FIELD', 'arguments');
    nativeError(
      () => steps('qwen2.5-vl', { name: 'computer_use', arguments: 'left_click' }),
      'NATIVE_BAD_FIELD',
      'arguments',
    );
    nativeError(() => steps('qwen2.5-vl', [1]), 'NATIVE_BAD_FIELD', 'tool_call[0]');
    const many = Array.from({ length: 51 }, () => block({ action: 'wait', time: 1 })).join('\n');
    nativeError(() => steps('qwen2.5-vl', many), 'NATIVE_TOO_LARGE', 'tool_call');
  });
});

describe('qwen: actions', () => {
  it('clicks at a coordinate or at the cursor', () => {
    const kinds = ['left_click', 'right_click', 'middle_click', 'double_click', 'triple_click'].map(
      (action) => {
        const s = one({ action, coordinate: [1, 2] });
        return s.kind === 'click' ? [s.button, s.count] : [];
      },
    );
    assert.deepEqual(kinds, [
      ['left', 1],
      ['right', 1],
      ['middle', 1],
      ['left', 2],
      ['left', 3],
    ]);
    const here = one({ action: 'left_click' });
    assert.ok(here.kind === 'click' && here.at === undefined);
  });

  it('mouse_move, and left_click_drag from the cursor', () => {
    assert.equal(one({ action: 'mouse_move', coordinate: [3, 4] }).kind, 'move');
    assert.deepEqual(one({ action: 'left_click_drag', coordinate: [300, 400] }), {
      kind: 'drag',
      to: { x: 300, y: 400, field: 'arguments.coordinate' },
      via: [],
      modifiers: [],
      name: 'left_click_drag',
      source: 'tool_call[0]',
    });
  });

  it('key is one chord (pressed in order, released in reverse)', () => {
    const chord = (keys: unknown) => {
      const s = one({ action: 'key', keys });
      return s.kind === 'key' ? s.chord : [];
    };
    assert.deepEqual(chord(['ctrl', 'c']), ['Control', 'c']);
    assert.deepEqual(chord(['Return']), ['Enter']);
    assert.deepEqual(chord(['enter']), ['Enter']);
    assert.deepEqual(chord(['BackSpace']), ['Backspace']);
    assert.deepEqual(chord(['super']), ['Meta']);
    assert.deepEqual(chord(['alt', 'F4']), ['Alt', 'F4']);
    assert.deepEqual(chord(['Control', 'ArrowUp']), ['Control', 'ArrowUp']);
    assert.deepEqual(chord('ctrl+shift+t'), ['Control', 'Shift', 't']);
  });

  it('scroll: positive pixels scroll up; hscroll: positive pixels scroll right', () => {
    assert.deepEqual(one({ action: 'scroll', pixels: 300 }), {
      kind: 'scroll',
      amount: { dx: 0, dy: -300, unit: 'image_px' },
      modifiers: [],
      name: 'scroll',
      source: 'tool_call[0]',
    });
    const down = one({ action: 'scroll', pixels: -500, coordinate: [640, 360] });
    assert.deepEqual(down.kind === 'scroll' && [down.amount.dy, down.at?.x], [500, 640]);
    const right = one({ action: 'hscroll', pixels: 200 });
    assert.deepEqual(right.kind === 'scroll' && right.amount, { dx: 200, dy: 0, unit: 'image_px' });
    const zero = one({ action: 'scroll', pixels: 0 });
    assert.ok(zero.kind === 'scroll' && Object.is(zero.amount.dy, 0));
  });

  it('type, wait, terminate and answer', () => {
    assert.deepEqual(one({ action: 'type', text: '英雄联盟' }), {
      kind: 'type',
      text: '英雄联盟',
      pressEnter: false,
      clearFirst: false,
      name: 'type',
      source: 'tool_call[0]',
    });
    assert.deepEqual(one({ action: 'wait', time: 2 }), {
      kind: 'wait',
      seconds: 2,
      name: 'wait',
      source: 'tool_call[0]',
    });
    assert.deepEqual(one({ action: 'terminate', status: 'success' }), {
      kind: 'done',
      status: 'success',
      name: 'terminate',
      source: 'tool_call[0]',
    });
    const failed = one({ action: 'terminate', status: 'failure' });
    assert.equal(failed.kind === 'done' && failed.status, 'failure');
    assert.deepEqual(one({ action: 'answer', text: '42 results' }), {
      kind: 'done',
      text: '42 results',
      name: 'answer',
      source: 'tool_call[0]',
    });
  });
});

describe('qwen: the grid and bad input', () => {
  it('Qwen3-VL is on the 0..1000 grid; Qwen2.5-VL pixels are unchecked here', () => {
    assert.equal(one({ action: 'left_click', coordinate: [999, 1000] }, 'qwen3-vl').kind, 'click');
    nativeError(
      () => steps('qwen3-vl', block({ action: 'left_click', coordinate: [1280, 720] })),
      'NATIVE_OFF_GRID',
      'arguments.coordinate[0]',
    );
    const px = one({ action: 'left_click', coordinate: [1280, 720] }, 'qwen2.5-vl');
    assert.deepEqual(px.kind === 'click' && [px.at?.x, px.at?.y], [1280, 720]);
  });

  it('names the field of each mistake', () => {
    const bad = (args: object) => () => steps('qwen2.5-vl', block(args));
    const e = nativeError(bad({ action: 'swipe' }), 'NATIVE_UNKNOWN_ACTION', 'arguments.action');
    assert.match(e.hint, /left_click_drag/);
    nativeError(bad({ coordinate: [1, 2] }), 'NATIVE_MISSING_FIELD', 'arguments.action');
    nativeError(bad({ action: 'mouse_move' }), 'NATIVE_MISSING_FIELD', 'arguments.coordinate');
    nativeError(bad({ action: 'left_click_drag' }), 'NATIVE_MISSING_FIELD', 'arguments.coordinate');
    nativeError(bad({ action: 'key' }), 'NATIVE_MISSING_FIELD', 'arguments.keys');
    nativeError(bad({ action: 'scroll' }), 'NATIVE_MISSING_FIELD', 'arguments.pixels');
    nativeError(bad({ action: 'wait' }), 'NATIVE_MISSING_FIELD', 'arguments.time');
    nativeError(bad({ action: 'terminate' }), 'NATIVE_MISSING_FIELD', 'arguments.status');
    nativeError(bad({ action: 'terminate', status: 'done' }), 'NATIVE_BAD_FIELD', 'arguments.status');
    nativeError(bad({ action: 'left_click', coordinate: [1] }), 'NATIVE_BAD_FIELD', 'arguments.coordinate');
    nativeError(bad({ action: 'scroll', pixels: '5' }), 'NATIVE_BAD_FIELD', 'arguments.pixels');
    const k = nativeError(
      bad({ action: 'key', keys: ['ctrl', 'Hyper_L'] }),
      'NATIVE_UNKNOWN_KEY',
      'arguments.keys[1]',
    );
    assert.match(k.problem, /"Hyper_L"/);
    nativeError(
      () => steps('qwen2.5-vl', `${block({ action: 'wait', time: 1 })}${block({ action: 'mouse_move' })}`),
      'NATIVE_MISSING_FIELD',
      'tool_call[1].arguments.coordinate',
    );
  });

  it('bounds', () => {
    const bad = (args: object) => () => steps('qwen2.5-vl', block(args));
    nativeError(bad({ action: 'wait', time: 300 }), 'NATIVE_TOO_LARGE', 'arguments.time');
    nativeError(bad({ action: 'scroll', pixels: -1e7 }), 'NATIVE_TOO_LARGE', 'arguments.pixels');
    nativeError(bad({ action: 'type', text: 'q'.repeat(10_001) }), 'NATIVE_TOO_LARGE', 'arguments.text');
  });
});
