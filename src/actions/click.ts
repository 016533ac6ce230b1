import { sameElement, toHit } from '../browser/element-facts.js';
import { armOn, disarm, inspectAndArm } from '../browser/hit-test.js';
import { currentScroll, dispatchClick, moveMouse } from '../browser/input.js';
import type { SnapshotElement } from '../browser/snapshot.js';
import { compare, missedAtCapture } from './check.js';
import { ActionError } from './errors.js';
import { hasSemanticExpect } from './expect.js';
import { type ActionContext, type ClickRequest, resolveTarget, toImage } from './target.js';
import { type ClickReport, fmtPoint } from './verdicts.js';
import { pointSentence, verify } from './verify.js';

export type { ActionContext, ClickRequest } from './target.js';

/** How long the in-flight guard stays armed for one click (check → dispatch takes a few ms). */
const ARM_MS = 3_000;

/**
 * The guarded click (SPEC S4): resolve → compare with capture → hit-test now → dispatch → verify.
 * With `dryRun` it stops before dispatch (browser_point) and never arms a guard that could block input.
 */
export async function guardedClick(
  ctx: ActionContext,
  req: ClickRequest,
  dryRun = false,
): Promise<ClickReport> {
  const { driver } = ctx;
  const resolved = await resolveTarget(ctx, req);
  const { frame, point } = resolved;
  const expect = req.expect;
  const [[innerW, innerH], scrollNow] = await Promise.all([
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
  if (expect) report.expected = expect;

  // What the point held when the model looked.
  let then: SnapshotElement | null = null;
  const fs = frame?.geometry.scroll ?? scrollNow;
  const page = { x: point.x + fs.x, y: point.y + fs.y };
  if (frame && resolved.markNodeId === undefined) {
    then = frame.capture.snapshot.topmostAt(page.x, page.y);
    report.hitAtCapture = then ? toHit(then.facts) : null;
    if (hasSemanticExpect(expect)) {
      const refusal = missedAtCapture(ctx, frame, then, page, point, expect, report);
      if (refusal) return refusal;
    }
  } else if (frame && resolved.markNodeId !== undefined) {
    then = frame.capture.snapshot.findByBackendId(resolved.markNodeId);
    report.hitAtCapture = then ? toHit(then.facts) : null;
  }

  // The point follows the document when the page scrolled since the frame.
  let vp = point;
  const dScroll = { x: scrollNow.x - fs.x, y: scrollNow.y - fs.y };
  if (frame && resolved.markNodeId === undefined && (dScroll.x !== 0 || dScroll.y !== 0)) {
    report.scrollSinceFrame = dScroll;
    vp = { x: point.x - dScroll.x, y: point.y - dScroll.y };
  }
  if (vp.x < 0 || vp.y < 0 || vp.x >= innerW || vp.y >= innerH) {
    if (report.scrollSinceFrame) {
      throw new ActionError(
        'SCROLLED_OUT',
        `The page scrolled by ${fmtPoint(dScroll)} CSS px since frame ${frame?.id}; the point ${fmtPoint(point)} is now at ${fmtPoint(vp)}, outside the ${innerW}×${innerH} viewport.`,
        'Take a new screenshot (browser_screenshot), or scroll back with browser_scroll.',
        'frame',
      );
    }
    throw new ActionError(
      'OUTSIDE_VIEWPORT',
      `The point ${fmtPoint(vp)} (CSS px) is outside the ${innerW}×${innerH} CSS viewport.`,
      'Pass a point inside the viewport; if you read it off a screenshot, pass `frame` and image pixels.',
      'x',
    );
  }

  // Hover before the check: its ack waits for a rendered frame, which must not sit inside the armed
  // check → press window (measured: p50 8 ms alongside the check, 2 ms when hovered first).
  if (!dryRun) await moveMouse(driver, vp);
  const arm = { armMs: dryRun ? 0 : ARM_MS, selector: expect?.selector };
  // A mark names an element: check that one (a click on its label span reaches it too); a point names
  // whatever is topmost there.
  let live =
    resolved.markNodeId !== undefined
      ? await armOn(driver, resolved.markNodeId, vp, arm)
      : await inspectAndArm(driver, vp, scrollNow, arm);
  // A fixed-position element does not follow the document: try the point where it was in the viewport.
  if (then && report.scrollSinceFrame && !(live && sameElement(then.facts, live))) {
    const fixed = await inspectAndArm(driver, point, scrollNow, arm);
    if (fixed && sameElement(then.facts, fixed)) {
      live = fixed;
      vp = point;
    }
  }
  report.hitNow = live ? toHit(live) : null;
  if (live && frame) report.mutationsSinceFrame = Math.max(0, live.mutations - frame.capture.mutationCount);
  if (live?.selectorError) {
    await disarm(driver);
    throw new ActionError(
      'BAD_SELECTOR',
      `expect.selector is not a valid CSS selector: ${live.selectorError}`,
      'Pass a valid CSS selector.',
      'expect.selector',
    );
  }

  const refusal = await compare(
    ctx,
    frame,
    then,
    live,
    page,
    vp,
    report,
    expect,
    resolved.markNodeId !== undefined,
  );
  if (refusal || dryRun) {
    await disarm(driver);
    if (dryRun && !refusal) report.message = pointSentence(report);
    return refusal ?? report;
  }

  const loaderBefore = driver.loaderId;
  report.dispatched = vp;
  try {
    await dispatchClick(driver, vp, { button: req.button, clickCount: req.click_count });
  } catch (err) {
    // Some events may have gone out: never answer "nothing was clicked" after sending input.
    await disarm(driver).catch(() => null);
    return {
      ...report,
      verdict: 'UNVERIFIED',
      message: `The click at CSS ${fmtPoint(vp)} was sent but not confirmed (${(err as Error).message}). Take a new screenshot to see whether it took effect before you retry.`,
    };
  }
  const navigated = driver.loaderId !== loaderBefore;
  const guard = navigated ? null : await disarm(driver).catch(() => null);
  return verify(report, guard, live, navigated, driver);
}
