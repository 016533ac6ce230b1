import { type Difference, describeDifferences, sameElement } from '../../browser/identity/compare-facts.js';
import {
  ACTIONABLE_ROLES,
  ACTIONABLE_TAGS,
  describeHit,
  type ElementFacts,
  toHit,
} from '../../browser/identity/element-facts.js';
import { nodeNow } from '../../browser/identity/frame-driver.js';
import { type LiveFacts, lookThrough } from '../../browser/identity/hit-test.js';
import type { PageDriver } from '../../browser/plumbing/page-driver.js';
import { conventionFor, frameOrigin, toConvention } from '../../geometry/index.js';
import type { Attempt } from './attempt.js';
import { boundsContain, type Expect, findExpected, hasSemanticExpect, hitMatches } from './expect.js';
import { judgeAtCapture } from './living.js';
import { centre, targetFields, toImage } from './target.js';
import { type ClickReport, fmt, fmtPoint } from './verdicts.js';

// Before dispatch: does the point still hold what the model saw, and what it says it means?

/** Whether the element now at the point was there at capture too: then nothing new lies on top of it. */
export function heldAtCapture(a: Attempt, live: LiveFacts): boolean {
  const wasThere = a.frame?.capture.snapshot.findByBackendId(live.backendNodeId, live.frame);
  return Boolean(wasThere && boundsContain(wasThere.bounds, a.page.x, a.page.y));
}

/** Where the captured element is now (nodeNow): whether it is still in the page, and its box. */
export type TargetNow = {
  connected: boolean;
  rect?: { x: number; y: number; width: number; height: number };
};

/** At capture, did the point hold what `expect` describes? If not: where that element was, or a frame error. */
export function missedAtCapture(a: Attempt, expect: Expect): ClickReport | null {
  const frame = a.frame;
  if (!frame) return null;
  const { report, captured, page } = a;
  const point = a.resolved.point;
  const o = frameOrigin(frame.geometry);
  const view = { x: frame.geometry.scroll.x + o.x, y: frame.geometry.scroll.y + o.y, ...frame.geometry.css };
  const snapshot = frame.capture.snapshot;
  const candidates = findExpected(snapshot, expect, view);
  // The point holds the target when it is on one of the described elements, or on a part of one (the
  // label span inside the button): never merely on a container whose text includes the target's.
  const holds =
    captured !== null &&
    candidates.some((c) => boundsContain(c.bounds, page.x, page.y) || snapshot.contains(c, captured));
  if (holds) return null;
  const best = candidates[0];
  if (!best) {
    return {
      ...report,
      verdict: 'MISSED_TARGET',
      message: `Not clicked: at capture the point ${fmtPoint(point)} held ${describeHit(report.hitAtCapture)}, and nothing in frame ${frame.id} fits expect ${JSON.stringify(expect)}. Check the description, or scroll and take a new screenshot if the target is off-screen.`,
    };
  }
  const target = {
    x: centre(best.bounds).x - frame.geometry.scroll.x,
    y: centre(best.bounds).y - frame.geometry.scroll.y,
  };
  return missReport(
    a,
    target,
    `held ${describeHit(report.hitAtCapture)}, not ${describeHit(toHit(best.facts))}. That element`,
  );
}

/**
 * MISSED_TARGET for a point that was not on the described target, which the frame showed at `target` (CSS px
 * of the viewport at capture); `said` tells what the point held and names the target ("That element" or
 * "OCR found it"). A run of misses that fit one transform is FRAME_MISMATCH instead.
 */
export function missReport(a: Attempt, target: { x: number; y: number }, said: string): ClickReport {
  const frame = a.frame as NonNullable<Attempt['frame']>;
  const { report } = a;
  const point = a.resolved.point;
  const offsetCss = { x: point.x - target.x, y: point.y - target.y };
  report.expectedAt = { css: target, image: toImage(frame, target), offsetCss };
  a.ctx.misses.add(target, point);
  const problem = a.ctx.misses.frameProblem();
  if (problem) {
    return {
      ...report,
      verdict: 'FRAME_MISMATCH',
      diagnosis: problem,
      message: `Not clicked: your last ${problem.samples} misses fit one transform (x scale ${problem.scale.x.toFixed(3)}, y scale ${problem.scale.y.toFixed(3)}, offset ${fmtPoint(problem.offset)} CSS px): ${problem.message} Read points off the latest frame in its own image pixels and pass \`frame\` (with \`shown_width\` if your client showed the image at another width).`,
    };
  }
  const img = report.expectedAt.image;
  return {
    ...report,
    verdict: 'MISSED_TARGET',
    message: `Not clicked: at capture the point ${fmtPoint(point)} CSS ${said} was at image px ${fmtPoint(img)} = CSS ${fmtPoint(target)} in frame ${frame.id}: your point is ${direction(offsetCss)}. To click it: ${asSent(a, target)}, frame "${frame.id}".`,
  };
}

/**
 * The target as the agent would write it, in the convention it sent (a Gemini model's 0–999 grid, a
 * Qwen2.5-VL model's resized pixels, pixels of an image shown at shown_width), so the advice can be used
 * as it is: `x 78, y 400 (permille, model gemini)`.
 */
function asSent(a: Attempt, target: { x: number; y: number }): string {
  const frame = a.frame;
  if (!frame) return `CSS x ${Math.round(target.x)}, y ${Math.round(target.y)}`;
  try {
    const conv = conventionFor({ ...targetFields(a.req), axis_order: 'xy' }, frame.geometry);
    const [x = 0, y = 0] = toConvention(target, conv, frame.geometry);
    const plain =
      conv.units === 'px' && !conv.model && conv.shown_width === undefined && conv.shown_height === undefined;
    const how = plain
      ? ''
      : ` (${conv.units}${conv.model ? `, model ${conv.model}` : ''}${conv.shown_width !== undefined ? `, of the image shown ${conv.shown_width} px wide` : ''})`;
    const round = (v: number) => (conv.units === 'normalized' ? Math.round(v * 1000) / 1000 : Math.round(v));
    return `x ${round(x)}, y ${round(y)}${how}`;
  } catch {
    const img = toImage(frame, target);
    return `x ${Math.round(img.x)}, y ${Math.round(img.y)} (image px)`;
  }
}

/** `412 CSS px right of it and 38 CSS px below it`: where the agent's point lies from the target, in words. */
function direction(d: { x: number; y: number }): string {
  const h =
    Math.abs(d.x) < 0.5 ? '' : `${fmt(Math.abs(d.x))} CSS px ${d.x > 0 ? 'right of it' : 'left of it'}`;
  const v = Math.abs(d.y) < 0.5 ? '' : `${fmt(Math.abs(d.y))} CSS px ${d.y > 0 ? 'below it' : 'above it'}`;
  return [h, v].filter(Boolean).join(' and ') || 'on its centre';
}

/** A mark's element is still there, but a click at its centre would reach something on top of it. */
function markCovered(a: Attempt, f: LiveFacts | null): ClickReport | null {
  if (!a.byMark || !f || f.underPoint) return null;
  const cover = f.onTop ? toHit({ ...f.onTop, backendNodeId: -1 }) : null;
  return {
    ...a.report,
    hitNow: cover,
    verdict: 'COVERED',
    message: `Not clicked: ${describeHit(cover)} lies on top of mark ${describeHit(toHit(f))} at CSS ${fmtPoint(a.vp)}. Dismiss or wait out the cover, then take a new screenshot.`,
  };
}

/**
 * The first look against the frame, before trueclick's pointer moved: is the point still on what the model
 * saw (same fingerprint, live content set aside), and uncovered?
 */
export async function judgeSeen(a: Attempt): Promise<ClickReport | null> {
  const covered = markCovered(a, a.seen);
  if (covered) return covered;
  const { captured } = a;
  if (!a.frame || !captured) return null;
  const j = a.seen ? await judgeAtCapture(a, a.seen) : null;
  if (j?.setAside.length) a.report.setAside = j.setAside;
  if (j && j.diffs.length === 0) return null;
  // Where the captured element is now decides a cover; it is asked only when something new holds the point.
  const targetNow =
    a.seen && !heldAtCapture(a, a.seen)
      ? await nodeNow(a.ctx.driver, captured.facts.backendNodeId, captured.facts.frame)
      : null;
  return seenRefusal(a, j ? j.diffs : null, targetNow);
}

/**
 * The verdict on a first look that differs from the capture (`diffs`; null when nothing is at the point now):
 * COVERED when the captured element still lies under the point beneath something new (`targetNow`: where it
 * is now, given only when what holds the point was not there at capture), else STALE_TARGET, naming the changes.
 */
export function seenRefusal(
  a: Attempt,
  diffs: Difference[] | null,
  targetNow: TargetNow | null,
): ClickReport {
  const { frame, captured, report } = a;
  const age = `${report.frameAgeMs} ms ago${report.mutationsSinceFrame !== null ? `, ${report.mutationsSinceFrame} DOM mutations since` : ''}`;
  const cover = Boolean(
    targetNow?.connected && targetNow.rect && boundsContain(targetNow.rect, a.vp.x, a.vp.y),
  );
  if (cover) {
    return {
      ...report,
      verdict: 'COVERED',
      message: `Not clicked: ${describeHit(report.hitNow)} now lies on top of the point; it was not there in frame ${frame?.id} (${age}), where the point held ${describeHit(report.hitAtCapture)}. Dismiss or wait out the cover, then take a new screenshot.`,
    };
  }
  report.changes = diffs ?? [];
  const what = diffs?.length && captured ? ` (${describeDifferences(diffs, captured.facts)})` : '';
  return {
    ...report,
    verdict: 'STALE_TARGET',
    message: `Not clicked: the page changed under the point since frame ${frame?.id} (${age}). At capture it held ${describeHit(report.hitAtCapture)}; now it holds ${describeHit(report.hitNow)}${what}. Take a new screenshot (browser_screenshot) and find the target again.`,
  };
}

/** Names the document the tab loaded since `loaderId` (a reload, a link), or null while it holds that one. */
export function newDocument(driver: PageDriver, loaderId: string): string | null {
  return driver.loaderId === loaderId ? null : `the tab loaded a new document (${driver.url})`;
}

/**
 * Refused when the tab committed another document since the frame (a reload, a link, a redirect) while the
 * point was being checked: a page drawn again alike (the same heading, a list reloaded) holds other nodes and
 * maybe other data, so nothing the look found there vouches for what the frame shows.
 */
export function documentGone(a: Attempt): ClickReport | null {
  const { frame, report } = a;
  const gone = frame && newDocument(a.ctx.driver, frame.capture.loaderId);
  if (!gone) return null;
  return {
    ...report,
    verdict: 'STALE_TARGET',
    message: `Not clicked: ${gone} while trueclick checked the point against frame ${frame.id} (${report.frameAgeMs} ms old), so what the frame shows is gone. Take a new screenshot (browser_screenshot) and find the target again.`,
  };
}

/** What the element now under the point must also be: what `expect` describes, when no frame says. */
export function finalChecks(a: Attempt): ClickReport | null {
  const { frame, live, report } = a;
  const expect = a.req.expect;
  const covered = markCovered(a, live);
  if (covered) return covered;
  if (
    !frame &&
    hasSemanticExpect(expect) &&
    !(report.hitNow && !live?.background && hitMatches(report.hitNow, expect))
  ) {
    return {
      ...report,
      verdict: 'MISSED_TARGET',
      message: `Not clicked: the point holds ${describeHit(report.hitNow)}, which does not fit expect ${JSON.stringify(expect)}. Take a screenshot and pass its frame to find where the target is.`,
    };
  }
  if (expect?.selector && live && live.matchesSelector === false) {
    return {
      ...report,
      verdict: 'MISSED_TARGET',
      message: `Not clicked: ${describeHit(report.hitNow)} under the point does not match expect.selector ${JSON.stringify(expect.selector)}. Take a screenshot and read the point again.`,
    };
  }
  return cannotAct(a);
}

const WHY: Record<string, string> = {
  disabled: 'it is disabled',
  fieldset: 'it is in a disabled fieldset',
  'aria-disabled': 'it is marked aria-disabled="true"',
  inert: 'it is in an inert part of the page (no pointer or key reaches it)',
  readonly: 'the field is read-only',
};

/**
 * DISABLED: the element is the one the frame showed, and a press on it would do nothing (a disabled control,
 * an inert region, a read-only field to type into). Said whether the frame already showed it so (the model
 * misread the screenshot) or it became so since (the page changed, and may say why).
 */
function cannotAct(a: Attempt): ClickReport | null {
  const { live } = a;
  if (!actsOn(a) || !live) return null;
  const stop =
    live.blocked ??
    (a.req.typing && live.readonly
      ? { reason: 'readonly' as const, tag: live.tag, text: live.text }
      : undefined);
  if (!stop) return null;
  const then = a.captured?.facts.blocked;
  return disabledReport(a, live, stop, Boolean(then && then.reason === stop.reason));
}

/** Intents whose point must be able to act (a hover, a wheel or a look need not). */
const actsOn = (a: Attempt) => !['hover', 'scroll', 'point'].includes(a.intent.kind);

const isControl = (f: ElementFacts) =>
  ACTIONABLE_TAGS.includes(f.tag) || ACTIONABLE_ROLES.includes(f.role) || Boolean(f.actionable);

/**
 * A click that passes through what is drawn at the point reaches a container, not the control the eye
 * sees: Bootstrap gives a disabled button `pointer-events: none`, and a page inert behind a dialog takes no
 * pointer at all. Looked at through them, the control there is what the frame showed (or what the agent
 * would mean) and it cannot act: DISABLED, with why; `stale` is the refusal it replaces (the hit moved to the
 * container since the frame).
 */
export async function blockedThrough(a: Attempt, stale: ClickReport | null): Promise<ClickReport | null> {
  if (!looksThrough(a)) return null;
  const peek = a.peek !== undefined ? await a.peek : await lookThrough(a.ctx.driver, a.vp, a.scrollNow);
  return throughVerdict(a, stale, peek);
}

/** Whether blockedThrough must look through the point: an action that acts, on a point with no control. */
export function looksThrough(a: Attempt): boolean {
  const seen = a.live ?? a.seen;
  return actsOn(a) && !(seen && isControl(seen));
}

/**
 * The verdict on what the point holds looked at through what is drawn there (`peek`), for an action that
 * must act on a point that holds no control (blockedThrough asks only then); see blockedThrough.
 */
export function throughVerdict(
  a: Attempt,
  stale: ClickReport | null,
  peek: ElementFacts | null,
): ClickReport | null {
  const seen = a.live ?? a.seen;
  if (!peek?.blocked || (seen && sameElement(seen, peek))) return null;
  if (stale && !(a.captured && sameElement(a.captured.facts, peek))) return null;
  // Unchanged since the frame: the frame showed the point passing through too (it looked greyed out). The
  // snapshot hit-tests by layout, through inert and pointer-events: none: it names the control itself, and
  // says whether it was already blocked then.
  const then = a.captured?.facts.blocked;
  const inFrame =
    (!stale && Boolean(a.captured && seen && sameElement(a.captured.facts, seen))) ||
    Boolean(a.captured && sameElement(a.captured.facts, peek) && then?.reason === peek.blocked.reason);
  a.report.hitNow = toHit(peek);
  return disabledReport(a, peek, peek.blocked, inFrame);
}

function disabledReport(
  a: Attempt,
  el: ElementFacts,
  stop: NonNullable<ElementFacts['blocked']> | { reason: 'readonly'; tag: string; text: string },
  inFrame: boolean,
): ClickReport {
  const { report } = a;
  const by =
    stop.tag === el.tag && stop.text === el.text
      ? ''
      : ` (${stop.tag.toLowerCase()} "${stop.text.slice(0, 60)}")`;
  const next = inFrame
    ? 'It was so in the frame too (it looks greyed out there): do what enables it first, or choose another control.'
    : a.frame
      ? `It became so after frame ${a.frame.id}: the page changed; take a new screenshot, it may say why.`
      : 'Take a screenshot: the page may say why, or what enables it.';
  return {
    ...report,
    verdict: 'DISABLED',
    disabled: {
      reason: stop.reason,
      by: { tag: stop.tag.toLowerCase(), text: stop.text.slice(0, 160) },
      inFrame,
    },
    message: `Not clicked: ${describeHit(report.hitNow)} cannot act: ${WHY[stop.reason] ?? stop.reason}${by}. ${next}`,
  };
}
