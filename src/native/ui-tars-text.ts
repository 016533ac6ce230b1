// Reads UI-TARS text into calls: "Thought: …\nAction: click(start_box='(197,525)')", several calls one after
// another (blank lines between), Python-call syntax with quoted arguments. A hand-written scanner rather than
// the reference's regexes and ast.parse: it is linear, and it reads what the model writes inside
// type(content='…') (escaped quotes and newlines, or an unescaped apostrophe as in 'It's done').

import { show } from '../geometry/index.js';
import { badField, checkCount, noAction, unfence } from './read.js';

export interface TarsCall {
  verb: string;
  /** Argument values as written, unquoted and unescaped (a Map: names come from the model). */
  args: Map<string, string>;
  /** 1-based, as "Action 2" names it. */
  index: number;
}

export const TARS_SHAPES =
  "the model's text, e.g. \"Thought: …\\nAction: click(start_box='(197,525)')\" (UI-TARS) or " +
  '"Action: click(point=\'<point>197 525</point>\')" (UI-TARS-1.5); several actions go one after another';

/** The text after the "Action:" label, or the whole text when it is bare calls. */
function actionText(text: string): string {
  const t = unfence(text.replace(/\[EOS\]|<\|im_end\|>/g, ''));
  const line = /(?:^|\n)[ \t]*Action[ \t]*:/.exec(t);
  if (line) return t.slice(line.index + line[0].length);
  const inline = t.lastIndexOf('Action:');
  if (inline >= 0) return t.slice(inline + 'Action:'.length);
  if (/^(?:Thought|Reflection|Action_Summary)\s*:/.test(t)) {
    noAction('The text has no "Action:" line after its Thought.', TARS_SHAPES);
  }
  // Without a label, the text must be the calls themselves.
  if (!/^[A-Za-z_][A-Za-z0-9_]*\s*\(/.test(t))
    noAction('The text has no "Action:" line and no action call.', TARS_SHAPES);
  return t;
}

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const CALL_HINT = "Write each action as verb(arg='value'), e.g. click(start_box='(197,525)').";
const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

function skipSpace(s: string, i: number): number {
  let j = i;
  while (j < s.length && /\s/.test(s.charAt(j))) j++;
  return j;
}

/** Longest verb or argument name read: names are echoed in messages, which must stay short. */
const MAX_NAME = 64;

function ident(s: string, i: number, where: string): string | undefined {
  IDENT.lastIndex = i;
  const name = IDENT.exec(s)?.[0];
  if (name !== undefined && name.length > MAX_NAME) {
    badField(where, `${where} has a name of ${name.length} characters at ${snippet(s, i)}.`, CALL_HINT);
  }
  return name;
}

function snippet(s: string, i: number): string {
  return show(s.slice(i, i + 40));
}

/** A quote closes its string only before ',' or ')' (or the end): other quotes are part of the text. */
function closes(s: string, i: number): boolean {
  const j = skipSpace(s, i);
  return j >= s.length || s.charAt(j) === ')' || s.charAt(j) === ',';
}

function quoted(s: string, start: number, field: string): { value: string; end: number } {
  const q = s.charAt(start);
  let out = '';
  let j = start + 1;
  while (j < s.length) {
    const c = s.charAt(j);
    if (c === '\\' && j + 1 < s.length) {
      const e = s.charAt(j + 1);
      out += ESCAPES[e] ?? `\\${e}`;
      j += 2;
    } else if (c === q && closes(s, j + 1)) {
      return { value: out, end: j + 1 };
    } else {
      out += c;
      j++;
    }
  }
  return badField(
    field,
    `${field} opens a string with ${q} that is never closed.`,
    `Close the string: ${field}='…').`,
  );
}

function bare(s: string, start: number): { value: string; end: number } {
  let j = start;
  while (j < s.length && !',)\n'.includes(s.charAt(j))) j++;
  return { value: s.slice(start, j).trim(), end: j };
}

/** Every call in the text, in order. */
export function tarsCalls(text: string): TarsCall[] {
  const s = actionText(text);
  const calls: TarsCall[] = [];
  let i = 0;
  for (;;) {
    i = skipSpace(s, i);
    if (i >= s.length) break;
    // A repeated label between calls ("Action: a(…)\n\nAction: b(…)").
    if (s.startsWith('Action:', i)) {
      i += 'Action:'.length;
      continue;
    }
    const index = calls.length + 1;
    checkCount(index, 'Action', 'actions');
    const where = `Action ${index}`;
    const verb = ident(s, i, where);
    if (verb === undefined) {
      badField(
        where,
        `${where} starts with ${snippet(s, i)}, not a call like click(start_box='(x,y)').`,
        CALL_HINT,
      );
    }
    i = skipSpace(s, i + verb.length);
    if (s.charAt(i) !== '(') {
      badField(where, `${where}: ${show(verb)} is not followed by "(".`, CALL_HINT);
    }
    const args = new Map<string, string>();
    i++;
    for (;;) {
      i = skipSpace(s, i);
      // A ")" missing at the very end is forgiven, as the reference parser does.
      if (i >= s.length) break;
      if (s.charAt(i) === ')') {
        i++;
        break;
      }
      const name = ident(s, i, where);
      if (name === undefined) {
        badField(
          where,
          `${where}: ${verb}( has ${snippet(s, i)} where an argument name belongs.`,
          `Write arguments as name='value', e.g. ${verb}(start_box='(197,525)').`,
        );
      }
      const field = `${verb}(${name}`;
      i = skipSpace(s, i + name.length);
      if (s.charAt(i) !== '=') {
        badField(where, `${where}: ${field} is not followed by "=".`, `Write ${field}='value').`);
      }
      i = skipSpace(s, i + 1);
      const q = s.charAt(i);
      const { value, end } = q === "'" || q === '"' ? quoted(s, i, field) : bare(s, i);
      args.set(name, value);
      i = skipSpace(s, end);
      if (s.charAt(i) === ',') i++;
      else if (s.charAt(i) === ')') {
        i++;
        break;
      } else if (i < s.length) {
        badField(
          where,
          `${where}: ${field}=…) is followed by ${snippet(s, i)}, not "," or ")".`,
          `Separate arguments with "," and end the call with ")".`,
        );
      }
    }
    calls.push({ verb, args, index });
  }
  if (calls.length === 0) noAction('The text holds no action call.', TARS_SHAPES);
  return calls;
}
