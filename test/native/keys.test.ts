// Key names of every family → Playwright keyboard names (research note §7), and the refusals that name their field.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  asModifiers,
  chordOfList,
  chordOfPlus,
  chordOfWords,
  type Family,
  modifierOf,
  playwrightKey,
  sequenceOf,
} from '../../src/native/index.js';
import { nativeError } from './helpers.js';

const key = (family: Family, name: string) => playwrightKey(family, name, 'field');

describe('keys: the research note’s table', () => {
  const table: Array<[string, Record<Family, string[]>]> = [
    [
      'Enter',
      {
        anthropic: ['Return', 'KP_Enter'],
        openai: ['ENTER', 'enter'],
        gemini: ['return', 'enter'],
        'ui-tars': ['enter'],
        qwen: ['Return', 'enter'],
      },
    ],
    ['Tab', { anthropic: ['Tab'], openai: ['TAB'], gemini: ['tab'], 'ui-tars': ['tab'], qwen: ['tab'] }],
    [
      'Escape',
      {
        anthropic: ['Escape'],
        openai: ['ESC', 'esc'],
        gemini: ['escape'],
        'ui-tars': ['esc'],
        qwen: ['Escape'],
      },
    ],
    [
      'Backspace',
      {
        anthropic: ['BackSpace'],
        openai: ['BACKSPACE'],
        gemini: ['backspace'],
        'ui-tars': ['backspace'],
        qwen: ['BackSpace'],
      },
    ],
    [
      'Delete',
      {
        anthropic: ['Delete'],
        openai: ['DELETE'],
        gemini: ['delete'],
        'ui-tars': ['delete'],
        qwen: ['Delete'],
      },
    ],
    [
      'ArrowUp',
      {
        anthropic: ['Up'],
        openai: ['ARROWUP', 'arrowup'],
        gemini: ['up'],
        'ui-tars': ['up', 'arrowup'],
        qwen: ['Up'],
      },
    ],
    [
      'ArrowLeft',
      {
        anthropic: ['Left'],
        openai: ['ARROWLEFT'],
        gemini: ['left'],
        'ui-tars': ['arrowleft'],
        qwen: ['left'],
      },
    ],
    [
      'PageUp',
      {
        anthropic: ['Page_Up', 'Prior'],
        openai: ['PAGEUP'],
        gemini: ['pageup'],
        'ui-tars': ['pageup'],
        qwen: ['Page_Up'],
      },
    ],
    [
      'PageDown',
      {
        anthropic: ['Page_Down', 'Next'],
        openai: ['PAGEDOWN'],
        gemini: ['pagedown'],
        'ui-tars': ['pagedown', 'pgdn'],
        qwen: ['pagedown'],
      },
    ],
    [
      'Home',
      { anthropic: ['Home'], openai: ['HOME'], gemini: ['home'], 'ui-tars': ['home'], qwen: ['Home'] },
    ],
    ['End', { anthropic: ['End'], openai: ['END'], gemini: ['end'], 'ui-tars': ['end'], qwen: ['End'] }],
    [
      'Space',
      {
        anthropic: ['space'],
        openai: ['SPACE', ' '],
        gemini: ['space'],
        'ui-tars': ['space'],
        qwen: ['space'],
      },
    ],
    // Gemini's reference maps control to ControlOrMeta, which raw CDP does not have.
    [
      'Control',
      {
        anthropic: ['ctrl', 'Control_L'],
        openai: ['CTRL'],
        gemini: ['control'],
        'ui-tars': ['ctrl'],
        qwen: ['ctrl'],
      },
    ],
    [
      'Shift',
      {
        anthropic: ['shift', 'Shift_R'],
        openai: ['SHIFT'],
        gemini: ['shift'],
        'ui-tars': ['shift'],
        qwen: ['shift'],
      },
    ],
    [
      'Alt',
      {
        anthropic: ['alt', 'Alt_L'],
        openai: ['ALT', 'OPTION'],
        gemini: ['alt'],
        'ui-tars': ['alt'],
        qwen: ['alt'],
      },
    ],
    [
      'Meta',
      {
        anthropic: ['super', 'Super_L', 'cmd'],
        openai: ['CMD', 'SUPER', 'WIN'],
        gemini: ['command'],
        'ui-tars': ['cmd', 'win'],
        qwen: ['super', 'meta'],
      },
    ],
    ['F5', { anthropic: ['F5'], openai: ['F5', 'f5'], gemini: ['f5'], 'ui-tars': ['f5'], qwen: ['F5'] }],
  ];
  for (const [expected, byFamily] of table) {
    it(expected, () => {
      for (const [family, names] of Object.entries(byFamily) as Array<[Family, string[]]>) {
        for (const name of names)
          assert.equal(key(family, name), expected, `${family} ${JSON.stringify(name)}`);
      }
    });
  }

  it('single characters pass through, case kept', () => {
    for (const c of ['a', 'A', '1', '/', '+', '-', '[', '`', '~']) assert.equal(key('openai', c), c);
  });

  it('F1 to F12; keypad and punctuation keysyms; Playwright’s own names', () => {
    assert.equal(key('anthropic', 'F12'), 'F12');
    assert.equal(key('ui-tars', 'f1'), 'F1');
    assert.equal(key('anthropic', 'KP_0'), 'Numpad0');
    assert.equal(key('gemini', 'multiply'), 'NumpadMultiply');
    assert.equal(key('anthropic', 'minus'), '-');
    assert.equal(key('anthropic', 'slash'), '/');
    assert.equal(key('gemini', 'semicolon'), ';');
    assert.equal(key('gemini', 'equals'), '=');
    assert.equal(key('gemini', 'ArrowDown'), 'ArrowDown');
    assert.equal(key('gemini', 'CapsLock'), 'CapsLock');
    assert.equal(key('qwen', 'KeyA'), 'KeyA');
    assert.equal(key('openai', 'Insert'), 'Insert');
  });
});

describe('keys: chords, sequences and modifiers', () => {
  it('"+" chords, "++" and a lone "+"', () => {
    assert.deepEqual(chordOfPlus('anthropic', 'ctrl+shift+t', 'f'), ['Control', 'Shift', 't']);
    assert.deepEqual(chordOfPlus('anthropic', 'ctrl++', 'f'), ['Control', '+']);
    assert.deepEqual(chordOfPlus('anthropic', '+', 'f'), ['+']);
    assert.deepEqual(chordOfPlus('gemini', 'Control+A', 'f'), ['Control', 'A']);
  });

  it('space-separated chords (UI-TARS) and sequences (Anthropic key)', () => {
    assert.deepEqual(chordOfWords('ui-tars', 'ctrl shift  t', 'f'), ['Control', 'Shift', 't']);
    assert.deepEqual(sequenceOf('anthropic', 'Backspace Backspace Delete', 'f'), [
      ['Backspace'],
      ['Backspace'],
      ['Delete'],
    ]);
    assert.deepEqual(sequenceOf('anthropic', 'ctrl+a  BackSpace', 'f'), [['Control', 'a'], ['Backspace']]);
  });

  it('lists name their items', () => {
    assert.deepEqual(chordOfList('openai', ['CTRL', 'SHIFT', 'ESC'], 'actions[0].keys'), [
      'Control',
      'Shift',
      'Escape',
    ]);
    nativeError(
      () => chordOfList('openai', ['CTRL', 'NOPE'], 'actions[0].keys'),
      'NATIVE_UNKNOWN_KEY',
      'actions[0].keys[1]',
    );
    nativeError(
      () => chordOfList('openai', ['CTRL', null], 'actions[0].keys'),
      'NATIVE_BAD_FIELD',
      'actions[0].keys[1]',
    );
    nativeError(
      () => chordOfList('openai', 'CTRL', 'actions[0].keys'),
      'NATIVE_BAD_FIELD',
      'actions[0].keys',
    );
  });

  it('modifiers', () => {
    assert.equal(modifierOf('Control'), 'Control');
    assert.equal(modifierOf('a'), undefined);
    assert.deepEqual(asModifiers(['Shift', 'Control', 'Shift'], 'f', 'left_click'), ['Shift', 'Control']);
    nativeError(
      () => asModifiers(['Shift', 'Enter'], 'input.text', 'left_click'),
      'NATIVE_BAD_FIELD',
      'input.text',
    );
  });
});

describe('keys: refusals', () => {
  it('an unknown key quotes itself, names the field and lists the family’s names', () => {
    const e = nativeError(
      () => playwrightKey('anthropic', 'Hyper_Z', 'input.text'),
      'NATIVE_UNKNOWN_KEY',
      'input.text',
    );
    assert.match(e.problem, /"Hyper_Z"/);
    assert.match(e.hint, /Return, Tab, Escape, BackSpace/);
    const o = nativeError(
      () => playwrightKey('openai', 'FOO', 'actions[0].keys[1]'),
      'NATIVE_UNKNOWN_KEY',
      'actions[0].keys[1]',
    );
    assert.match(o.hint, /ENTER/);
    const g = nativeError(
      () => playwrightKey('gemini', 'foo', 'args.keys'),
      'NATIVE_UNKNOWN_KEY',
      'args.keys',
    );
    assert.match(g.hint, /Control/);
    const u = nativeError(() => playwrightKey('ui-tars', 'foo', "hotkey(key='…')"), 'NATIVE_UNKNOWN_KEY');
    assert.match(u.hint, /esc/);
    nativeError(
      () => playwrightKey('qwen', 'foo', 'arguments.keys[0]'),
      'NATIVE_UNKNOWN_KEY',
      'arguments.keys[0]',
    );
  });

  it('F13 to F24 exist but Playwright’s keyboard has F1 to F12 only', () => {
    const e = nativeError(
      () => playwrightKey('anthropic', 'F13', 'input.text'),
      'NATIVE_UNKNOWN_KEY',
      'input.text',
    );
    assert.match(e.problem, /F1 to F12/);
    nativeError(() => playwrightKey('openai', 'f24', 'k'), 'NATIVE_UNKNOWN_KEY');
  });

  it('a non-ASCII character is typed, not pressed', () => {
    const e = nativeError(() => playwrightKey('qwen', 'é', 'arguments.keys[0]'), 'NATIVE_UNKNOWN_KEY');
    assert.match(e.problem, /type action/);
  });

  it('empty and oversized chords', () => {
    nativeError(() => chordOfPlus('anthropic', '', 'input.text'), 'NATIVE_BAD_FIELD', 'input.text');
    nativeError(() => playwrightKey('anthropic', '', 'input.text'), 'NATIVE_BAD_FIELD', 'input.text');
    nativeError(
      () => chordOfPlus('anthropic', 'a+b+c+d+e+f+g+h+i', 'input.text'),
      'NATIVE_TOO_LARGE',
      'input.text',
    );
  });
});
