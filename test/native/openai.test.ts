// OpenAI computer use (Responses API): computer_call with `action` or `actions[]`, bare actions, the response
// output around it; buttons, held keys, drag paths, keypress chords, pixel scroll deltas.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batch, nativeError, only, steps } from './helpers.js';

const call = (fields: object) => ({
  type: 'computer_call',
  id: 'cu_67cc',
  call_id: 'call_zw3',
  status: 'completed',
  pending_safety_checks: [],
  ...fields,
});
const one = (action: object) => only('openai-cua', action);

describe('openai: envelopes', () => {
  it('a computer_call with an actions[] batch (the GA computer tool)', () => {
    const b = batch(
      'openai-cua',
      call({
        actions: [
          { type: 'click', button: 'left', x: 412, y: 230 },
          { type: 'type', text: 'trueclick' },
          { type: 'keypress', keys: ['ENTER'] },
        ],
      }),
    );
    assert.equal(b.family, 'openai');
    assert.deepEqual(b.steps, [
      {
        kind: 'click',
        at: { x: 412, y: 230, field: 'actions[0].x/actions[0].y' },
        button: 'left',
        count: 1,
        modifiers: [],
        name: 'click',
        source: 'actions[0]',
      },
      {
        kind: 'type',
        text: 'trueclick',
        pressEnter: false,
        clearFirst: false,
        name: 'type',
        source: 'actions[1]',
      },
      { kind: 'key', chord: ['Enter'], repeat: 1, name: 'keypress', source: 'actions[2]' },
    ]);
    assert.deepEqual(b.reply, { callId: 'call_zw3', pendingSafetyChecks: [] });
  });

  it('a computer_call with one action (computer_use_preview), and its pending safety checks', () => {
    const b = batch(
      'openai-cua',
      call({
        action: { type: 'click', button: 'right', x: 10, y: 20 },
        pending_safety_checks: [
          {
            id: 'cu_sc_1',
            code: 'malicious_instructions',
            message: 'Possible prompt injection on the page.',
          },
          { id: 'cu_sc_2', code: null, message: null },
        ],
      }),
    );
    assert.equal(b.steps[0]?.source, 'action');
    assert.deepEqual(b.reply.pendingSafetyChecks, [
      { id: 'cu_sc_1', code: 'malicious_instructions', message: 'Possible prompt injection on the page.' },
      { id: 'cu_sc_2' },
    ]);
  });

  it('the response output (other items skipped), as an array, an object or JSON text', () => {
    const output = [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Clicking.' }] },
      call({ action: { type: 'screenshot' } }),
    ];
    const fromArray = batch('openai-cua', output);
    assert.deepEqual(fromArray.steps, [{ kind: 'screenshot', name: 'screenshot', source: 'action' }]);
    assert.deepEqual(batch('openai-cua', { id: 'resp_1', object: 'response', output }), fromArray);
    assert.deepEqual(batch('openai-cua', JSON.stringify({ output })), fromArray);
  });

  it('a bare action', () => {
    const b = batch('openai-cua', { type: 'move', x: 3, y: 4 });
    assert.deepEqual(b.steps, [
      {
        kind: 'move',
        at: { x: 3, y: 4, field: 'action.x/action.y' },
        modifiers: [],
        name: 'move',
        source: 'action',
      },
    ]);
    assert.deepEqual(b.reply, {});
  });

  it('refuses what holds no action, or several computer_calls', () => {
    nativeError(() => steps('openai-cua', [{ type: 'message', content: [] }]), 'NATIVE_NO_ACTION');
    nativeError(() => steps('openai-cua', call({})), 'NATIVE_NO_ACTION');
    nativeError(() => steps('openai-cua', call({ actions: [] })), 'NATIVE_NO_ACTION');
    nativeError(() => steps('openai-cua', 'click at 5, 5'), 'NATIVE_NO_ACTION');
    nativeError(() => steps('openai-cua', { x: 1, y: 2 }), 'NATIVE_NO_ACTION');
    nativeError(
      () => steps('openai-cua', [call({ action: { type: 'wait' } }), call({ action: { type: 'wait' } })]),
      'NATIVE_BAD_FIELD',
      'output',
    );
    const many = Array.from({ length: 51 }, () => ({ type: 'wait' }));
    nativeError(() => steps('openai-cua', call({ actions: many })), 'NATIVE_TOO_LARGE', 'actions');
  });
});

describe('openai: actions', () => {
  it('click buttons: wheel is the middle button; back and forward stay buttons', () => {
    const button = (b: string) => {
      const s = one({ type: 'click', button: b, x: 1, y: 1 });
      return s.kind === 'click' ? s.button : undefined;
    };
    assert.deepEqual(['left', 'right', 'wheel', 'back', 'forward'].map(button), [
      'left',
      'right',
      'middle',
      'back',
      'forward',
    ]);
    // The button is required by the schema; a missing one is read as left.
    const plain = one({ type: 'click', x: 1, y: 1 });
    assert.equal(plain.kind === 'click' && plain.button, 'left');
  });

  it('keys held on click, double_click, move, scroll and drag', () => {
    const c = one({ type: 'click', button: 'left', x: 5, y: 6, keys: ['CTRL', 'SHIFT'] });
    assert.deepEqual(c.kind === 'click' && c.modifiers, ['Control', 'Shift']);
    assert.deepEqual(one({ type: 'double_click', x: 5, y: 6, keys: null }), {
      kind: 'click',
      at: { x: 5, y: 6, field: 'action.x/action.y' },
      button: 'left',
      count: 2,
      modifiers: [],
      name: 'double_click',
      source: 'action',
    });
    const m = one({ type: 'move', x: 5, y: 6, keys: ['CMD'] });
    assert.deepEqual(m.kind === 'move' && m.modifiers, ['Meta']);
    const s = one({ type: 'scroll', x: 5, y: 6, scroll_x: 0, scroll_y: 300, keys: ['OPTION'] });
    assert.deepEqual(s.kind === 'scroll' && s.modifiers, ['Alt']);
  });

  it('drag: the path’s first point is from, the last is to, the rest are via', () => {
    assert.deepEqual(
      one({
        type: 'drag',
        path: [
          { x: 10, y: 10 },
          { x: 20, y: 15 },
          { x: 30, y: 20 },
          { x: 40, y: 40 },
        ],
        keys: ['SHIFT'],
      }),
      {
        kind: 'drag',
        from: { x: 10, y: 10, field: 'action.path[0]' },
        to: { x: 40, y: 40, field: 'action.path[3]' },
        via: [
          { x: 20, y: 15, field: 'action.path[1]' },
          { x: 30, y: 20, field: 'action.path[2]' },
        ],
        modifiers: ['Shift'],
        name: 'drag',
        source: 'action',
      },
    );
  });

  it('keypress is one chord, in the uppercase names models write', () => {
    const chord = (keys: string[]) => {
      const s = one({ type: 'keypress', keys });
      return s.kind === 'key' ? s.chord : [];
    };
    assert.deepEqual(chord(['CTRL', 'A']), ['Control', 'A']);
    assert.deepEqual(chord(['ctrl', 'a']), ['Control', 'a']);
    assert.deepEqual(chord(['CMD', 'SHIFT', 'P']), ['Meta', 'Shift', 'P']);
    assert.deepEqual(chord(['ARROWLEFT']), ['ArrowLeft']);
    assert.deepEqual(chord(['ESC']), ['Escape']);
    assert.deepEqual(chord(['SPACE']), ['Space']);
    assert.deepEqual(chord(['OPTION', 'TAB']), ['Alt', 'Tab']);
    assert.deepEqual(chord(['PAGEDOWN']), ['PageDown']);
    assert.deepEqual(chord(['/']), ['/']);
    assert.deepEqual(chord(['CTRL+C']), ['Control', 'C']);
  });

  it('scroll carries signed pixel deltas; wait is 1 s; type and screenshot', () => {
    assert.deepEqual(one({ type: 'scroll', x: 640, y: 400, scroll_x: -120, scroll_y: 600 }), {
      kind: 'scroll',
      at: { x: 640, y: 400, field: 'action.x/action.y' },
      amount: { dx: -120, dy: 600, unit: 'image_px' },
      modifiers: [],
      name: 'scroll',
      source: 'action',
    });
    assert.deepEqual(one({ type: 'wait' }), { kind: 'wait', seconds: 1, name: 'wait', source: 'action' });
    assert.equal(one({ type: 'type', text: 'hello' }).kind, 'type');
    assert.equal(one({ type: 'screenshot' }).kind, 'screenshot');
  });
});

describe('openai: bad input names its field', () => {
  const bad = (action: object) => () => steps('openai-cua', call({ actions: [{ type: 'wait' }, action] }));

  it('unknown and missing', () => {
    const e = nativeError(bad({ type: 'teleport' }), 'NATIVE_UNKNOWN_ACTION', 'actions[1].type');
    assert.match(e.hint, /keypress/);
    nativeError(bad({ x: 1 }), 'NATIVE_MISSING_FIELD', 'actions[1].type');
    nativeError(bad({ type: 'click', button: 'left', y: 5 }), 'NATIVE_MISSING_FIELD', 'actions[1].x');
    nativeError(bad({ type: 'click', button: 'left', x: 5 }), 'NATIVE_MISSING_FIELD', 'actions[1].y');
    nativeError(bad({ type: 'click', button: 'left' }), 'NATIVE_MISSING_FIELD', 'actions[1].x');
    nativeError(bad({ type: 'keypress' }), 'NATIVE_MISSING_FIELD', 'actions[1].keys');
    nativeError(
      bad({ type: 'scroll', x: 1, y: 1, scroll_y: 5 }),
      'NATIVE_MISSING_FIELD',
      'actions[1].scroll_x',
    );
    nativeError(bad({ type: 'drag' }), 'NATIVE_MISSING_FIELD', 'actions[1].path');
    nativeError(bad({ type: 'type' }), 'NATIVE_MISSING_FIELD', 'actions[1].text');
  });

  it('wrong types, signs, arity and choices', () => {
    nativeError(bad({ type: 'click', button: 'left', x: '5', y: 5 }), 'NATIVE_BAD_FIELD', 'actions[1].x');
    nativeError(bad({ type: 'click', button: 'left', x: -5, y: 5 }), 'NATIVE_BAD_FIELD', 'actions[1].x');
    nativeError(bad({ type: 'click', button: 'thumb', x: 5, y: 5 }), 'NATIVE_BAD_FIELD', 'actions[1].button');
    nativeError(bad({ type: 'drag', path: [{ x: 1, y: 1 }] }), 'NATIVE_BAD_FIELD', 'actions[1].path');
    nativeError(
      bad({ type: 'drag', path: [{ x: 1, y: 1 }, [2, 2]] }),
      'NATIVE_BAD_FIELD',
      'actions[1].path[1]',
    );
    nativeError(
      bad({ type: 'drag', path: [{ x: 1, y: 1 }, { x: 2 }] }),
      'NATIVE_BAD_FIELD',
      'actions[1].path[1].y',
    );
    nativeError(bad({ type: 'keypress', keys: 'ctrl+c' }), 'NATIVE_BAD_FIELD', 'actions[1].keys');
    nativeError(bad({ type: 'keypress', keys: [] }), 'NATIVE_BAD_FIELD', 'actions[1].keys');
    nativeError(bad({ type: 'keypress', keys: ['CTRL', 7] }), 'NATIVE_BAD_FIELD', 'actions[1].keys[1]');
    nativeError(
      bad({ type: 'click', button: 'left', x: 1, y: 1, keys: ['A'] }),
      'NATIVE_BAD_FIELD',
      'actions[1].keys',
    );
    nativeError(() => steps('openai-cua', call({ actions: [5] })), 'NATIVE_BAD_FIELD', 'actions[0]');
    nativeError(
      () => steps('openai-cua', call({ action: { type: 'wait' }, pending_safety_checks: [{ code: 'x' }] })),
      'NATIVE_BAD_FIELD',
      'pending_safety_checks[0]',
    );
  });

  it('unknown keys name the list item', () => {
    const e = nativeError(
      bad({ type: 'keypress', keys: ['CTRL', 'HYPER_SPACE'] }),
      'NATIVE_UNKNOWN_KEY',
      'actions[1].keys[1]',
    );
    assert.match(e.problem, /"HYPER_SPACE"/);
    assert.match(e.hint, /ENTER/);
  });

  it('bounds', () => {
    nativeError(
      bad({ type: 'scroll', x: 1, y: 1, scroll_x: 0, scroll_y: 1e6 }),
      'NATIVE_TOO_LARGE',
      'actions[1].scroll_y',
    );
    nativeError(bad({ type: 'type', text: 'y'.repeat(10_001) }), 'NATIVE_TOO_LARGE', 'actions[1].text');
    const path = Array.from({ length: 1_001 }, (_, i) => ({ x: i, y: i }));
    nativeError(bad({ type: 'drag', path }), 'NATIVE_TOO_LARGE', 'actions[1].path');
    nativeError(
      bad({ type: 'keypress', keys: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I'] }),
      'NATIVE_TOO_LARGE',
      'actions[1].keys',
    );
  });
});
