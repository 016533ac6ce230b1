import { type ElementFacts, normalizeText } from './element-facts.js';

// The one compare of what the point held at capture with what it holds now: the same element, still the
// same thing, in the same record. A record is compared part by part (identity.ts recordParts), so what
// updates by itself (a ticking duration, a progress bar) can be set aside while what tells the record apart
// must hold.

/** One named difference between what the point held at capture and what it holds now. */
export interface Difference {
  field: 'node' | 'frame' | 'role' | 'text' | 'record' | 'checked' | 'control' | `attr:${string}`;
  /** As it was at capture. */
  was: string;
  now: string;
  /** For a record: the first of its parts that differs (a field's value, an image, a link), as read. */
  part?: { was: string; now: string };
}

/** A change the compare did not count, and why: content that updates by itself, or trueclick's own hover. */
export interface SetAside {
  what: string;
  was: string;
  now: string;
  why: 'live' | 'ticking' | 'hover' | 're-rendered' | 'hit area';
}

export interface CompareRules {
  /** Any change in the record refuses (an agent whose decision rests on a number in the row). */
  strict?: boolean;
  /**
   * The capture-side record parts seen changing in place more than once, while the rest of the record held:
   * set aside unless they were all that told the record apart.
   */
  ticking?: ReadonlySet<number>;
  /** For each capture-side part: whether it alone names the record among its siblings (identity.ts uniqueParts). */
  distinct?: readonly boolean[] | null;
}

export interface Judgement {
  diffs: Difference[];
  setAside: SetAside[];
  /**
   * When the record's only changes are texts that may be ticking: each such part as [capture index, now
   * index]. The caller looks at how often they changed (partTimes) and judges again with `ticking`.
   */
  maybeTicking: Array<[number, number]>;
}

const short = (s: string | undefined, n = 64) => normalizeText(s, n);
const isLive = (p: string) => p.startsWith('~');
const isText = (p: string) => p.startsWith('t:');
const isImage = (p: string) => p.startsWith('i:');
/** A part as a person reads it: `t:Running for 1m` → `Running for 1m`. */
export const partText = (p: string) => p.replace(/^~?[a-z]:/, '');

type Indexed = { i: number; p: string };
function split(parts: string[]): { stable: Indexed[]; live: Indexed[] } {
  const stable: Indexed[] = [];
  const live: Indexed[] = [];
  parts.forEach((p, i) => {
    (isLive(p) ? live : stable).push({ i, p });
  });
  return { stable, live };
}

interface RecordVerdict {
  changed: boolean;
  first?: { was: string; now: string };
  setAside: SetAside[];
  maybeTicking: Array<[number, number]>;
}

function compareRecord(then: ElementFacts, now: ElementFacts, rules: CompareRules): RecordVerdict {
  const none: RecordVerdict = { changed: false, setAside: [], maybeTicking: [] };
  const a = then.recordParts;
  const b = now.recordParts;
  if (!a || !b) {
    const same = normalizeText(then.contextText, 300) === normalizeText(now.contextText, 300);
    return { ...none, changed: !same };
  }
  if (a.length === b.length && a.every((p, i) => p === b[i])) return none;
  const k = a.findIndex((p, i) => p !== b[i]);
  const changed: RecordVerdict = {
    ...none,
    changed: true,
    first: { was: partText(a[k] ?? ''), now: partText(b[k] ?? '') },
  };
  if (rules.strict) return changed;
  const A = split(a);
  const B = split(b);
  // A record that is nothing but live content has nothing else to be told apart by.
  if (A.stable.length === 0 || A.stable.length !== B.stable.length) return changed;
  const moved: number[] = [];
  A.stable.forEach((x, j) => {
    if (x.p !== B.stable[j]?.p) moved.push(j);
  });
  const ticking = rules.ticking ?? new Set<number>();
  // What ticks, and a picture that arrived, may be set aside only while something else that tells the
  // record apart held (its id text): where only the picture tells rows apart, the picture names the row.
  const held = A.stable.filter((_, j) => !moved.includes(j));
  const distinctHeld = held.some((x) => rules.distinct?.[x.i] ?? true);
  const pictures = moved.filter((j) => isImage(A.stable[j]?.p ?? '') && isImage(B.stable[j]?.p ?? ''));
  const arrived = distinctHeld ? pictures : [];
  const unexplained = moved.filter((j) => !ticking.has(A.stable[j]?.i ?? -1) && !arrived.includes(j));
  if (unexplained.length > 0) {
    const texts = unexplained.every((j) => isText(A.stable[j]?.p ?? '') && isText(B.stable[j]?.p ?? ''));
    if (texts && distinctHeld)
      changed.maybeTicking = unexplained.map((j) => [A.stable[j]?.i ?? -1, B.stable[j]?.i ?? -1]);
    return changed;
  }
  if (moved.length > 0 && !distinctHeld) return changed;
  const setAside: SetAside[] = moved.map((j) => ({
    what: arrived.includes(j) ? 'picture' : 'text',
    was: partText(A.stable[j]?.p ?? ''),
    now: partText(B.stable[j]?.p ?? ''),
    why: arrived.includes(j) ? 'live' : 'ticking',
  }));
  for (let k = 0; k < Math.max(A.live.length, B.live.length); k++) {
    const was = A.live[k]?.p ?? '';
    const is = B.live[k]?.p ?? '';
    if (was !== is) setAside.push({ what: 'live text', was: partText(was), now: partText(is), why: 'live' });
  }
  return { changed: false, setAside, maybeTicking: [] };
}

/** `then`'s text with each set-aside change made: what it reads now if nothing else changed. */
function explained(text: string, aside: SetAside[]): string {
  let out = text;
  for (const s of aside) if (s.was) out = out.split(s.was).join(s.now);
  return normalizeText(out);
}

/**
 * The one compare of two fingerprints: the same element (node, frame), still the same thing (role, text,
 * identity attributes, checked state, the control it belongs to) in the same record (its parts). Two page
 * backgrounds agree whatever the page's text.
 */
export function judge(then: ElementFacts, now: ElementFacts, rules: CompareRules = {}): Judgement {
  const out: Judgement = { diffs: [], setAside: [], maybeTicking: [] };
  if (then.background && now.background && (then.frame ?? '') === (now.frame ?? '')) return out;
  // The snapshot and the live hit-test may name different elements of one control: a slider's handle
  // holds a touch area (noUiSlider), and one side names the handle, the other its child. Then the control
  // is what is compared, in its record.
  if (!rules.strict && then.backendNodeId !== now.backendNodeId && oneControl(then, now)) {
    const j = judge(asControl(then), { ...asControl(now), backendNodeId: then.backendNodeId }, rules);
    j.setAside.push({
      what: 'element',
      was: then.tag.toLowerCase(),
      now: now.tag.toLowerCase(),
      why: 'hit area',
    });
    return j;
  }
  const add = (field: Difference['field'], a: string | undefined, b: string | undefined) => {
    if ((a ?? '') !== (b ?? '')) out.diffs.push({ field, was: a ?? '', now: b ?? '' });
  };
  const rec = compareRecord(then, now, rules);
  out.setAside = rec.setAside;
  out.maybeTicking = rec.maybeTicking;
  const live = !rules.strict && then.live && now.live;
  add('frame', then.frame, now.frame);
  const node: Difference = { field: 'node', was: then.tag.toLowerCase(), now: now.tag.toLowerCase() };
  if (then.backendNodeId !== now.backendNodeId) out.diffs.push(node);
  add('role', then.role, now.role);
  const textThen = normalizeText(then.text);
  const textNow = normalizeText(now.text);
  if (textThen !== textNow) {
    if (live) out.setAside.push({ what: 'text', was: textThen, now: textNow, why: 'live' });
    else if (rules.strict || explained(textThen, out.setAside) !== textNow) add('text', textThen, textNow);
  }
  for (const k of new Set([...Object.keys(then.attrs), ...Object.keys(now.attrs)]))
    if (!NAMING_ONLY.includes(k) && !(live && LIVE_VALUE_ATTRS.includes(k)))
      add(`attr:${k}`, then.attrs[k], now.attrs[k]);
  if (then.checked !== undefined && now.checked !== undefined)
    add('checked', String(then.checked), String(now.checked));
  const controlThen = controlKey(then);
  if (controlThen !== controlKey(now) && (rules.strict || controlKey(then, out.setAside) !== controlKey(now)))
    add('control', controlThen, controlKey(now));
  if (rec.changed) {
    const d: Difference = {
      field: 'record',
      was: normalizeText(then.contextText, 300),
      now: normalizeText(now.contextText, 300),
    };
    if (rec.first) d.part = rec.first;
    out.diffs.push(d);
  }
  // A page that draws an element anew for the same data (a grid's cell renderer on each price tick, a
  // framework re-mounting a row) shows what the model saw: another node, the same in every part, in a
  // record that held what tells it apart.
  if (out.diffs.length === 1 && out.diffs[0] === node && then.tag === now.tag && toldApart(then, rules)) {
    out.diffs = [];
    out.setAside.push({ what: 'element', was: node.was, now: node.now, why: 're-rendered' });
  }
  return out;
}

/** An element as the control it belongs to: the control's own tag, role, text and identity. */
function asControl(f: ElementFacts): ElementFacts {
  const c = f.actionable;
  if (!c) return f;
  const { actionable: _a, ...rest } = f;
  return { ...rest, tag: c.tag, attrs: c.attrs, text: c.text, role: c.role };
}

/**
 * Whether one of the two is a control and the other an empty hit area inside it (no text, no role of its
 * own): what a widget adds to widen where its control takes the pointer. A label span is not one: its
 * text says which control it is, and it is compared as it is.
 */
function oneControl(a: ElementFacts, b: ElementFacts): boolean {
  const part = a.actionable ? a : b;
  const whole = part === a ? b : a;
  if (!part.actionable || whole.actionable) return false;
  if (part.text !== '' || part.role !== 'generic') return false;
  if ((a.frame ?? '') !== (b.frame ?? '')) return false;
  // The control each names, in the one form controls are compared in (controlKey).
  const key = (f: ElementFacts) =>
    controlKey({
      ...f,
      actionable: f.actionable ?? { tag: f.tag, attrs: f.attrs, text: f.text, role: f.role },
    });
  return key(a) === key(b);
}

/** Whether the element says which thing it is beyond its place: its record held a distinct part, or its own ids. */
function toldApart(f: ElementFacts, rules: CompareRules): boolean {
  if (f.recordParts?.some((p, i) => !p.startsWith('~') && (rules.distinct?.[i] ?? true))) return true;
  return Object.keys(f.attrs).some((k) => k === 'id' || k === 'href' || k.startsWith('data-'));
}

/** Kept for naming a hit, not compared: tooltip libraries move `title` around when the mouse arrives. */
const NAMING_ONLY = ['title'];
/** What a <progress> or <meter> says of its own value: live, as its text is. */
const LIVE_VALUE_ATTRS = ['value', 'aria-label'];

function controlKey(f: ElementFacts, aside: SetAside[] = []): string {
  const c = f.actionable;
  if (!c) return '';
  const { title: _t, ...attrs } = c.attrs;
  const text = aside.length ? explained(c.text, aside) : normalizeText(c.text);
  return `${c.role} ${c.tag} ${text} ${JSON.stringify(attrs)}`;
}

/** The differences `judge` finds under the default rules (live content set aside). */
export function diffFacts(then: ElementFacts, now: ElementFacts): Difference[] {
  return judge(then, now).diffs;
}

export function sameElement(then: ElementFacts, now: ElementFacts): boolean {
  return diffFacts(then, now).length === 0;
}

/** What changed, for the agent: `its row "TCK-7741 Fix login" now reads "TCK-7736 Update docs"`. */
export function describeDifferences(diffs: Difference[], then: ElementFacts): string {
  const rec = then.recordTag ? recordWord(then.recordTag) : 'row';
  const parts: string[] = [];
  for (const d of diffs.slice(0, 3)) {
    if (d.field === 'record') {
      const named = d.was ? ` "${short(d.was)}"` : '';
      if (d.was === d.now && d.part)
        parts.push(`in its ${rec}${named}, "${short(d.part.was, 40)}" is now "${short(d.part.now, 40)}"`);
      else
        parts.push(
          d.was
            ? d.now
              ? `its ${rec}${named} now reads "${short(d.now)}"`
              : `its ${rec}${named} is gone`
            : `it is now inside a ${rec} "${short(d.now)}"`,
        );
    } else if (d.field === 'node')
      parts.push(
        d.was === d.now ? 'another element is there' : `a ${d.now} is there instead of the ${d.was}`,
      );
    else if (d.field === 'text') parts.push(`its text "${short(d.was)}" now reads "${short(d.now)}"`);
    else if (d.field === 'frame') parts.push('the point is now in another frame');
    else if (d.field === 'checked')
      parts.push(
        `it was ${d.was === 'true' ? 'checked' : 'unchecked'}, now it is ${d.now === 'true' ? 'checked' : 'unchecked'}`,
      );
    else if (d.field === 'control') parts.push('it belongs to another control now');
    else parts.push(`its ${d.field.replace('attr:', '')} was "${short(d.was)}", now "${short(d.now)}"`);
  }
  return parts.join('; ');
}

/** `the duration "Running for 1m 23.4s" ticked to "Running for 1m 24.1s"`: what an OK verdict set aside. */
export function describeSetAside(list: SetAside[]): string {
  const said = list.slice(0, 2).map((s) => {
    if (s.why === 'hover')
      return `"${short(s.was, 40)}" reads "${short(s.now, 40)}" under trueclick's own pointer`;
    if (s.why === 're-rendered') return `the page drew the ${s.was} anew, the same in every part`;
    if (s.why === 'hit area') return `the point reaches the same control through its ${s.now}`;
    if (s.what === 'picture') return `a picture arrived (${pictureName(s.now)})`;
    const verb = s.why === 'ticking' ? 'ticked to' : 'updated to';
    return `"${short(s.was, 40)}" ${verb} "${short(s.now, 40)}"`;
  });
  const more = list.length > 2 ? ` (and ${list.length - 2} more)` : '';
  return `${said.join('; ')}${more}`;
}

/** `ada.png` for `https://cdn.example/u/ada.png?s=64|Ada`; `an inline image` for a data: URL. */
function pictureName(part: string): string {
  const [src = '', alt = ''] = part.split('|');
  if (alt) return `"${short(alt, 40)}"`;
  if (src.startsWith('data:')) return 'an inline image';
  const file = src.split(/[?#]/)[0]?.split('/').filter(Boolean).at(-1) ?? '';
  return file ? `"${short(file, 40)}"` : 'no source';
}

/** How a record is named by its tag: row, list item, card, or record. */
export function recordWord(tag: string | undefined): string {
  if (tag === 'TR') return 'row';
  if (tag === 'LI') return 'list item';
  if (tag === 'ARTICLE') return 'card';
  return 'record';
}

/**
 * The facts without the record's own attributes (`a:` parts, which come first: aria-rowindex, row-index, a
 * key a grid gives the row node), and how many were cut: what a record shows, wherever it is now. A part
 * declared live in one place (a row that is a timer only in odd rows) counts as plain text that may tick,
 * which is watched before it is set aside. What `follow` compares: a record that moved has another row
 * index by definition.
 */
export function placeFree<F extends ElementFacts>(f: F): { facts: F; cut: number } {
  const parts = f.recordParts;
  if (!parts) return { facts: f, cut: 0 };
  let cut = 0;
  while (cut < parts.length && parts[cut]?.startsWith('a:')) cut++;
  const out: F = { ...f, recordParts: parts.slice(cut).map((p) => (p.startsWith('~t:') ? p.slice(1) : p)) };
  if (f.partTimes) out.partTimes = f.partTimes.slice(cut);
  return { facts: out, cut };
}
