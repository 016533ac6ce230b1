import {
  describeDifferences,
  type Judgement,
  judge,
  partText,
  placeFree,
  recordWord,
} from '../../browser/identity/compare-facts.js';
import type { ElementFacts } from '../../browser/identity/element-facts.js';
import { frameDriver } from '../../browser/identity/frame-driver.js';
import { mapBox } from '../../browser/identity/frame-place.js';
import type { Attempt } from './attempt.js';
import { uniqueAtCapture } from './living.js';
import { type ClickReport, fmt, fmtPoint, type Point } from './verdicts.js';

// `follow: true`: when the record the frame showed at the point moved, act on it where it is now, after the
// whole check again there. Never a guess: the record must be found once in the page by the parts that named
// it in the frame, unchanged apart from what the living rules set aside, in view and uncovered.

/** More candidates than this are not read: any two already refuse. */
const MAX_CANDIDATES = 8;

type Box = { x: number; y: number; width: number; height: number };

/** One element like the one the frame showed, in a record holding a part that named it (guard findRecord). */
interface Candidate extends Omit<ElementFacts, 'backendNodeId'> {
  rect: Box;
  underPoint: boolean;
  /** Hidden by a scrolling list around it: on which side of its visible part, how far (CSS px). */
  clipped?: { side: string; px: number } | null;
  armedAt: number;
  /** The viewport of the candidate's own document (an iframe's), CSS px. */
  viewport: { width: number; height: number };
}

/** Whether a refusal may be followed: the record at a point read off a frame changed, and the agent asked. */
export function mayFollow(a: Attempt, refusal: ClickReport): boolean {
  return a.req.follow === true && refusal.verdict === 'STALE_TARGET' && Boolean(a.frame && a.captured);
}

/** The parts that named the record in the frame: no sibling held them, and they are not live content. */
function namingParts(a: Attempt): string[] {
  const parts = a.captured?.facts.recordParts ?? [];
  const unique = uniqueAtCapture(a);
  if (!unique || unique.length !== parts.length) return [];
  // A text or what a field holds; not a picture (an avatar may stand in many rows) nor a link target.
  return parts.filter((p, i) => unique[i] && /^[tv]:/.test(p));
}

/** The candidate judged against the frame as the first look is: ticking parts the page logged are set aside. */
function judgeCandidate(a: Attempt, c: Candidate): Judgement {
  const then = (a.captured as NonNullable<Attempt['captured']>).facts;
  const strict = a.req.strict === true;
  const distinct = strict ? null : uniqueAtCapture(a);
  // The node may be another (a grid that reuses rows), and its row index is where it is: what is compared
  // is what it shows.
  const was = placeFree(then);
  const now = placeFree({ ...c, backendNodeId: then.backendNodeId }).facts;
  if (then.frame) now.frame = then.frame;
  else delete now.frame;
  const d = distinct?.slice(was.cut) ?? null;
  const j = judge(was.facts, now, { strict, distinct: d });
  // A text that may be ticking holds the candidate for now: the check again at its place (judgeAtCapture)
  // watches it tick or refuses, as at any point.
  return j.maybeTicking.length > 0
    ? judge(was.facts, now, { distinct: d, ticking: new Set(j.maybeTicking.map(([t]) => t)) })
    : j;
}

/** `"TCK-7741"`: how the record is named to the agent (its first naming text). */
const nameOf = (names: string[]) => `"${partText(names[0] ?? '').slice(0, 60)}"`;

/** Where a box lies from the viewport, in words: `412 CSS px below the viewport`. */
function outOfView(box: Box, vw: number, vh: number): string | null {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  if (cy < 0) return `${fmt(-cy)} CSS px above the viewport`;
  if (cy >= vh) return `${fmt(cy - vh)} CSS px below the viewport`;
  if (cx < 0) return `${fmt(-cx)} CSS px left of the viewport`;
  if (cx >= vw) return `${fmt(cx - vw)} CSS px right of the viewport`;
  return null;
}

/** The point at the same place in the element's new box as the model's point was in its box at capture. */
function samePlaceIn(a: Attempt, box: Box, vw: number, vh: number): Point {
  const was = a.captured?.bounds;
  // A mark names the element, not a place in it: its centre.
  const rel =
    was && !a.byMark
      ? { x: (a.page.x - was.x) / (was.width || 1), y: (a.page.y - was.y) / (was.height || 1) }
      : { x: 0.5, y: 0.5 };
  const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));
  const x = clamp(box.x + rel.x * box.width, box.x + 1, box.x + box.width - 1);
  const y = clamp(box.y + rel.y * box.height, box.y + 1, box.y + box.height - 1);
  return { x: Math.round(clamp(x, 0, vw - 1)), y: Math.round(clamp(y, 0, vh - 1)) };
}

/** Moved how far, in words: `96 CSS px up`. */
function moveWords(from: Point, to: Point): string {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const v = Math.abs(dy) >= 1 ? `${fmt(Math.abs(dy))} CSS px ${dy < 0 ? 'up' : 'down'}` : '';
  const h = Math.abs(dx) >= 1 ? `${fmt(Math.abs(dx))} CSS px ${dx < 0 ? 'left' : 'right'}` : '';
  return [v, h].filter(Boolean).join(' and ') || 'in place';
}

/** The refusal as it was, saying why trueclick did not follow the record. */
function notFollowed(refusal: ClickReport, record: string | null, why: string): ClickReport {
  return {
    ...refusal,
    notFollowed: { record, why },
    message: `${refusal.message} Not followed: ${why}.`,
  };
}

export type Recheck = (a: Attempt) => Promise<ClickReport | null>;

/**
 * Finds where the record the frame showed at the point is now and checks the point there (`recheck`: the
 * pipeline's whole check after the capture). Returns the attempt at the new place, or the refusal saying
 * why the record was not followed.
 */
export async function followRecord(
  a: Attempt,
  refusal: ClickReport,
  recheck: Recheck,
): Promise<{ attempt: Attempt; refusal: null } | { attempt: Attempt; refusal: ClickReport }> {
  const no = (record: string | null, why: string) => ({
    attempt: a,
    refusal: notFollowed(refusal, record, why),
  });
  const then = (a.captured as NonNullable<Attempt['captured']>).facts;
  const rec = recordWord(then.recordTag);
  if (a.pixelStage)
    return no(
      null,
      'only its pixels tell this element apart (no record in the DOM), so where it went is not known',
    );
  const names = namingParts(a);
  if (names.length === 0)
    return no(
      null,
      `no text in its ${rec} told it apart from the others in the frame, so which one it is now is not known`,
    );
  const name = nameOf(names);
  const where = await frameDriver(a.ctx.driver, then.frame);
  if (!where) return no(name, 'the frame that held it is gone');
  const want = { tag: then.tag, text: then.text, names, max: MAX_CANDIDATES };
  const found = await where.driver
    .evaluate<Candidate[]>(`window.__trueclick.findRecord(${JSON.stringify(want)})`, where.frameId)
    .catch(() => [] as Candidate[]);
  const inPage = found.map((c) => ({
    c,
    box: mapBox(where.place, c.rect),
    ownView: outOfView(c.rect, c.viewport.width, c.viewport.height),
    j: judgeCandidate(a, c),
  }));
  const full = inPage.filter((x) => names.every((n) => x.c.recordParts?.includes(n)));
  const same = inPage.filter((x) => x.j.diffs.length === 0);
  if (same.length > 1 || full.length > 1)
    return no(
      name,
      `${Math.max(same.length, full.length)} ${rec}s in the page now hold ${name}, so which one is meant is not known`,
    );
  const hit = same[0];
  if (!hit) {
    const changed = inPage.length === 1 ? inPage[0] : undefined;
    if (changed) return no(name, `the ${rec} ${name} changed: ${describeDifferences(changed.j.diffs, then)}`);
    return no(name, `no ${rec} in the page holds ${name} now`);
  }
  const { width, height } = a.viewport;
  const away = hit.ownView ?? outOfView(hit.box, width, height);
  if (away)
    return no(
      name,
      `the ${rec} ${name} is now ${away}, out of view: scroll it into view (browser_scroll) and take a new screenshot`,
    );
  const clip = hit.c.clipped;
  if (clip)
    return no(
      name,
      `the ${rec} ${name} is now ${fmt(clip.px)} CSS px ${clip.side} the visible part of its scrolling list, out of view: scroll the list (browser_scroll on it) and take a new screenshot`,
    );
  if (!hit.c.underPoint)
    return no(name, `something lies on top of the ${rec} ${name} at its new place; take a new screenshot`);
  const to = samePlaceIn(a, hit.box, width, height);
  if (Math.abs(to.x - a.vp.x) < 1 && Math.abs(to.y - a.vp.y) < 1)
    return no(name, `the ${rec} ${name} is still at the point: it changed there`);
  const { changes: _c, setAside: _s, watchedMs: _w, scrollSinceFrame: _sf, ...base } = a.report;
  const was = placeFree(then);
  const captured = a.captured as NonNullable<Attempt['captured']>;
  const b: Attempt = {
    ...a,
    captured: { ...captured, facts: was.facts },
    placeFree: was.cut,
    // At the new place the point is checked, whatever named the element at the old one (a mark).
    byMark: false,
    resolved: { frame: a.resolved.frame, point: a.resolved.point, imagePoint: a.resolved.imagePoint },
    vp: to,
    seen: null,
    live: null,
    pixelStage: null,
    report: { ...base, hitNow: null },
  };
  delete b.peek;
  delete b.ticking;
  delete b.effect;
  const again = await recheck(b);
  if (again)
    return {
      attempt: b,
      refusal: {
        ...again,
        notFollowed: { record: name, why: `at its new place, CSS ${fmtPoint(to)}: ${again.verdict}` },
        message: `The ${rec} ${name} moved ${moveWords(a.vp, to)} since frame ${a.frame?.id}, to CSS ${fmtPoint(to)}; not followed there: ${again.message.replace(/^Not clicked: /, '')}`,
      },
    };
  const diff = refusal.changes?.find((d) => d.field === 'record') ?? refusal.changes?.[0];
  const why = diff
    ? `at the point, ${describeDifferences([diff], then)}`
    : 'the point holds another element now';
  b.report.followed = { from: a.vp, to, record: partText(names[0] ?? ''), why };
  return { attempt: b, refusal: null };
}

/** The sentence an answer that followed a record starts with. */
export function followSentence(r: ClickReport): string {
  const f = r.followed;
  if (!f) return '';
  return `Followed: "${f.record}" moved ${moveWords(f.from, f.to)} since frame ${r.frame} (${f.why}); acted on it at its new place, CSS ${fmtPoint(f.to)}. `;
}
