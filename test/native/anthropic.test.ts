// Anthropic: the single computer tool (computer_20241022 … 20251124), the computer and browser toolsets
// (20260801), and their envelopes. Shapes follow the SDK types and the research note's examples.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batch, nativeError, only, steps } from './helpers.js';

const use = (input: object, id = 'toolu_01A09q90qw90lq917835lq9') => ({
  type: 'tool_use',
  id,
  name: 'computer',
  input,
});
const member = (name: string, input: object, toolset = 'computer', id = `toolu_${name}`) => ({
  type: 'tool_use',
  id,
  name,
  toolset_name: toolset,
  input,
});

describe('anthropic: envelopes', () => {
  it('one tool_use block of the single tool, with its id in the reply', () => {
    const b = batch('claude', use({ action: 'left_click', coordinate: [512, 384], text: 'shift' }));
    assert.equal(b.family, 'anthropic');
    assert.deepEqual(b.steps, [
      {
        kind: 'click',
        at: { x: 512, y: 384, field: 'input.coordinate' },
        button: 'left',
        count: 1,
        modifiers: ['Shift'],
        name: 'left_click',
        source: 'input',
      },
    ]);
    assert.deepEqual(b.reply, { toolUseIds: [{ id: 'toolu_01A09q90qw90lq917835lq9', step: 0 }] });
  });

  it('the bare input', () => {
    const b = batch('anthropic-quickstart', { action: 'left_click', coordinate: [10, 20] });
    assert.equal(b.model, 'anthropic-quickstart');
    assert.deepEqual(b.reply, {});
    assert.deepEqual(b.steps[0]?.source, 'input');
  });

  it('a JSON string, fenced or not', () => {
    const json = JSON.stringify(use({ action: 'screenshot' }));
    assert.deepEqual(steps('claude', json), [{ kind: 'screenshot', name: 'screenshot', source: 'input' }]);
    assert.deepEqual(steps('claude', `\`\`\`json\n${json}\n\`\`\``), steps('claude', json));
  });

  it('a toolset turn: several member blocks are a batch, text blocks are skipped', () => {
    const content = [
      { type: 'thinking', thinking: 'The search box is at the top.', signature: 'sig' },
      { type: 'text', text: 'I will search.' },
      member('left_click', { coordinate: [512, 384] }, 'computer', 'toolu_01C'),
      member('type', { text: 'hello' }, 'computer', 'toolu_01D'),
      member('key', { text: 'Return' }, 'computer', 'toolu_01E'),
    ];
    const b = batch('claude', content);
    assert.deepEqual(
      b.steps.map((s) => [s.kind, s.source]),
      [
        ['click', 'content[2]'],
        ['type', 'content[3]'],
        ['key', 'content[4]'],
      ],
    );
    const [click] = b.steps;
    assert.equal(click?.kind === 'click' && click.at?.field, 'content[2].input.coordinate');
    assert.deepEqual(b.reply.toolUseIds, [
      { id: 'toolu_01C', step: 0 },
      { id: 'toolu_01D', step: 1 },
      { id: 'toolu_01E', step: 2 },
    ]);
  });

  it('the assistant message, as the API returns it', () => {
    const message = {
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5',
      stop_reason: 'tool_use',
      content: [{ type: 'text', text: 'Clicking.' }, use({ action: 'double_click', coordinate: [5, 6] })],
    };
    const s = only('claude', JSON.stringify(message));
    assert.equal(s.kind, 'click');
    assert.equal(s.source, 'content[1]');
    // One tool_use in the turn: fields keep the plain input.* names.
    assert.equal(s.kind === 'click' && s.at?.field, 'input.coordinate');
    assert.equal(s.kind === 'click' && s.count, 2);
  });

  it('refuses what holds no action', () => {
    nativeError(() => steps('claude', [{ type: 'text', text: 'Done.' }]), 'NATIVE_NO_ACTION');
    nativeError(() => steps('claude', { role: 'assistant', content: 'Done.' }), 'NATIVE_NO_ACTION');
    nativeError(() => steps('claude', 42), 'NATIVE_NO_ACTION');
    const e = nativeError(() => steps('claude', 'left_click at 5, 6'), 'NATIVE_NO_ACTION');
    assert.match(e.hint, /tool_use/);
    nativeError(() => steps('claude', [5]), 'NATIVE_BAD_FIELD', 'content[0]');
  });

  it('refuses other tools and toolsets', () => {
    const e = nativeError(
      () => steps('claude', [{ type: 'tool_use', id: 't', name: 'bash', input: { command: 'ls' } }]),
      'NATIVE_UNKNOWN_ACTION',
      'name',
    );
    assert.match(e.problem, /"bash"/);
    nativeError(
      () => steps('claude', member('view', {}, 'text_editor')),
      'NATIVE_UNKNOWN_ACTION',
      'toolset_name',
    );
  });

  it('refuses more than 50 tool_use blocks', () => {
    const many = Array.from({ length: 51 }, (_, i) => member('screenshot', {}, 'computer', `t${i}`));
    nativeError(() => steps('claude', many), 'NATIVE_TOO_LARGE', 'content');
  });
});

describe('anthropic: computer actions', () => {
  const one = (input: object) => only('claude', use(input));

  it('clicks, with and without a coordinate, holding text or key modifiers', () => {
    assert.deepEqual(one({ action: 'right_click', coordinate: [1, 2] }), {
      kind: 'click',
      at: { x: 1, y: 2, field: 'input.coordinate' },
      button: 'right',
      count: 1,
      modifiers: [],
      name: 'right_click',
      source: 'input',
    });
    // No coordinate: at the cursor.
    assert.deepEqual(one({ action: 'middle_click' }), {
      kind: 'click',
      button: 'middle',
      count: 1,
      modifiers: [],
      name: 'middle_click',
      source: 'input',
    });
    const triple = one({ action: 'triple_click', coordinate: [3, 4], text: 'ctrl+shift' });
    assert.equal(triple.kind === 'click' && triple.count, 3);
    assert.deepEqual(triple.kind === 'click' && triple.modifiers, ['Control', 'Shift']);
    // The quickstart's 20250124 clicks read the held key from `key`.
    const quick = one({ action: 'left_click', coordinate: [3, 4], key: 'alt' });
    assert.deepEqual(quick.kind === 'click' && quick.modifiers, ['Alt']);
    const superClick = one({ action: 'left_click', coordinate: [3, 4], text: 'super' });
    assert.deepEqual(superClick.kind === 'click' && superClick.modifiers, ['Meta']);
  });

  it('mouse_move, drags and the raw button', () => {
    assert.deepEqual(one({ action: 'mouse_move', coordinate: [7, 8] }), {
      kind: 'move',
      at: { x: 7, y: 8, field: 'input.coordinate' },
      modifiers: [],
      name: 'mouse_move',
      source: 'input',
    });
    assert.deepEqual(one({ action: 'left_click_drag', start_coordinate: [1, 2], coordinate: [30, 40] }), {
      kind: 'drag',
      from: { x: 1, y: 2, field: 'input.start_coordinate' },
      to: { x: 30, y: 40, field: 'input.coordinate' },
      via: [],
      modifiers: [],
      name: 'left_click_drag',
      source: 'input',
    });
    // computer_20241022: no start_coordinate, the drag starts at the cursor.
    const old = one({ action: 'left_click_drag', coordinate: [30, 40] });
    assert.ok(old.kind === 'drag' && old.from === undefined);
    assert.deepEqual(one({ action: 'left_mouse_down' }), {
      kind: 'mouse_down',
      button: 'left',
      name: 'left_mouse_down',
      source: 'input',
    });
    const up = one({ action: 'left_mouse_up', coordinate: [9, 9] });
    assert.equal(up.kind, 'mouse_up');
  });

  it('scroll in wheel notches, at a point or the cursor, holding modifiers', () => {
    assert.deepEqual(
      one({ action: 'scroll', coordinate: [640, 400], scroll_direction: 'down', scroll_amount: 3 }),
      {
        kind: 'scroll',
        at: { x: 640, y: 400, field: 'input.coordinate' },
        amount: { dx: 0, dy: 3, unit: 'wheel_click' },
        modifiers: [],
        name: 'scroll',
        source: 'input',
      },
    );
    const left = one({ action: 'scroll', scroll_direction: 'left', scroll_amount: 2, text: 'shift' });
    assert.ok(left.kind === 'scroll' && left.at === undefined);
    assert.deepEqual(left.kind === 'scroll' && left.amount, { dx: -2, dy: 0, unit: 'wheel_click' });
    assert.deepEqual(left.kind === 'scroll' && left.modifiers, ['Shift']);
    const up = one({ action: 'scroll', scroll_direction: 'Up', scroll_amount: 0 });
    assert.deepEqual(up.kind === 'scroll' && up.amount, { dx: 0, dy: 0, unit: 'wheel_click' });
  });

  it('keys: X keysyms, chords, sequences and repeat', () => {
    assert.deepEqual(one({ action: 'key', text: 'ctrl+s' }), {
      kind: 'key',
      chord: ['Control', 's'],
      repeat: 1,
      name: 'key',
      source: 'input',
    });
    const chord = (text: string) => {
      const s = one({ action: 'key', text });
      return s.kind === 'key' ? s.chord : [];
    };
    assert.deepEqual(chord('alt+Tab'), ['Alt', 'Tab']);
    assert.deepEqual(chord('ctrl+shift+Escape'), ['Control', 'Shift', 'Escape']);
    assert.deepEqual(chord('Return'), ['Enter']);
    assert.deepEqual(chord('KP_Enter'), ['Enter']);
    assert.deepEqual(chord('BackSpace'), ['Backspace']);
    assert.deepEqual(chord('Page_Down'), ['PageDown']);
    assert.deepEqual(chord('super+l'), ['Meta', 'l']);
    assert.deepEqual(chord('ctrl+plus'), ['Control', '+']);
    assert.deepEqual(chord('ctrl++'), ['Control', '+']);
    assert.deepEqual(chord('ctrl + s'), ['Control', 's']);
    // xdotool key presses space-separated keys one after another.
    assert.deepEqual(
      steps('claude', use({ action: 'key', text: 'ctrl+a Delete' })).map((s) => s.kind === 'key' && s.chord),
      [['Control', 'a'], ['Delete']],
    );
    const repeated = only('claude', member('key', { text: 'Down', repeat: 5 }));
    assert.deepEqual(repeated.kind === 'key' && [repeated.chord, repeated.repeat], [['ArrowDown'], 5]);
    assert.equal(repeated.source, 'input');
  });

  it('hold_key, type, wait, cursor_position, screenshot and zoom', () => {
    assert.deepEqual(one({ action: 'hold_key', text: 'shift', duration: 2 }), {
      kind: 'hold_key',
      chord: ['Shift'],
      seconds: 2,
      name: 'hold_key',
      source: 'input',
    });
    assert.deepEqual(one({ action: 'type', text: 'Hello, world!\n' }), {
      kind: 'type',
      text: 'Hello, world!\n',
      pressEnter: false,
      clearFirst: false,
      name: 'type',
      source: 'input',
    });
    assert.deepEqual(one({ action: 'wait', duration: 1.5 }), {
      kind: 'wait',
      seconds: 1.5,
      name: 'wait',
      source: 'input',
    });
    assert.equal(one({ action: 'cursor_position' }).kind, 'cursor_position');
    assert.equal(one({ action: 'screenshot' }).kind, 'screenshot');
    assert.deepEqual(one({ action: 'zoom', region: [100, 50, 400, 250] }), {
      kind: 'zoom',
      from: { x: 100, y: 50, field: 'input.region' },
      to: { x: 400, y: 250, field: 'input.region' },
      name: 'zoom',
      source: 'input',
    });
  });

  it('toolset members read like the single tool, named by the block', () => {
    const s = only('claude', member('left_click_drag', { start_coordinate: [1, 2], coordinate: [3, 4] }));
    assert.equal(s.kind, 'drag');
    assert.equal(s.name, 'left_click_drag');
    assert.equal(only('claude', member('cursor_position', {})).kind, 'cursor_position');
  });

  it('pixel coordinates are not range-checked here (the image is)', () => {
    const s = one({ action: 'left_click', coordinate: [5000, 3000] });
    assert.deepEqual(s.kind === 'click' && s.at, { x: 5000, y: 3000, field: 'input.coordinate' });
  });
});

describe('anthropic: bad input names its field', () => {
  const bad = (input: object) => () => steps('claude', use(input));

  it('unknown or missing action', () => {
    const e = nativeError(bad({ action: 'teleport' }), 'NATIVE_UNKNOWN_ACTION', 'input.action');
    assert.match(e.hint, /left_click/);
    nativeError(bad({ coordinate: [1, 2] }), 'NATIVE_MISSING_FIELD', 'input.action');
    nativeError(() => steps('claude', member('teleport', {})), 'NATIVE_UNKNOWN_ACTION', 'name');
  });

  it('missing fields', () => {
    const e = nativeError(bad({ action: 'mouse_move' }), 'NATIVE_MISSING_FIELD', 'input.coordinate');
    assert.equal(e.problem, 'mouse_move needs input.coordinate [x, y].');
    nativeError(
      bad({ action: 'left_click_drag', start_coordinate: [1, 2] }),
      'NATIVE_MISSING_FIELD',
      'input.coordinate',
    );
    nativeError(
      bad({ action: 'scroll', scroll_amount: 3 }),
      'NATIVE_MISSING_FIELD',
      'input.scroll_direction',
    );
    nativeError(
      bad({ action: 'scroll', scroll_direction: 'up' }),
      'NATIVE_MISSING_FIELD',
      'input.scroll_amount',
    );
    nativeError(bad({ action: 'key' }), 'NATIVE_MISSING_FIELD', 'input.text');
    nativeError(bad({ action: 'type' }), 'NATIVE_MISSING_FIELD', 'input.text');
    nativeError(bad({ action: 'wait' }), 'NATIVE_MISSING_FIELD', 'input.duration');
    nativeError(bad({ action: 'hold_key', text: 'a' }), 'NATIVE_MISSING_FIELD', 'input.duration');
    nativeError(bad({ action: 'zoom' }), 'NATIVE_MISSING_FIELD', 'input.region');
  });

  it('wrong types, arity, signs and choices', () => {
    nativeError(bad({ action: 'left_click', coordinate: [1, 2, 3] }), 'NATIVE_BAD_FIELD', 'input.coordinate');
    nativeError(bad({ action: 'left_click', coordinate: '512,384' }), 'NATIVE_BAD_FIELD', 'input.coordinate');
    nativeError(
      bad({ action: 'left_click', coordinate: [-1, 2] }),
      'NATIVE_BAD_FIELD',
      'input.coordinate[0]',
    );
    nativeError(
      bad({ action: 'left_click', coordinate: [1, '2'] }),
      'NATIVE_BAD_FIELD',
      'input.coordinate[1]',
    );
    nativeError(
      bad({ action: 'left_click', coordinate: [Number.NaN, 2] }),
      'NATIVE_BAD_FIELD',
      'input.coordinate[0]',
    );
    nativeError(
      bad({ action: 'left_click', coordinate: [Number.POSITIVE_INFINITY, 2] }),
      'NATIVE_BAD_FIELD',
      'input.coordinate[0]',
    );
    nativeError(
      bad({ action: 'scroll', scroll_direction: 'sideways', scroll_amount: 1 }),
      'NATIVE_BAD_FIELD',
      'input.scroll_direction',
    );
    nativeError(
      bad({ action: 'scroll', scroll_direction: 'up', scroll_amount: -1 }),
      'NATIVE_BAD_FIELD',
      'input.scroll_amount',
    );
    nativeError(bad({ action: 'zoom', region: [400, 50, 100, 250] }), 'NATIVE_BAD_FIELD', 'input.region');
    nativeError(bad({ action: 'zoom', region: [1, 2, 3] }), 'NATIVE_BAD_FIELD', 'input.region');
    nativeError(bad({ action: 'type', text: 5 }), 'NATIVE_BAD_FIELD', 'input.text');
    nativeError(bad({ action: 'wait', duration: -1 }), 'NATIVE_BAD_FIELD', 'input.duration');
    nativeError(bad({ action: 'key', text: 'Down', repeat: 0 }), 'NATIVE_BAD_FIELD', 'input.repeat');
    nativeError(bad({ action: 'key', text: 'Down', repeat: 1.5 }), 'NATIVE_BAD_FIELD', 'input.repeat');
    nativeError(
      () => steps('claude', { type: 'tool_use', id: 't', name: 'computer', input: 5 }),
      'NATIVE_BAD_FIELD',
      'input',
    );
  });

  it('a click can hold modifiers only; hold_key holds one chord', () => {
    const e = nativeError(
      bad({ action: 'left_click', coordinate: [1, 2], text: 'a' }),
      'NATIVE_BAD_FIELD',
      'input.text',
    );
    assert.match(e.problem, /not a modifier/);
    nativeError(bad({ action: 'hold_key', text: 'a b', duration: 1 }), 'NATIVE_BAD_FIELD', 'input.text');
  });

  it('unknown keys quote the key and name the field', () => {
    const e = nativeError(
      bad({ action: 'key', text: 'ctrl+Hyperdrive' }),
      'NATIVE_UNKNOWN_KEY',
      'input.text',
    );
    assert.match(e.problem, /"Hyperdrive"/);
    assert.match(e.hint, /Return/);
  });

  it('bounds', () => {
    nativeError(bad({ action: 'wait', duration: 61 }), 'NATIVE_TOO_LARGE', 'input.duration');
    nativeError(bad({ action: 'hold_key', text: 'a', duration: 600 }), 'NATIVE_TOO_LARGE', 'input.duration');
    nativeError(bad({ action: 'type', text: 'x'.repeat(10_001) }), 'NATIVE_TOO_LARGE', 'input.text');
    nativeError(
      bad({ action: 'scroll', scroll_direction: 'up', scroll_amount: 101 }),
      'NATIVE_TOO_LARGE',
      'input.scroll_amount',
    );
    nativeError(
      () => steps('claude', member('key', { text: 'a', repeat: 101 })),
      'NATIVE_TOO_LARGE',
      'input.repeat',
    );
    nativeError(
      bad({ action: 'key', text: Array(51).fill('Tab').join(' ') }),
      'NATIVE_TOO_LARGE',
      'input.text',
    );
    nativeError(
      () => steps('claude', member('key', { text: 'a b', repeat: 26 })),
      'NATIVE_TOO_LARGE',
      'input.repeat',
    );
    // A huge text is not echoed back.
    const e = nativeError(bad({ action: 'type', text: 'x'.repeat(50_000) }), 'NATIVE_TOO_LARGE');
    assert.ok(!e.message.includes('xxxxxxxxxx'));
  });
});
