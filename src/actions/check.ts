import { describeHit, sameElement, toHit } from '../browser/element-facts.js';
import { type LiveFacts, nodeNow } from '../browser/hit-test.js';
import type { SnapshotElement } from '../browser/snapshot.js';
import { boundsContain, type Expect, findExpected, hasSemanticExpect, hitMatches } from './expect.js';
import type { FrameRecord } from './frames.js';
import { type ActionContext, centre, toImage } from './target.js';
import { type ClickReport, fmtPoint, type Point } from './verdicts.js';

// Before dispatch: does the point still hold what the model saw, and what it says it means?

/** Something now on top that was not at this point at capture (toast, modal), while the target is still there. */
async function isCover(
  ctx: ActionContext,
  frame: FrameRecord,
  then: SnapshotElement,
  live: LiveFacts,
  page: Point,
  vp: Point,
): Promise<boolean> {
  const wasThere = frame.capture.snapshot.findByBackendId(live.backendNodeId);
  if (wasThere && boundsContain(wasThere.bounds, page.x, page.y)) return false;
  const target = await nodeNow(ctx.driver, then.facts.backendNodeId);
  return Boolean(target?.connected && target.rect && boundsContain(target.rect, vp.x, vp.y));
}

export function missedAtCapture(
  ctx: ActionContext,
  frame: FrameRecord,
  then: SnapshotElement | null,
  page: Point,
  point: Point,
  expect: Expect,
  report: ClickReport,
): ClickReport | null {
  const view = { ...frame.geometry.scroll, ...frame.geometry.css };
  const candidates = findExpected(frame.capture.snapshot, expect, view);
  const holds =
    candidates.some((c) => boundsContain(c.bounds, page.x, page.y)) ||
    (then !== null && hitMatches(toHit(then.facts), expect));
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
  const offsetCss = { x: point.x - target.x, y: point.y - target.y };
  report.expectedAt = { css: target, image: toImage(frame, target), offsetCss };
  ctx.misses.add(target, point);
  const problem = ctx.misses.frameProblem();
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
    message: `Not clicked: at capture the point ${fmtPoint(point)} CSS held ${describeHit(report.hitAtCapture)}, not ${describeHit(toHit(best.facts))}. That element was at image px ${fmtPoint(img)} = CSS ${fmtPoint(target)} in frame ${frame.id}, ${fmtPoint(offsetCss)} CSS px from your point. To click it: x ${Math.round(img.x)}, y ${Math.round(img.y)}, frame "${frame.id}".`,
  };
}

export async function compare(
  ctx: ActionContext,
  frame: FrameRecord | undefined,
  then: SnapshotElement | null,
  live: LiveFacts | null,
  page: Point,
  vp: Point,
  report: ClickReport,
  expect: Expect | undefined,
  byMark = false,
): Promise<ClickReport | null> {
  if (byMark && live && !live.underPoint) {
    // A mark's element is still there, but a click at its centre would reach something on top of it.
    const cover = live.onTop ? toHit({ ...live.onTop, backendNodeId: -1 }) : null;
    return {
      ...report,
      hitNow: cover,
      verdict: 'COVERED',
      message: `Not clicked: ${describeHit(cover)} lies on top of mark ${describeHit(toHit(live))} at CSS ${fmtPoint(vp)}. Dismiss or wait out the cover, then take a new screenshot.`,
    };
  }
  if (frame && then && !(live && sameElement(then.facts, live))) {
    const age = `${report.frameAgeMs} ms ago${report.mutationsSinceFrame !== null ? `, ${report.mutationsSinceFrame} DOM mutations since` : ''}`;
    if (live && (await isCover(ctx, frame, then, live, page, vp))) {
      return {
        ...report,
        verdict: 'COVERED',
        message: `Not clicked: ${describeHit(report.hitNow)} now lies on top of the point; it was not there in frame ${frame.id} (${age}), where the point held ${describeHit(report.hitAtCapture)}. Dismiss or wait out the cover, then take a new screenshot.`,
      };
    }
    return {
      ...report,
      verdict: 'STALE_TARGET',
      message: `Not clicked: the page changed under the point since frame ${frame.id} (${age}). At capture it held ${describeHit(report.hitAtCapture)}; now it holds ${describeHit(report.hitNow)}. Take a new screenshot (browser_screenshot) and find the target again.`,
    };
  }
  if (frame && !then && live) {
    // Nothing at capture (blank area), something now: the page changed.
    return {
      ...report,
      verdict: 'STALE_TARGET',
      message: `Not clicked: in frame ${frame.id} the point held nothing; now it holds ${describeHit(report.hitNow)}. Take a new screenshot.`,
    };
  }
  if (!frame && hasSemanticExpect(expect) && !(report.hitNow && hitMatches(report.hitNow, expect))) {
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
  return null;
}
