// Key names as each family writes them → Playwright `keyboard` names (research note §7). The vocabularies
// overlap without conflict (no name means two different keys across families), so one table serves all five:
// a model that writes another family's spelling ('arrowleft' to Claude, 'Page_Down' to Qwen) is understood.
// Lookup ignores case, '_', '-' and spaces: Page_Up, pageup and PAGEUP are one name.
// Deliberate departures from the reference executors: Gemini's 'control' is Control, not ControlOrMeta
// (raw CDP has no such key), and '/' stays '/', not the numpad's Divide (OpenAI's sample app).

import { show } from '../geometry/index.js';
import { NativeActionError } from './errors.js';
import { NATIVE_LIMITS } from './limits.js';
import { badField, tooLarge } from './read.js';
import type { Family, FieldPath, Modifier } from './types.js';

const ALIASES: Readonly<Record<string, readonly string[]>> = {
  Enter: ['enter', 'return', 'kpenter', 'kpreturn'],
  Tab: ['tab'],
  Escape: ['escape', 'esc'],
  Backspace: ['backspace', 'bksp'],
  Delete: ['delete', 'del', 'kpdelete'],
  Insert: ['insert', 'ins', 'kpinsert'],
  Home: ['home', 'kphome'],
  End: ['end', 'kpend'],
  PageUp: ['pageup', 'pgup', 'prior', 'kppageup', 'kpprior'],
  PageDown: ['pagedown', 'pgdn', 'next', 'kppagedown', 'kpnext'],
  ArrowUp: ['up', 'arrowup', 'kpup'],
  ArrowDown: ['down', 'arrowdown', 'kpdown'],
  ArrowLeft: ['left', 'arrowleft', 'kpleft'],
  ArrowRight: ['right', 'arrowright', 'kpright'],
  Space: ['space', 'spacebar', 'kpspace'],
  Control: [
    'ctrl',
    'control',
    'controll',
    'controlr',
    'ctrll',
    'ctrlr',
    'ctrlleft',
    'ctrlright',
    'controlleft',
    'controlright',
  ],
  Shift: ['shift', 'shiftl', 'shiftr', 'shiftleft', 'shiftright'],
  Alt: ['alt', 'altl', 'altr', 'altleft', 'altright', 'option', 'opt', 'optionleft', 'optionright'],
  Meta: [
    'meta',
    'metal',
    'metar',
    'super',
    'superl',
    'superr',
    'cmd',
    'command',
    'win',
    'windows',
    'winleft',
    'winright',
    'cmdleft',
    'cmdright',
  ],
  CapsLock: ['capslock', 'caps'],
  NumLock: ['numlock'],
  ScrollLock: ['scrolllock'],
  Pause: ['pause'],
  PrintScreen: ['printscreen', 'print', 'prtsc', 'prtscr', 'prntscrn'],
  ContextMenu: ['contextmenu', 'menu', 'apps'],
  NumpadAdd: ['kpadd', 'add'],
  NumpadSubtract: ['kpsubtract', 'subtract'],
  NumpadMultiply: ['kpmultiply', 'multiply'],
  NumpadDivide: ['kpdivide', 'divide'],
  NumpadDecimal: ['kpdecimal', 'decimal'],
  AudioVolumeMute: ['volumemute', 'audiovolumemute'],
  AudioVolumeDown: ['volumedown', 'audiovolumedown'],
  AudioVolumeUp: ['volumeup', 'audiovolumeup'],
  MediaPlayPause: ['playpause', 'mediaplaypause'],
  MediaTrackNext: ['nexttrack', 'mediatracknext'],
  MediaTrackPrevious: ['prevtrack', 'mediatrackprevious'],
  // X keysym names of printable characters (xdotool key plus, ctrl+minus), and Gemini's 'semicolon'/'equals'.
  '+': ['plus'],
  '-': ['minus'],
  '=': ['equal', 'equals'],
  ',': ['comma'],
  '.': ['period'],
  '/': ['slash'],
  '\\': ['backslash'],
  ';': ['semicolon'],
  ':': ['colon'],
  "'": ['apostrophe', 'quoteright'],
  '"': ['quotedbl'],
  '`': ['grave', 'quoteleft', 'backquote'],
  '[': ['bracketleft'],
  ']': ['bracketright'],
  '{': ['braceleft'],
  '}': ['braceright'],
  '(': ['parenleft'],
  ')': ['parenright'],
  '<': ['less'],
  '>': ['greater'],
  '?': ['question'],
  '!': ['exclam'],
  '@': ['at'],
  '#': ['numbersign'],
  $: ['dollar'],
  '%': ['percent'],
  '^': ['asciicircum'],
  '&': ['ampersand'],
  '*': ['asterisk'],
  _: ['underscore'],
  '|': ['bar'],
  '~': ['asciitilde'],
};

function normal(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, '');
}

const TABLE: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  for (const [key, names] of Object.entries(ALIASES)) for (const n of names) m.set(n, key);
  for (let i = 1; i <= 12; i++) m.set(`f${i}`, `F${i}`);
  for (let i = 0; i <= 9; i++) {
    m.set(`kp${i}`, `Numpad${i}`);
    m.set(`num${i}`, `Numpad${i}`);
    m.set(`numpad${i}`, `Numpad${i}`);
    m.set(`digit${i}`, `Digit${i}`);
  }
  for (const c of 'abcdefghijklmnopqrstuvwxyz') m.set(`key${c}`, `Key${c.toUpperCase()}`);
  // Playwright's own names (written by Gemini 3.5 and Fara-style prompts) map to themselves.
  for (const key of Object.keys(ALIASES)) if (key.length > 1) m.set(normal(key), key);
  return m;
})();

/** A few names in each family's own spelling, for error messages. */
const EXAMPLES: Readonly<Record<Family, string>> = {
  anthropic: 'Return, Tab, Escape, BackSpace, Delete, Up, Page_Down, Home, F5, ctrl, shift, alt, super',
  openai: 'ENTER, TAB, ESC, BACKSPACE, DELETE, ARROWLEFT, PAGEDOWN, HOME, F5, CTRL, SHIFT, ALT, CMD',
  gemini: 'Enter, Tab, Escape, Backspace, Delete, Left, PageDown, Home, F5, Control, Shift, Alt, Command',
  'ui-tars': 'enter, tab, esc, backspace, delete, left, pagedown, home, f5, ctrl, shift, alt, cmd',
  qwen: 'Return, enter, tab, esc, BackSpace, Delete, Left, Page_Down, F5, ctrl, shift, alt, super',
};

const PRINTABLE = /^[\x21-\x7e]$/;

/** One key name → the Playwright name, or NATIVE_UNKNOWN_KEY naming `field`. */
export function playwrightKey(family: Family, name: unknown, field: FieldPath): string {
  if (typeof name !== 'string' || name === '') {
    badField(
      field,
      `${field} is ${show(name)}, not a key name.`,
      `Send a key name such as ${EXAMPLES[family]}.`,
    );
  }
  if (name === ' ') return 'Space';
  if (name.length === 1 && PRINTABLE.test(name)) return name;
  const known = TABLE.get(normal(name));
  if (known !== undefined) return known;
  const fn = /^f(\d{1,2})$/i.exec(name.trim());
  if (fn && Number(fn[1]) >= 13 && Number(fn[1]) <= 24) {
    throw new NativeActionError(
      'NATIVE_UNKNOWN_KEY',
      `${field} names the key ${show(name)}; Playwright's keyboard has F1 to F12 only.`,
      'Use one of F1 to F12, or another key.',
      field,
    );
  }
  const typed =
    [...name].length === 1 ? ' It is a single character outside ASCII: type it with the type action.' : '';
  throw new NativeActionError(
    'NATIVE_UNKNOWN_KEY',
    `${field} names the key ${show(name)}, which trueclick does not know.${typed}`,
    `Use a key name such as ${EXAMPLES[family]}, or a single character (a, A, 1, /).`,
    field,
  );
}

/**
 * Splits a '+' chord ("ctrl+shift+t", "ctrl++"): a '+' separates keys unless it starts a key, so "ctrl++" is
 * Control and '+'.
 */
function splitPlus(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (const ch of text) {
    if (ch === '+' && current !== '') {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (current !== '') parts.push(current);
  return parts;
}

function checkChordSize(count: number, field: FieldPath): void {
  if (count > NATIVE_LIMITS.chordKeys) {
    tooLarge(
      field,
      `${field} holds ${count} keys in one chord; trueclick presses at most ${NATIVE_LIMITS.chordKeys} together.`,
      'Send a chord of a few keys, such as ctrl+shift+t.',
    );
  }
}

function checkChord(chord: string[], field: FieldPath, text: unknown): string[] {
  if (chord.length === 0) {
    badField(
      field,
      `${field} is ${show(text)}, which names no key.`,
      'Send a key or a chord such as ctrl+s.',
    );
  }
  checkChordSize(chord.length, field);
  return chord;
}

/** "ctrl+s" (Anthropic, Gemini key_combination, Qwen/OpenAI list items written as chords) → one chord. */
export function chordOfPlus(family: Family, text: string, field: FieldPath): string[] {
  return checkChord(
    splitPlus(text.trim()).map((k) => playwrightKey(family, k.trim() || k, field)),
    field,
    text,
  );
}

/** "ctrl c" (UI-TARS hotkey: space separated, one chord; a '+' inside a word splits too). */
export function chordOfWords(family: Family, text: string, field: FieldPath): string[] {
  const words = text.trim() === '' ? [] : text.trim().split(/\s+/);
  return checkChord(
    words.flatMap((w) => splitPlus(w)).map((k) => playwrightKey(family, k, field)),
    field,
    text,
  );
}

/** ['CTRL', 'A'] (OpenAI keypress, Gemini hotkey, Qwen key): one chord, each name at `field[i]`. */
export function chordOfList(family: Family, list: unknown, field: FieldPath): string[] {
  if (!Array.isArray(list)) {
    badField(
      field,
      `${field} is ${show(list)}, not a list of key names.`,
      `Send ${field} as a list such as ["ctrl", "c"].`,
    );
  }
  checkChordSize(list.length, field);
  const chord = list.flatMap((name, i) => {
    const at = `${field}[${i}]`;
    if (typeof name === 'string' && name.length > 1 && name.includes('+'))
      return chordOfPlus(family, name, at);
    return [playwrightKey(family, name, at)];
  });
  return checkChord(chord, field, list);
}

/**
 * "Backspace Backspace Delete", "ctrl+a Delete" (Anthropic key: xdotool and the browser toolset sequence
 * presses on spaces) → chords in order. " + " between words is read as a chord ("ctrl + s").
 */
export function sequenceOf(family: Family, text: string, field: FieldPath): string[][] {
  const words = text.replace(/\s*\+\s*(?=\S)/g, '+').trim();
  const chords = words === '' ? [] : words.split(/\s+/);
  if (chords.length === 0) {
    badField(
      field,
      `${field} is ${show(text)}, which names no key.`,
      'Send a key or a chord such as ctrl+s.',
    );
  }
  if (chords.length > NATIVE_LIMITS.keySequence) {
    tooLarge(
      field,
      `${field} holds ${chords.length} presses; trueclick presses at most ${NATIVE_LIMITS.keySequence} in one action.`,
      `Send at most ${NATIVE_LIMITS.keySequence} presses, or use repeat for one key pressed many times.`,
    );
  }
  return chords.map((c) => chordOfPlus(family, c, field));
}

const MODIFIERS: ReadonlyMap<string, Modifier> = new Map([
  ['Alt', 'Alt'],
  ['Control', 'Control'],
  ['Meta', 'Meta'],
  ['Shift', 'Shift'],
]);

export function modifierOf(key: string): Modifier | undefined {
  return MODIFIERS.get(key);
}

/** Keys held during a mouse action: modifiers only, each once, in the order written. */
export function asModifiers(keys: string[], field: FieldPath, action: string): Modifier[] {
  const out: Modifier[] = [];
  for (const key of keys) {
    const m = modifierOf(key);
    if (m === undefined) {
      badField(
        field,
        `${field} holds ${show(key)}, which is not a modifier; ${action} can hold only shift, ctrl, alt and meta (cmd/super).`,
        'Send only modifier keys here; press other keys with a key action.',
      );
    }
    if (!out.includes(m)) out.push(m);
  }
  return out;
}
