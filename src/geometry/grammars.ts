// Recognisers for the coordinate forms vision models write (research/conventions.md section 1). Each finds
// every occurrence in a text; parse.ts decides which are allowed for a preset and whether they agree.
// All patterns are bounded ({0,N}) or linear so a hostile string cannot make them backtrack for long.

import type { Grammar } from './presets.js';

export interface Match {
  grammar: Grammar;
  start: number;
  end: number;
  /** The numbers as written, in the text's order. */
  values: number[];
  /** The text named its axes (x=..., y=...), so the values are x then y whatever the preset's axis order. */
  named: boolean;
  /** A count this grammar cannot mean (e.g. three <loc_> tokens); reported if nothing better is found. */
  badArity?: string;
}

const NUM = String.raw`[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`;
const NUM_RE = new RegExp(NUM, 'g');
const ONLY_NUMBERS = new RegExp(String.raw`^\s*${NUM}(?:\s*[,\s]\s*${NUM})*\s*$`);

function numbersIn(text: string): number[] {
  return (text.match(NUM_RE) ?? []).map(Number);
}

function pointOrBox(grammar: Grammar, m: RegExpExecArray, values: number[], named = false): Match {
  const match: Match = { grammar, start: m.index, end: m.index + m[0].length, values, named };
  if (values.length !== 2 && values.length !== 4) {
    match.badArity = `${grammar} ${JSON.stringify(m[0].slice(0, 80))} holds ${values.length} number${values.length === 1 ? '' : 's'}, not 2 (a point) or 4 (a box)`;
  }
  return match;
}

function all(re: RegExp, text: string, f: (m: RegExpExecArray) => Match | Match[] | null): Match[] {
  const out: Match[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const r = f(m);
    if (Array.isArray(r)) out.push(...r);
    else if (r !== null) out.push(r);
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

const BOX_2D = /(?<![\w])["']?box_2d["']?\s*:\s*\[([^[\]]{0,200})\]/g;
const QWEN_JSON = /(?<![\w])["']?(bbox_2d|point_2d)["']?\s*:\s*\[([^[\]]{0,200})\]/g;
const BOX_TOKENS = /<\|box_start\|>([^<]{0,200})<\|box_end\|>/g;
const QWEN_VL_BOX = /<box>([^<]{0,200})<\/box>/g;
const MOLMO_POINT = /<points?\s([^<>]{0,2000})>/g;
const MOLMO_ATTR = new RegExp(String.raw`\b([xy])(\d*)\s*=\s*["']?(${NUM})["']?`, 'g');
const LOC_RUN = /(?:<loc_(\d{1,6})>\s*){1,16}/g;
const UI_TARS_ACTION =
  /(?<![\w])(start_box|end_box|start_point|end_point|point)\s*=\s*(['"])([^'"]{0,300})\2/g;
const POINT_TAG = /<(point|bbox)>([^<]{0,200})<\/\1>/g;
const PYAUTOGUI = /pyautogui\.(\w{1,40})\(([^()]{0,300})\)/g;
const NAMED = new RegExp(
  String.raw`(?<![A-Za-z0-9_])["']?([A-Za-z][A-Za-z_]{0,29}_)?([xy])["']?\s*[:=]\s*["']?(${NUM})`,
  'g',
);
const ARRAY = /\[([^[\]]{0,400})\]/g;
const TUPLE = /\(([^()]{0,400})\)/g;

function molmo(m: RegExpExecArray): Match[] {
  const xs = new Map<string, number>();
  const ys = new Map<string, number>();
  for (const a of (m[1] ?? '').matchAll(MOLMO_ATTR)) {
    (a[1] === 'x' ? xs : ys).set(a[2] ?? '', Number(a[3]));
  }
  const out: Match[] = [];
  for (const [index, x] of xs) {
    const y = ys.get(index);
    if (y !== undefined) {
      out.push({
        grammar: 'molmo-point',
        start: m.index,
        end: m.index + m[0].length,
        values: [x, y],
        named: true,
      });
    }
  }
  return out;
}

function loc(m: RegExpExecArray): Match {
  const ks = [...m[0].matchAll(/<loc_(\d{1,6})>/g)].map((t) => Number(t[1]));
  if (ks.length === 8) {
    // An OCR quadrilateral (four corners): its axis-aligned bounding box has the same centre region.
    const xs = [ks[0], ks[2], ks[4], ks[6]].map((v) => v ?? 0);
    const ys = [ks[1], ks[3], ks[5], ks[7]].map((v) => v ?? 0);
    return pointOrBox('loc-tokens', m, [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]);
  }
  return pointOrBox('loc-tokens', m, ks);
}

function pyautogui(m: RegExpExecArray): Match | null {
  const args = m[2] ?? '';
  if (/\b[xy]\s*=/.test(args)) {
    const x = new RegExp(String.raw`\bx\s*=\s*(${NUM})`).exec(args);
    const y = new RegExp(String.raw`\by\s*=\s*(${NUM})`).exec(args);
    if (x === null || y === null) return null;
    return pointOrBox('pyautogui', m, [Number(x[1]), Number(y[1])], true);
  }
  const positional = args.split(',').slice(0, 2);
  if (positional.length < 2 || !positional.every((p) => ONLY_NUMBERS.test(p))) return null;
  return pointOrBox('pyautogui', m, positional.map(Number), true);
}

/** Pairs x/y assignments that share a prefix and sit next to each other: {"x":1,"y":2}, click_at(x=1, y=2). */
function named(text: string): Match[] {
  const tokens = [...text.matchAll(NAMED)].map((t) => ({
    prefix: t[1] ?? '',
    axis: t[2],
    value: Number(t[3]),
    start: t.index ?? 0,
    end: (t.index ?? 0) + t[0].length,
  }));
  const out: Match[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    const a = tokens[i];
    const b = tokens[i + 1];
    if (a === undefined || b === undefined) continue;
    if (a.prefix !== b.prefix || a.axis === b.axis || b.start - a.end > 80) continue;
    const [x, y] = a.axis === 'x' ? [a.value, b.value] : [b.value, a.value];
    out.push({ grammar: 'named-xy', start: a.start, end: b.end, values: [x, y], named: true });
    i++;
  }
  return out;
}

function plainList(grammar: 'array' | 'tuple') {
  return (m: RegExpExecArray): Match | null => {
    const inner = m[1] ?? '';
    if (!ONLY_NUMBERS.test(inner)) return null;
    return pointOrBox(grammar, m, numbersIn(inner));
  };
}

/** Family grammars in priority order: an earlier one claims its span, so later ones skip what is inside it. */
const FAMILY_EXTRACTORS: ReadonlyArray<(text: string) => Match[]> = [
  (t) => all(UI_TARS_ACTION, t, (m) => pointOrBox('ui-tars-action', m, numbersIn(m[3] ?? ''))),
  (t) => all(BOX_2D, t, (m) => pointOrBox('box_2d', m, numbersIn(m[1] ?? ''))),
  (t) => all(QWEN_JSON, t, (m) => pointOrBox('qwen-json', m, numbersIn(m[2] ?? ''))),
  (t) => all(BOX_TOKENS, t, (m) => pointOrBox('box-tokens', m, numbersIn(m[1] ?? ''))),
  (t) => all(QWEN_VL_BOX, t, (m) => pointOrBox('qwen-vl-box', m, numbersIn(m[1] ?? ''))),
  (t) => all(MOLMO_POINT, t, molmo),
  (t) => all(LOC_RUN, t, loc),
  (t) => all(POINT_TAG, t, (m) => pointOrBox('point-tag', m, numbersIn(m[2] ?? ''))),
];

const GENERIC_EXTRACTORS: ReadonlyArray<(text: string) => Match[]> = [
  (t) => all(PYAUTOGUI, t, pyautogui),
  named,
  (t) => all(ARRAY, t, plainList('array')),
  (t) => all(TUPLE, t, plainList('tuple')),
];

/** Every coordinate form in `text`, none inside another's span. */
export function findMatches(text: string): Match[] {
  // One flag per character: spans are short (bounded patterns), so checking and marking stay linear.
  const taken = new Uint8Array(text.length + 1);
  const free = (m: Match) => !taken.subarray(m.start, m.end).includes(1);
  const found: Match[] = [];
  for (const extract of [...FAMILY_EXTRACTORS, ...GENERIC_EXTRACTORS]) {
    const fresh = extract(text).filter(free);
    for (const m of fresh) taken.fill(1, m.start, m.end);
    found.push(...fresh);
  }
  return found.sort((a, b) => a.start - b.start);
}
