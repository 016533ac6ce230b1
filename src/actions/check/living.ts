import {
  describeDifferences,
  type Judgement,
  judge,
  partText,
  placeFree,
  type SetAside,
} from '../../browser/identity/compare-facts.js';
import { describeHit, type ElementFacts, toHit } from '../../browser/identity/element-facts.js';
import { armOn, type LiveFacts } from '../../browser/identity/hit-test.js';
import type { Attempt } from './attempt.js';
import { type ClickReport, fmtPoint } from './verdicts.js';

// A living page is not a moved page: text that ticks in place while the rest of the record holds, and what
// the page does in answer to trueclick's own pointer, are set aside; what tells the record apart never is.

/** How long a text that may be ticking is watched for a second change before the record is refused. */
const TICK_WATCH_MS = 1000;
const TICK_STEP_MS = 100;
/**
 * A text the page changed in place twice within this long (its own log, before the frame too) ticks: the
 * in-flight guard's rule (guard-signature.ts), so a page that ticks once a second costs no watching.
 */
const TICK_WINDOW_MS = 10_000;

/** For each capture-side part: whether no sibling record at capture held the same there (it names the record). */
export function uniqueAtCapture(a: Attempt): boolean[] | null {
  const c = a.captured;
  if (!c) return null;
  try {
    const unique = c.doc.kit.uniqueParts(c.index);
    return a.placeFree ? (unique?.slice(a.placeFree) ?? null) : unique;
  } catch {
    return null;
  }
}

/**
 * A look as the capture is compared with it: once `follow` moved the attempt to where the record is now, its
 * row index and key are where it is, not what it is (placeFree); `cut` is how many parts that dropped.
 */
function compared<F extends ElementFacts>(a: Attempt, f: F): { facts: F; cut: number } {
  return a.placeFree !== undefined ? placeFree(f) : { facts: f, cut: 0 };
}

/** How often the page changed the part in place lately, by the page's clock (its log starts at load). */
function changesLately(f: LiveFacts, nowIndex: number): number {
  return (f.partTimes?.[nowIndex] ?? []).filter((t) => t >= f.armedAt - TICK_WINDOW_MS).length;
}

/**
 * What the point held at capture against the first look (`a.seen`). Where the only changes are texts that
 * may be ticking, each must be known to tick while the rest of the record held, and then it is set aside:
 * the page logged two changes of it lately, or else it is watched for up to a second until another look
 * reads yet another text (the time spent so is `watchedMs`). A status that flipped once is not ticking: it
 * refuses until a new screenshot shows it. The last look becomes `a.seen`, and the parts that tick are kept
 * for the armed guard.
 */
export async function judgeAtCapture(a: Attempt, seen: LiveFacts): Promise<Judgement> {
  const then = (a.captured as NonNullable<Attempt['captured']>).facts;
  const strict = a.req.strict === true;
  const distinct = strict ? null : uniqueAtCapture(a);
  const cut = (f: LiveFacts) => compared(a, f);
  let look = seen;
  let j = judge(then, cut(look).facts, { strict, distinct });
  const lastText = new Map<number, string>();
  const ticked = new Set<number>();
  const started = Date.now();
  const deadline = started + TICK_WATCH_MS;
  while (j.diffs.length > 0 && j.maybeTicking.length > 0) {
    const current = cut(look).facts;
    for (const [t, n] of j.maybeTicking) {
      const text = current.recordParts?.[n] ?? '';
      const before = lastText.get(t);
      if ((before !== undefined && before !== text) || changesLately(current, n) >= 2) ticked.add(t);
      lastText.set(t, text);
    }
    if (j.maybeTicking.every(([t]) => ticked.has(t))) {
      const again = judge(then, current, { distinct, ticking: new Set(j.maybeTicking.map(([t]) => t)) });
      if (again.diffs.length === 0) {
        // The guard counts the parts as the page has them, its own attributes first.
        const k = cut(look).cut;
        a.ticking = { count: look.recordParts?.length ?? 0, indexes: j.maybeTicking.map(([, n]) => n + k) };
        j = again;
      }
      break;
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, TICK_STEP_MS));
    const next = await armOn(look.at, { armMs: 0 });
    if (!next) break;
    look = next;
    j = judge(then, cut(look).facts, { distinct });
  }
  a.seen = look;
  if (look !== seen) a.report.watchedMs = Date.now() - started;
  return j;
}

/**
 * The page's answer to trueclick's pointer, between the look before the move (`a.seen`) and the armed
 * check after it (`a.live`): the hovered control may change its own label, classes and styles; another
 * element put under the point is COVERED; anything else in the record is a move.
 */
export function judgeHover(a: Attempt): { refusal: ClickReport | null; setAside: SetAside[] } {
  const { seen: before, live, report } = a;
  if (!before || !live) return { refusal: null, setAside: [] };
  // Parts seen ticking before the pointer moved may tick on in the few ms it took.
  const ticking = new Set(a.ticking?.indexes ?? []);
  const j = judge(before, live, { ticking, distinct: null });
  if (j.diffs.length === 0) return { refusal: null, setAside: [] };
  const on = (f: ElementFacts) => (f.actionable ?? f).text;
  // The record's own changes must lie in the hovered control's label, only add to the record (actions a
  // row shows while it is hovered), or leave a part that names the record as it was (a mail list shows
  // actions where the date was while a row is hovered); anything else in those few ms is a move.
  const answered =
    recordChangesWithin(before, live, on(before), on(live), ticking) || namesHeld(a, before, live);
  // The page drew the element anew in those ms (a grid cell on a price tick) while the record stayed: the
  // same thing, not a cover.
  const redrawn = before.backendNodeId !== live.backendNodeId && sameThing(before, live) && answered;
  const structural = j.diffs.filter(
    (d) => ['frame', 'role'].includes(d.field) || (d.field === 'node' && !redrawn),
  );
  if (structural.length > 0) {
    const cover = describeHit(toHit(live));
    return {
      setAside: [],
      refusal: {
        ...report,
        verdict: 'COVERED',
        message: `Not clicked: when trueclick's pointer arrived at CSS ${fmtPoint(a.vp)}, the page answered the hover by putting ${cover} under the point, over ${describeHit(toHit(before))}. The pointer is still there: take a new screenshot and click what the hover opened, or pass a point beside it.`,
      },
    };
  }
  const record = j.diffs.some((d) => d.field === 'record');
  if (
    !answered ||
    (a.req.strict === true && record && !recordChangesWithin(before, live, on(before), on(live), new Set()))
  ) {
    const d = j.diffs.find((x) => x.field === 'record') ?? j.diffs[0];
    return {
      setAside: [],
      refusal: {
        ...report,
        changes: j.diffs,
        verdict: 'STALE_TARGET',
        message: `Not clicked: the page changed under the point while trueclick's pointer moved there (${describeDifferences(d ? [d] : [], before)}). Take a new screenshot and find the target again.`,
      },
    };
  }
  const setAside: SetAside[] = j.diffs
    .filter((d) => d.field !== 'record' && d.field !== 'node')
    .map((d) => ({ what: d.field === 'control' ? 'label' : d.field, was: d.was, now: d.now, why: 'hover' }));
  if (redrawn)
    setAside.push({
      what: 'element',
      was: before.tag.toLowerCase(),
      now: live.tag.toLowerCase(),
      why: 're-rendered',
    });
  const part = textChanged(before, live) ?? j.diffs.find((d) => d.field === 'record')?.part;
  const told = (x: string) => setAside.some((t) => t.was.includes(x));
  if (part && !told(part.was)) setAside.push({ what: 'record', was: part.was, now: part.now, why: 'hover' });
  else if (setAside.length === 0)
    setAside.push({ what: 'record', was: on(before), now: on(live), why: 'hover' });
  return { refusal: null, setAside };
}

/** The first text of the record that reads otherwise after the hover (what a person sees change). */
function textChanged(before: ElementFacts, live: ElementFacts): { was: string; now: string } | undefined {
  const texts = (f: ElementFacts) => (f.recordParts ?? []).filter((p) => /^~?t:/.test(p)).map(partText);
  const a = texts(before);
  const b = texts(live);
  const k = a.findIndex((t, i) => t !== b[i]);
  return k < 0 ? undefined : { was: a[k] ?? '', now: b[k] ?? '' };
}

/** The same kind of thing with the same name: tag, role, identity attributes and text. */
function sameThing(x: ElementFacts, y: ElementFacts): boolean {
  return (
    x.tag === y.tag &&
    x.role === y.role &&
    (x.frame ?? '') === (y.frame ?? '') &&
    x.text === y.text &&
    JSON.stringify(x.attrs) === JSON.stringify(y.attrs)
  );
}

/**
 * Whether a part that alone named the record at capture (no sibling held the same) is still in it after the
 * hover: then it is the same record, and what else it shows is its answer to the pointer. Another record
 * put there holds none of them. False when no part named it.
 */
function namesHeld(a: Attempt, before: ElementFacts, live: ElementFacts): boolean {
  const unique = uniqueAtCapture(a);
  const was = compared(a, before).facts.recordParts;
  const now = compared(a, live).facts.recordParts;
  if (!unique || !was || !now || unique.length !== was.length) return false;
  const ticking = new Set(a.ticking?.indexes ?? []);
  const naming = was.filter((p, i) => unique[i] && !p.startsWith('~') && !ticking.has(i));
  return naming.some((p) => now.includes(p));
}

/**
 * Whether every record part that changed is a text found in the control's label before and after, content
 * that updates by itself (declared live, or seen ticking), or only added (actions a row shows on hover).
 */
function recordChangesWithin(
  before: ElementFacts,
  live: ElementFacts,
  was: string,
  now: string,
  ticking: ReadonlySet<number>,
): boolean {
  const a = before.recordParts;
  const b = live.recordParts;
  if (!a || !b) return !a && !b;
  const alike = (p: string, q: string, i: number) =>
    p === q ||
    (p.startsWith('~') && q.startsWith('~')) ||
    (ticking.has(i) && p.startsWith('t:') && q.startsWith('t:'));
  if (a.length < b.length) return isSubsequence(a, b, alike);
  if (a.length !== b.length) return false;
  return a.every(
    (p, i) =>
      alike(p, b[i] ?? '', i) ||
      (/^~?t:/.test(p) && was.includes(partText(p)) && now.includes(partText(b[i] ?? ''))),
  );
}

function isSubsequence(small: string[], big: string[], alike: (p: string, q: string, i: number) => boolean) {
  let k = 0;
  for (const q of big) if (k < small.length && alike(small[k] ?? '', q, k)) k++;
  return k === small.length;
}
