import { sameElement } from '../../browser/identity/compare-facts.js';
import { toHit } from '../../browser/identity/element-facts.js';
import { frameDriver } from '../../browser/identity/frame-driver.js';
import { toInner } from '../../browser/identity/frame-place.js';
import { release } from '../../browser/identity/guard-end.js';
import {
  type ArmOptions,
  armOn,
  firstLook,
  type GuardEvent,
  inspectAndArm,
  type LiveFacts,
  lookThrough,
  rearm,
  type TickingParts,
} from '../../browser/identity/hit-test.js';
import { lostToNavigation, pollUntil } from '../../browser/plumbing/errors.js';
import { currentScroll, type Modifier, moveMouse } from '../../browser/plumbing/input.js';
import { aDialog } from '../../browser/plumbing/page-events.js';
import { missedInPixels, pixelExpectText } from '../pixels/pixel-expect.js';
import { comparePixels, pixelStage, pixelTimed } from '../pixels/pixels.js';
import { type Attempt, type Intent, presses } from './attempt.js';
import {
  blockedThrough,
  documentGone,
  finalChecks,
  judgeSeen,
  looksThrough,
  missedAtCapture,
} from './check.js';
import { ActionError } from './errors.js';
import { hasSemanticExpect } from './expect.js';
import { followRecord, mayFollow } from './follow.js';
import { judgeHover } from './living.js';
import { type ActionContext, type ClickRequest, resolveTarget, toImage } from './target.js';
import type { ClickReport } from './verdicts.js';
import { fmtPoint } from './verdicts.js';

// The check every action on a point goes through (SPEC S4), as stages over one attempt: resolve the point →
// what it held at capture → where it is now → what it holds now (guard armed when the action presses) →
// judge. What is sent after it (a click, a drag, a hover, a selection, a wheel) is each action's own.

/** How long the in-flight guard stays armed for one action (check → dispatch takes a few ms). */
const ARM_MS = 10_000;

const modifiersOf = (i: Intent): Modifier[] => ('modifiers' in i ? i.modifiers : []);

/** The attempt, checked and ready to act on; or the refusal, with any guard it armed released. */
export async function checkPoint(
  ctx: ActionContext,
  req: ClickRequest,
  intent: Intent,
): Promise<{ attempt: Attempt; refusal: null } | { attempt: Attempt; refusal: ClickReport }> {
  const a = await begin(ctx, req, intent);
  let refusal: ClickReport | null;
  try {
    refusal = await atCapture(a);
    if (!refusal) {
      place(a);
      refusal = await holdNow(a);
    }
  } catch (err) {
    // The old document's world went under a look: the commit, not the look, is what to report.
    refusal = lostToNavigation(err) ? documentGone(a) : null;
    if (!refusal) throw err;
  }
  const gone = documentGone(a);
  if (gone) refusal = gone;
  if (refusal && a.live) await release(a.live);
  if (refusal && !gone && mayFollow(a, refusal)) {
    const moved = await followRecord(a, refusal, holdNow);
    if (moved.refusal && moved.attempt.live) await release(moved.attempt.live);
    return moved;
  }
  return refusal ? { attempt: a, refusal } : { attempt: a, refusal: null };
}

async function begin(ctx: ActionContext, req: ClickRequest, intent: Intent): Promise<Attempt> {
  const { driver } = ctx;
  const resolved = await resolveTarget(ctx, req);
  const { frame, point } = resolved;
  // The first look goes at the point where the frame had it, and reads the viewport too: used when the
  // page has not scrolled since (nearly always), dropped when it has.
  const early =
    frame && !resolved.mark
      ? await firstLook(driver, point, frame.geometry.scroll, req.expect?.selector).catch(() => undefined)
      : undefined;
  const [[innerW, innerH], scrollNow] = early?.view
    ? [[early.view.width, early.view.height], early.view.scroll]
    : await Promise.all([
        driver.evaluate<[number, number]>('window.__trueclick.metrics()'),
        currentScroll(driver),
      ]);
  const report: ClickReport = {
    verdict: 'OK',
    message: '',
    dispatched: null,
    frame: frame?.id ?? null,
    point,
    imagePoint: resolved.imagePoint ?? (frame ? toImage(frame, point) : null),
    hitNow: null,
    hitAtCapture: null,
    mutationsSinceFrame: null,
    frameAgeMs: frame ? Date.now() - frame.capture.capturedAt : null,
  };
  if (req.expect) report.expected = req.expect;
  const fs = frame?.geometry.scroll ?? scrollNow;
  return {
    ctx,
    req,
    intent,
    resolved,
    frame,
    byMark: resolved.mark !== undefined,
    // Whole px, as the live hit-test reads the point (DOM.getNodeForLocation takes integers): at a row's
    // edge both sides must look at the same pixel.
    page: { x: Math.round(point.x + fs.x), y: Math.round(point.y + fs.y) },
    vp: point,
    scrollNow,
    viewport: { width: innerW, height: innerH },
    captured: null,
    seen: null,
    live: null,
    pixelStage: null,
    report,
    ...(early?.facts !== undefined ? { firstSeen: early.facts } : {}),
  };
}

/**
 * What the point held when the model looked, and whether that fits what the model says it meant. Where the
 * element there carries no identity of its own (a canvas), the pixels the model saw are kept for the pixel
 * guard, and text the model expects is read off them.
 */
async function atCapture(a: Attempt): Promise<ClickReport | null> {
  const { frame, resolved, report } = a;
  if (!frame) return null;
  a.captured = resolved.mark
    ? frame.capture.snapshot.findByBackendId(resolved.mark.backendNodeId, resolved.mark.frame)
    : frame.capture.snapshot.topmostAt(a.page.x, a.page.y);
  report.hitAtCapture = a.captured ? toHit(a.captured.facts) : null;
  a.pixelStage = await pixelTimed(a, () => pixelStage(a));
  const expect = a.req.expect;
  if (resolved.mark || !hasSemanticExpect(expect)) return null;
  const want = pixelExpectText(a);
  if (a.pixelStage && want) {
    const px = a.pixelStage;
    const missed = await pixelTimed(a, () => missedInPixels(a, px, want));
    if (missed) return missed;
    // Role and name are the element's own (the canvas's): those the DOM still answers.
    const { text: _t, context: _c, ...rest } = expect;
    return hasSemanticExpect(rest) ? missedAtCapture(a, rest) : null;
  }
  return missedAtCapture(a, expect);
}

/** The point follows the document when the page scrolled since the frame; it must still be in view. */
function place(a: Attempt): void {
  const { frame, report, scrollNow } = a;
  const fs = frame?.geometry.scroll ?? scrollNow;
  const dScroll = { x: scrollNow.x - fs.x, y: scrollNow.y - fs.y };
  const point = a.resolved.point;
  if (frame && !a.byMark && (dScroll.x !== 0 || dScroll.y !== 0)) {
    report.scrollSinceFrame = dScroll;
    a.vp = { x: point.x - dScroll.x, y: point.y - dScroll.y };
  }
  const { vp } = a;
  const { width, height } = a.viewport;
  if (vp.x >= 0 && vp.y >= 0 && vp.x < width && vp.y < height) return;
  if (report.scrollSinceFrame) {
    throw new ActionError(
      'SCROLLED_OUT',
      `The page scrolled by ${fmtPoint(dScroll)} CSS px since frame ${frame?.id}; the point ${fmtPoint(point)} is now at ${fmtPoint(vp)}, outside the ${width}×${height} viewport.`,
      'Take a new screenshot (browser_screenshot), or scroll back with browser_scroll.',
      'frame',
    );
  }
  throw new ActionError(
    'OUTSIDE_VIEWPORT',
    `The point ${fmtPoint(vp)} (CSS px) is outside the ${width}×${height} CSS viewport.`,
    'Pass a point inside the viewport; if you read it off a screenshot, pass `frame` and image pixels.',
    'x',
  );
}

/**
 * What the point holds now: a look before trueclick's pointer moves (the page as the model saw it), judged
 * against the capture; then, for an action that presses, the pointer goes there and the in-flight guard is
 * armed on exactly that element, and the page's answer to the pointer is judged apart (living.ts).
 */
async function holdNow(a: Attempt): Promise<ClickReport | null> {
  await lookFirst(a);
  const refusal = await judgeSeen(a);
  // What holds the point now may be the container a click passes through to (a disabled or inert control
  // takes no pointer): then the control is what the frame showed, and it cannot act.
  if (refusal)
    return ['STALE_TARGET', 'COVERED'].includes(refusal.verdict)
      ? ((await blockedThrough(a, refusal)) ?? refusal)
      : refusal;
  // The pixels are read before trueclick's pointer moves too: a chart answers the hover with an emphasis
  // and a tooltip, which is not what the model saw, nor a change of the page.
  const px = a.pixelStage;
  const pixels = px ? await pixelTimed(a, () => comparePixels(a, px)) : null;
  if (pixels) return pixels;
  if (presses(a.intent)) {
    await pointAndArm(a);
    const hover = judgeHover(a);
    if (hover.refusal) return hover.refusal;
    if (hover.setAside.length) a.report.setAside = [...(a.report.setAside ?? []), ...hover.setAside];
  } else a.live = a.seen;
  return finalChecks(a) ?? blockedThrough(a, null);
}

/** Looks at one element for this attempt: the one under the point, or the mark's element. */
async function look(a: Attempt, armMs: number, ticking?: TickingParts): Promise<LiveFacts | null> {
  const { driver } = a.ctx;
  const opts = lookOptions(a, armMs, ticking);
  const mark = a.resolved.mark;
  // A mark names an element: check that one (a click on its label span reaches it too).
  if (!mark) {
    // Arming what the first look read takes one call when the pointer left it under the point.
    const again = armMs > 0 && a.seen ? await rearm(a.seen, a.vp, opts) : null;
    return again ?? inspectAndArm(driver, a.vp, a.scrollNow, opts);
  }
  const where = await frameDriver(driver, mark.frame);
  if (!where) return null;
  const local = toInner(where.place, a.vp);
  return armOn({ ...where, backendNodeId: mark.backendNodeId, local }, opts);
}

function lookOptions(a: Attempt, armMs: number, ticking?: TickingParts): ArmOptions {
  const opts: ArmOptions = { armMs, selector: a.req.expect?.selector, pressOnly: a.intent.kind === 'drag' };
  if (ticking) opts.ticking = ticking;
  return opts;
}

/** The first look, before any pointer moves; a fixed-position element is looked for where it was. */
async function lookFirst(a: Attempt): Promise<void> {
  const { report, frame } = a;
  const early = a.firstSeen;
  a.firstSeen = undefined;
  a.seen = early !== undefined && !report.scrollSinceFrame ? early : await look(a, 0);
  // A fixed-position element does not follow the document: try the point where it was in the viewport.
  if (a.captured && report.scrollSinceFrame && !(a.seen && sameElement(a.captured.facts, a.seen))) {
    const fixed = await inspectAndArm(a.ctx.driver, a.resolved.point, a.scrollNow, { armMs: 0 });
    if (fixed && sameElement(a.captured.facts, fixed)) {
      a.seen = fixed;
      a.vp = a.resolved.point;
    }
  }
  const { seen } = a;
  report.hitNow = seen ? toHit(seen) : null;
  // The count at capture is the page's own document's; an iframe's guard counts its own document.
  if (seen && frame && !seen.frame)
    report.mutationsSinceFrame = Math.max(0, seen.mutations - frame.capture.mutationCount);
  if (seen?.selectorError) {
    throw new ActionError(
      'BAD_SELECTOR',
      `expect.selector is not a valid CSS selector: ${seen.selectorError}`,
      'Pass a valid CSS selector.',
      'expect.selector',
    );
  }
}

/**
 * The pointer goes to the point, then the guard is armed on what is there. Hover first: its ack waits for a
 * rendered frame, which must not sit inside the armed check → press window (measured: p50 8 ms alongside
 * the check, 2 ms when hovered first).
 */
async function pointAndArm(a: Attempt): Promise<void> {
  const { driver } = a.ctx;
  // The look through the point, where it will be wanted, goes while the move waits for its frame; it is in
  // before the armed look, which must not run beside another look (INSPECT_AND_ARM's `picked`).
  const peek =
    !a.seen?.frame && looksThrough(a)
      ? lookThrough(driver, a.vp, a.scrollNow, a.seen?.backendNodeId)
      : undefined;
  peek?.catch(() => {});
  const moving = moveMouse(driver, a.vp, modifiersOf(a.intent));
  // The armed look goes right behind the move, and the page runs it once it has handled the move.
  const early =
    !a.resolved.mark && a.seen ? rearm(a.seen, a.vp, lookOptions(a, ARM_MS, a.ticking), true) : null;
  early?.catch(() => {});
  const moved = await moving;
  if (peek) {
    await peek.catch(() => null);
    a.peek = peek;
  }
  // A page that opens a dialog on hover is frozen now: nothing more is sent, and the agent is told.
  if (!moved.sent) {
    void early?.then((l) => l && release(l)).catch(() => {});
    throw new ActionError(
      'DIALOG_OPENED',
      `Moving the mouse to CSS ${fmtPoint(a.vp)} made the page open ${aDialog(moved.dialog)} ("${moved.dialog.message.slice(0, 200)}"); nothing was pressed.`,
      'Answer it with browser_handle_dialog, then take a new screenshot.',
      undefined,
      'blocked',
    );
  }
  a.live = (await early?.catch(() => null)) ?? (await look(a, ARM_MS, a.ticking));
  await checkRouting(a);
  const { live, report, frame } = a;
  report.hitNow = live ? toHit(live) : null;
  if (live && frame && !live.frame)
    report.mutationsSinceFrame = Math.max(0, live.mutations - frame.capture.mutationCount);
}

/** How far (CSS px) the pointer may arrive from the checked point in a cross-site iframe. */
const ROUTING_TOLERANCE = 1.5;

/**
 * Where the browser delivers the pointer inside a cross-site iframe. Seen here with Chromium 156: after a
 * Page.captureScreenshot, input routed into an out-of-process iframe can arrive tens of px away from
 * where its layout is (a row beside the link). The guard reports the hover's position; when it is off,
 * the dispatch point is moved until the hover arrives at the checked point, and the click is refused if
 * it never does.
 */
async function checkRouting(a: Attempt): Promise<void> {
  const live = a.live;
  if (!live?.at.driver.remote) return;
  const { driver } = a.ctx;
  const seen = live.at.driver.watchGuard(live.token);
  const arrive = async (p: { x: number; y: number }) => {
    const before = seen.length;
    await moveMouse(driver, { x: p.x + 1, y: p.y });
    await moveMouse(driver, p);
    const moves = () => seen.slice(before).filter((e) => e.type === 'mousemove');
    if (!(await pollUntil(() => moves().length >= 2, 500, 5))) return null;
    const last = moves().at(-1) as GuardEvent;
    return { x: last.x - live.at.local.x, y: last.y - live.at.local.y };
  };
  // The stale mapping is not a plain offset (it was scaled too): walk to the point per axis by secant steps.
  let p = a.vp;
  let off = await arrive(p);
  const first = off;
  if (!off || Math.hypot(off.x, off.y) <= ROUTING_TOLERANCE) return;
  let slope = { x: 1, y: 1 };
  for (let step = 0; step < 4 && off; step++) {
    const next = { x: p.x - off.x / slope.x, y: p.y - off.y / slope.y };
    const got = await arrive(next);
    if (!got) break;
    if (Math.hypot(got.x, got.y) <= ROUTING_TOLERANCE) {
      a.report.routingOffset = { x: next.x - a.vp.x, y: next.y - a.vp.y };
      a.vp = next;
      return;
    }
    const sx = next.x !== p.x ? (got.x - off.x) / (next.x - p.x) : slope.x;
    const sy = next.y !== p.y ? (got.y - off.y) / (next.y - p.y) : slope.y;
    slope = { x: Math.abs(sx) > 0.2 ? sx : slope.x, y: Math.abs(sy) > 0.2 ? sy : slope.y };
    p = next;
    off = got;
  }
  await release(live);
  throw new ActionError(
    'INPUT_MISROUTED',
    `Chromium delivers the pointer into this cross-site iframe ${fmtPoint(first ?? { x: 0, y: 0 })} CSS px away from the checked point, and moving it did not bring it there (${off ? fmtPoint(off) : 'no hover seen'} at the last try); nothing was clicked.`,
    'Take a new screenshot and retry; if it persists, open the iframe’s page in its own tab (browser_navigate to its URL).',
    'x',
  );
}
