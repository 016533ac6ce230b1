import type { ElementFacts } from '../../browser/identity/element-facts.js';
import { describeHit, toHit } from '../../browser/identity/element-facts.js';
import { callOnNode } from '../../browser/identity/frame-driver.js';
import { type LiveTarget, locate } from '../../browser/identity/hit-test.js';
import { currentScroll, type Modifier, wheel } from '../../browser/plumbing/input.js';
import { aDialog, type DialogInfo } from '../../browser/plumbing/page-events.js';
import { newDocument } from '../check/check.js';
import { checkPoint } from '../check/pipeline.js';
import type { ActionContext, ClickRequest } from '../check/target.js';
import { type ClickReport, fmtPoint, type Point } from '../check/verdicts.js';

/** The box the wheel scrolls at a point, and how far it is scrolled (CSS px). */
interface Scroller {
  what: Omit<ElementFacts, 'backendNodeId'> | null;
  /** The document itself scrolls (no inner scroll container under the point). */
  page: boolean;
  left: number;
  top: number;
}

/**
 * The report of a wheel scroll: the ClickReport fields describe the checked point the wheel turned at (CSS
 * viewport px), and the rest says what scrolled and by how many CSS px.
 */
export interface ScrollReport extends ClickReport {
  /** What the wheel scrolled: an inner container, or the page. */
  scrolled?: { page: boolean; element: ReturnType<typeof toHit> | null };
  /** CSS px the container (or the page) moved: positive = right / down. */
  moved?: Point;
  /** Its scroll offset after the wheel, CSS px. */
  offset?: Point;
  /** The page's scroll offset after the wheel, CSS px. */
  scroll?: Point;
  dialog?: DialogInfo;
}

// The nearest box around `this` that can scroll along the wheel's direction, or the document.
const SCROLLER_OF = `function (dx, dy) {
  const g = window.__trueclick;
  const can = (el) => {
    const s = getComputedStyle(el);
    const y = dy !== 0 && /(auto|scroll|overlay)/.test(s.overflowY) && el.scrollHeight > el.clientHeight;
    const x = dx !== 0 && /(auto|scroll|overlay)/.test(s.overflowX) && el.scrollWidth > el.clientWidth;
    return x || y;
  };
  let el = this.nodeType === 1 ? this : this.parentElement;
  while (el && el !== document.documentElement && el !== document.body && !can(el)) {
    el = el.assignedSlot || el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
  }
  const page = !el || el === document.documentElement || el === document.body;
  const box = page ? document.scrollingElement : el;
  return { what: page ? null : g.facts(g.canonical(el)), page, left: box.scrollLeft, top: box.scrollTop };
}`;

function scrollerAt(at: LiveTarget, dx: number, dy: number): Promise<Scroller | null> {
  return callOnNode<Scroller>(at.driver, at.frameId, at.backendNodeId, SCROLLER_OF, [dx, dy]);
}

/** Largest wheel delta per event: Chromium scrolls a huge delta in one go, but the ack then waits for it. */
const WHEEL_STEP = 3_000;

/**
 * The mouse wheel at a point: the browser scrolls the scroll container under it (a list, a grid, an
 * iframe), or the page. With a frame point the point is checked first, like a click. The report says what
 * scrolled and by how much, read from that container before and after.
 */
export async function scrollAt(
  ctx: ActionContext,
  target: ClickRequest | undefined,
  delta: Point,
  modifiers: Modifier[] = [],
): Promise<ScrollReport> {
  const { driver } = ctx;
  let report: ScrollReport;
  let vp: Point;
  if (target) {
    const { attempt, refusal } = await checkPoint(ctx, target, { kind: 'scroll' });
    if (refusal) return refusal;
    report = attempt.report;
    vp = attempt.vp;
  } else {
    const [w, h] = await driver.evaluate<[number, number]>('window.__trueclick.metrics()');
    vp = { x: w / 2, y: h / 2 };
    report = {
      verdict: 'OK',
      message: '',
      dispatched: null,
      frame: null,
      point: vp,
      imagePoint: null,
      hitNow: null,
      hitAtCapture: null,
      mutationsSinceFrame: null,
      frameAgeMs: null,
    };
  }
  const doc = driver.loaderId;
  const at = await locate(driver, vp, await currentScroll(driver));
  const before = at ? await scrollerAt(at, delta.x, delta.y) : null;
  report.dispatched = vp;
  let left = { ...delta };
  while (left.x !== 0 || left.y !== 0) {
    const step = {
      x: Math.sign(left.x) * Math.min(Math.abs(left.x), WHEEL_STEP),
      y: Math.sign(left.y) * Math.min(Math.abs(left.y), WHEEL_STEP),
    };
    const out = await wheel(driver, vp, step.x, step.y, modifiers);
    if (!out.sent) {
      report.dialog = out.dialog;
      report.message = `Scrolled at CSS ${fmtPoint(vp)}; the page opened ${aDialog(out.dialog)} ("${out.dialog.message}"): answer it with browser_handle_dialog.`;
      return report;
    }
    left = { x: left.x - step.x, y: left.y - step.y };
  }
  // Smooth scrolling animates: read until two readings agree.
  let after = at ? await scrollerAt(at, delta.x, delta.y) : null;
  for (let i = 0; i < 30 && at && after; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const again = await scrollerAt(at, delta.x, delta.y);
    if (!again || (again.left === after.left && again.top === after.top)) break;
    after = again;
  }
  const gone = newDocument(driver, doc);
  if (gone) {
    report.verdict = 'UNVERIFIED';
    report.message = `Sent the wheel at CSS ${fmtPoint(vp)}, but ${gone} meanwhile: what it scrolled is not known. Take a new screenshot.`;
    return report;
  }
  report.scroll = await currentScroll(driver);
  const element = before?.what ? toHit({ ...before.what, backendNodeId: -1 }) : null;
  report.scrolled = { page: before?.page ?? true, element };
  if (before && after) {
    report.moved = { x: after.left - before.left, y: after.top - before.top };
    report.offset = { x: after.left, y: after.top };
  }
  const what = report.scrolled.page ? 'the page' : describeHit(element);
  const moved = report.moved ?? { x: 0, y: 0 };
  const short = moved.x !== delta.x || moved.y !== delta.y;
  report.message = `Scrolled ${what} by ${fmtPoint(moved)} CSS px with the wheel at CSS ${fmtPoint(vp)}${short ? ` (asked for ${fmtPoint(delta)}; it could not scroll further)` : ''}; its scroll offset is now ${fmtPoint(report.offset ?? { x: 0, y: 0 })}. Take a new screenshot to see it.`;
  return report;
}
