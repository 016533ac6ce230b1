// UI-TARS text: v1 start_box boxes (per mille), 1.5 <point> tags (pixels), several actions in one answer,
// quoting and escapes in type(content=…), and the mobile verbs a browser cannot do.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nativeError, only, steps } from './helpers.js';

describe('ui-tars: text forms', () => {
  it('the README example (v1): Thought, then Action', () => {
    assert.deepEqual(steps('ui-tars', "Thought: xxx\nAction: click(start_box='(197,525)')"), [
      {
        kind: 'click',
        at: { x: 197, y: 525, field: "click(start_box='…')" },
        button: 'left',
        count: 1,
        modifiers: [],
        name: 'click',
        source: 'Action 1',
      },
    ]);
  });

  it('box tokens, boxes as their centre, and text without Thought', () => {
    const at = (model: 'ui-tars' | 'ui-tars-1.5', text: string) => {
      const s = only(model, text);
      return s.kind === 'click' ? [s.at?.x, s.at?.y] : [];
    };
    assert.deepEqual(
      at('ui-tars', "Action: click(start_box='<|box_start|>(235,512)<|box_end|>')"),
      [235, 512],
    );
    assert.deepEqual(at('ui-tars', "click(start_box='(100,200,300,400)')"), [200, 300]);
    assert.deepEqual(
      at('ui-tars', "Action: click(start_box='<|box_start|>(10,20),(30,40)<|box_end|>')"),
      [20, 30],
    );
    assert.deepEqual(
      at('ui-tars-1.5', "Thought: The Save button.\nAction: click(point='<point>735 410</point>')"),
      [735, 410],
    );
    assert.deepEqual(at('ui-tars-1.5', "Action: click(start_point='<point>12.5 40</point>')"), [12.5, 40]);
    assert.deepEqual(at('ui-tars-1.5', "Action: click(point='<bbox>10 20 30 40</bbox>')"), [20, 30]);
  });

  it('Reflection and Action_Summary headers, [EOS], a fenced answer', () => {
    const text =
      "Reflection: The menu opened.\nAction_Summary: Pick the item.\nAction: left_double(start_box='(50,60)')[EOS]";
    const s = only('ui-tars', text);
    assert.equal(s.kind === 'click' && s.count, 2);
    assert.equal(only('ui-tars', "```\nAction: right_single(start_box='(5,6)')\n```").kind, 'click');
  });

  it('several actions, separated by blank lines, are a batch named Action 1, Action 2…', () => {
    const text =
      "Thought: Fill in the search box and submit.\nAction: click(point='<point>400 120</point>')\n\n" +
      "type(content='trueclick\\n')\n\nhotkey(key='ctrl a')";
    const s = steps('ui-tars-1.5', text);
    assert.deepEqual(
      s.map((x) => [x.kind, x.source]),
      [
        ['click', 'Action 1'],
        ['type', 'Action 2'],
        ['key', 'Action 3'],
      ],
    );
    const [click] = s;
    assert.equal(click?.kind === 'click' && click.at?.field, "Action 1: click(point='…')");
    // A repeated "Action:" label between calls is read too.
    assert.equal(steps('ui-tars', "Action: click(start_box='(1,1)')\n\nAction: wait()").length, 2);
  });

  it('refuses text with no action', () => {
    nativeError(() => steps('ui-tars', 'Thought: I am not sure what to do.'), 'NATIVE_NO_ACTION');
    nativeError(() => steps('ui-tars', ''), 'NATIVE_NO_ACTION');
    nativeError(() => steps('ui-tars', { action: 'click' }), 'NATIVE_NO_ACTION');
    const e = nativeError(
      () => steps('ui-tars', 'Action: I would click the button'),
      'NATIVE_BAD_FIELD',
      'Action 1',
    );
    assert.match(e.hint, /click\(start_box/);
    const many = Array.from({ length: 51 }, () => 'wait()').join('\n\n');
    nativeError(() => steps('ui-tars', `Action: ${many}`), 'NATIVE_TOO_LARGE', 'Action');
  });
});

describe('ui-tars: verbs', () => {
  it('clicks, drag and hover', () => {
    const r = only('ui-tars', "Action: right_single(start_box='(5,6)')");
    assert.equal(r.kind === 'click' && r.button, 'right');
    assert.equal(only('ui-tars', "Action: left_single(start_box='(5,6)')").kind, 'click');
    assert.deepEqual(
      only(
        'ui-tars-1.5',
        "Action: drag(start_point='<point>10 20</point>', end_point='<point>300 400</point>')",
      ),
      {
        kind: 'drag',
        from: { x: 10, y: 20, field: "drag(start_point='…')" },
        to: { x: 300, y: 400, field: "drag(end_point='…')" },
        via: [],
        modifiers: [],
        name: 'drag',
        source: 'Action 1',
      },
    );
    const v1 = only(
      'ui-tars',
      "Action: drag(start_box='<|box_start|>(1,2)<|box_end|>', end_box='<|box_start|>(3,4)<|box_end|>')",
    );
    assert.deepEqual(v1.kind === 'drag' && [v1.from?.x, v1.to.x], [1, 3]);
    assert.equal(only('ui-tars', "Action: hover(start_box='(5,6)')").kind, 'move');
  });

  it('hotkey: space separated keys, pyautogui names', () => {
    const chord = (text: string) => {
      const s = only('ui-tars', text);
      return s.kind === 'key' ? s.chord : [];
    };
    assert.deepEqual(chord("Action: hotkey(key='ctrl c')"), ['Control', 'c']);
    assert.deepEqual(chord("Action: hotkey(key='ctrl shift t')"), ['Control', 'Shift', 'T'.toLowerCase()]);
    assert.deepEqual(chord("Action: hotkey(key='enter')"), ['Enter']);
    assert.deepEqual(chord("Action: hotkey(key='arrowleft')"), ['ArrowLeft']);
    assert.deepEqual(chord("Action: hotkey(key='pagedown')"), ['PageDown']);
    assert.deepEqual(chord("Action: hotkey(key='space')"), ['Space']);
    assert.deepEqual(chord("Action: hotkey(key='cmd v')"), ['Meta', 'v']);
    assert.deepEqual(chord("Action: hotkey(hotkey='alt f4')"), ['Alt', 'F4']);
    assert.deepEqual(chord("Action: press(key='esc')"), ['Escape']);
    assert.deepEqual(only('ui-tars', "Action: keydown(key='shift')"), {
      kind: 'key_down',
      key: 'Shift',
      name: 'keydown',
      source: 'Action 1',
    });
    assert.equal(only('ui-tars', "Action: keyup(key='shift')").kind, 'key_up');
  });

  it('type: escapes, an unescaped apostrophe, and a trailing newline meaning Enter', () => {
    const typed = (text: string) => {
      const s = only('ui-tars', text);
      return s.kind === 'type' ? [s.text, s.pressEnter] : [];
    };
    assert.deepEqual(typed("Action: type(content='hello world')"), ['hello world', false]);
    assert.deepEqual(typed("Action: type(content='trueclick\\n')"), ['trueclick', true]);
    assert.deepEqual(typed("Action: type(content='line one\\nline two')"), ['line one\nline two', false]);
    assert.deepEqual(typed("Action: type(content='It\\'s \\\"quoted\\\"')"), ['It\'s "quoted"', false]);
    assert.deepEqual(typed("Action: type(content='It's done')"), ["It's done", false]);
    assert.deepEqual(typed('Action: type(content="say \'hi\'")'), ["say 'hi'", false]);
    assert.deepEqual(typed("Action: type(content='a, (b)')"), ['a, (b)', false]);
    // A missing ")" at the very end is forgiven, as the reference parser does.
    assert.deepEqual(typed("Action: type(content='abc'"), ['abc', false]);
  });

  it('scroll (5 notches, point optional), wait (5 s), finished and call_user', () => {
    assert.deepEqual(
      only('ui-tars-1.5', "Action: scroll(point='<point>500 400</point>', direction='down')"),
      {
        kind: 'scroll',
        at: { x: 500, y: 400, field: "scroll(point='…')" },
        amount: { dx: 0, dy: 5, unit: 'wheel_click' },
        modifiers: [],
        name: 'scroll',
        source: 'Action 1',
      },
    );
    const up = only('ui-tars', "Action: scroll(direction='up')");
    assert.deepEqual(up.kind === 'scroll' && [up.at, up.amount.dy], [undefined, -5]);
    assert.deepEqual(only('ui-tars', 'Action: wait()'), {
      kind: 'wait',
      seconds: 5,
      name: 'wait',
      source: 'Action 1',
    });
    assert.deepEqual(only('ui-tars-1.5', "Action: finished(content='The report is saved.')"), {
      kind: 'done',
      status: 'success',
      text: 'The report is saved.',
      name: 'finished',
      source: 'Action 1',
    });
    assert.deepEqual(only('ui-tars', 'Action: finished()'), {
      kind: 'done',
      status: 'success',
      name: 'finished',
      source: 'Action 1',
    });
    assert.deepEqual(only('ui-tars', 'Action: call_user()'), {
      kind: 'done',
      status: 'needs_user',
      name: 'call_user',
      source: 'Action 1',
    });
  });

  it('mobile verbs are unsupported', () => {
    for (const text of [
      "long_press(point='<point>1 2</point>')",
      "open_app(app_name='Chrome')",
      'press_home()',
      'press_back()',
    ]) {
      const s = only('ui-tars-1.5', `Action: ${text}`);
      assert.ok(s.kind === 'unsupported', text);
      assert.ok(s.reason.length > 0 && s.hint.length > 0);
    }
    const back = only('ui-tars-1.5', 'Action: press_back()');
    assert.match(back.kind === 'unsupported' ? back.hint : '', /alt left/);
  });
});

describe('ui-tars: the grid and bad input', () => {
  it('v1 is per mille (0..1000); 1.5 is pixels, unchecked here', () => {
    const e = nativeError(
      () => steps('ui-tars', "Action: click(start_box='(1200,300)')"),
      'NATIVE_OFF_GRID',
      "click(start_box='…')",
    );
    assert.match(e.problem, /1200/);
    const big = only('ui-tars-1.5', "Action: click(point='<point>1200 900</point>')");
    assert.deepEqual(big.kind === 'click' && [big.at?.x, big.at?.y], [1200, 900]);
    nativeError(
      () => steps('ui-tars', "Action: wait()\n\nclick(start_box='(10,1001)')"),
      'NATIVE_OFF_GRID',
      "Action 2: click(start_box='…')",
    );
  });

  it('bad points, missing arguments, unknown verbs and keys', () => {
    nativeError(
      () => steps('ui-tars', "Action: click(start_box='(1,2,3)')"),
      'NATIVE_BAD_FIELD',
      "click(start_box='…')",
    );
    nativeError(
      () => steps('ui-tars', "Action: click(start_box='the button')"),
      'NATIVE_BAD_FIELD',
      "click(start_box='…')",
    );
    // Negative: off the grid for v1, a bad pixel for 1.5.
    nativeError(
      () => steps('ui-tars', "Action: click(start_box='(-5,2)')"),
      'NATIVE_OFF_GRID',
      "click(start_box='…')",
    );
    nativeError(
      () => steps('ui-tars-1.5', "Action: click(point='<point>-5 2</point>')"),
      'NATIVE_BAD_FIELD',
      "click(point='…')",
    );
    nativeError(() => steps('ui-tars', `Action: ${'v'.repeat(5_000)}()`), 'NATIVE_BAD_FIELD', 'Action 1');
    const m = nativeError(
      () => steps('ui-tars-1.5', 'Action: click()'),
      'NATIVE_MISSING_FIELD',
      "click(point='…')",
    );
    assert.match(m.hint, /<point>/);
    nativeError(
      () => steps('ui-tars', "Action: drag(start_box='(1,2)')"),
      'NATIVE_MISSING_FIELD',
      "drag(end_box='…')",
    );
    nativeError(() => steps('ui-tars', 'Action: type()'), 'NATIVE_MISSING_FIELD', "type(content='…')");
    nativeError(
      () => steps('ui-tars', "Action: scroll(start_box='(1,2)')"),
      'NATIVE_MISSING_FIELD',
      "scroll(direction='…')",
    );
    nativeError(
      () => steps('ui-tars', "Action: scroll(direction='sideways')"),
      'NATIVE_BAD_FIELD',
      "scroll(direction='…')",
    );
    nativeError(() => steps('ui-tars', "Action: hotkey(key='')"), 'NATIVE_MISSING_FIELD', "hotkey(key='…')");
    const u = nativeError(
      () => steps('ui-tars', "Action: teleport(start_box='(1,2)')"),
      'NATIVE_UNKNOWN_ACTION',
      'teleport(…)',
    );
    assert.match(u.hint, /left_double/);
    const k = nativeError(
      () => steps('ui-tars', "Action: hotkey(key='ctrl warp')"),
      'NATIVE_UNKNOWN_KEY',
      "hotkey(key='…')",
    );
    assert.match(k.problem, /"warp"/);
    nativeError(
      () => steps('ui-tars', "Action: click(start_box='(1,2)"),
      'NATIVE_BAD_FIELD',
      'click(start_box',
    );
    nativeError(() => steps('ui-tars', "Action: click(start_box '(1,2)')"), 'NATIVE_BAD_FIELD', 'Action 1');
  });

  it('bounds', () => {
    nativeError(
      () => steps('ui-tars', `Action: type(content='${'z'.repeat(10_001)}')`),
      'NATIVE_TOO_LARGE',
      "type(content='…')",
    );
  });
});
