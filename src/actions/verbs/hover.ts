import { describeHit, toHit } from '../../browser/identity/element-facts.js';
import { inspectAndArm } from '../../browser/identity/hit-test.js';
import { nullIfNavigated } from '../../browser/plumbing/errors.js';
import { type Modifier, moveMouse } from '../../browser/plumbing/input.js';
import { newDocument } from '../check/check.js';
import { checkPoint } from '../check/pipeline.js';
import type { ActionContext, ClickRequest } from '../check/target.js';
import { type ClickReport, fmtPoint } from '../check/verdicts.js';

/**
 * Moves the mouse to a checked point (a menu that opens on hover). Nothing is pressed, so no guard is armed:
 * the check refuses a point whose element changed since the frame, and after the move `landed` says what
 * the pointer is over now.
 */
export async function guardedHover(
  ctx: ActionContext,
  req: ClickRequest,
  modifiers: Modifier[] = [],
): Promise<ClickReport> {
  const { attempt: a, refusal } = await checkPoint(ctx, req, { kind: 'hover', modifiers });
  if (refusal) return refusal;
  const { driver } = ctx;
  const { report } = a;
  report.dispatched = a.vp;
  const doc = driver.loaderId;
  const moved = await moveMouse(driver, a.vp, modifiers);
  // A dialog opened by the hover freezes the page: nothing under the pointer can be read until it is answered.
  const now = moved.sent
    ? await inspectAndArm(driver, a.vp, a.scrollNow, { armMs: 0 }).catch(nullIfNavigated)
    : null;
  const gone = newDocument(driver, doc);
  report.landed = now ? toHit(now) : null;
  const same = report.hitNow && report.landed && report.hitNow.nodeId === report.landed.nodeId;
  const img =
    report.frame && report.imagePoint
      ? ` (frame ${report.frame} image px ${fmtPoint(report.imagePoint)})`
      : '';
  report.message = `Moved the mouse to CSS ${fmtPoint(a.vp)}${img}, over ${describeHit(report.hitNow)}${report.frame ? ', the element that was there in the frame' : ''}${gone ? `; then ${gone}` : same ? '' : `; the pointer is now over ${describeHit(report.landed)}`}. Take a screenshot to see what the hover opened.`;
  return report;
}
