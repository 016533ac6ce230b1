import { describeHit, type ElementFacts, type Hit, sameElement, toHit } from '../browser/element-facts.js';
import { disarm, inspectAndArm, type LiveFacts, nodeNow } from '../browser/hit-test.js';
import { currentScroll, dispatchClick, moveMouse } from '../browser/input.js';
import type { PageDriver } from '../browser/page-driver.js';
import type { SnapshotElement } from '../browser/snapshot.js';
import { GeometryError, resolveRequest, type TargetRequest } from '../geometry/index.js';
import { ActionError } from './errors.js';
import { boundsContain, type Expect, findExpected, hasSemanticExpect, hitMatches } from './expect.js';
import type { FrameRecord, FrameStore } from './frames.js';
import type { MissLog } from './misses.js';
import { type ClickReport, fmtPoint, type Point } from './verdicts.js';

export interface ClickRequest extends TargetRequest {
  frame?: string;
  mark?: number;
  expect?: Expect;
  button?: 'left' | 'right' | 'middle';
  click_count?: number;
}

export interface ActionContext {
  driver: PageDriver;
  frames: FrameStore;
  misses: MissLog;
}

/** How long the in-flight guard stays armed for one click (check → dispatch takes a few ms). */
const ARM_MS = 3_000;

interface Resolved {
  frame: FrameRecord | undefined;
  point: Point;
  imagePoint: Point | null;
  /** For mark clicks: the marked element, looked up by identity at dispatch time. */
  markNodeId?: number;
}

function targetFields(req: ClickRequest): TargetRequest {
  const { frame: _f, mark: _m, expect: _e, button: _b, click_count: _c, ...target } = req;
  return target;
}

async function resolveTarget(ctx: ActionContext, req: ClickRequest): Promise<Resolved> {
  const frame = req.frame ? ctx.frames.get(req.frame, ctx.driver) : undefined;
  if (req.mark !== undefined) {
    if (req.x !== undefined || req.y !== undefined || req.box || req.model_output) {
      throw new ActionError(
        'TWO_TARGETS',
        'Pass exactly one target: `mark`, or x/y, or box, or model_output.',
        'Drop all but one.',
        'mark',
      );
    }
    if (!frame)
      throw new ActionError(
        'FRAME_REQUIRED',
        '`mark` needs the `frame` whose screenshot showed the marks.',
        'Pass frame with the mark.',
        'frame',
      );
    const mark = frame.marks?.find((m) => m.id === req.mark);
    if (!mark) {
      throw new ActionError(
        'UNKNOWN_MARK',
        `Frame ${frame.id} has no mark [${req.mark}]${frame.marks ? ` (it has 1–${frame.marks.length})` : ' (it was taken without marks)'}.`,
        'Take browser_screenshot with marks: true and pick a number from its list.',
        'mark',
      );
    }
    const now = await nodeNow(ctx.driver, mark.backendNodeId);
    if (!now?.connected || !now.rect || now.rect.width <= 0 || now.rect.height <= 0) {
      throw new ActionError(
        'MARK_GONE',
        `Mark [${mark.id}] (${describeHit(mark.hit)}) is no longer on the page.`,
        'Take a new screenshot with marks: true.',
        'mark',
      );
    }
    const point = { x: now.rect.x + now.rect.width / 2, y: now.rect.y + now.rect.height / 2 };
    return { frame, point, imagePoint: null, markNodeId: mark.backendNodeId };
  }
  try {
    const r = resolveRequest(targetFields(req), frame?.geometry);
    return { frame, point: r.css, imagePoint: r.image ?? null };
  } catch (err) {
    if (err instanceof GeometryError) throw new ActionError(err.code, err.problem, err.hint, err.field);
    throw err;
  }
}

function centre(b: { x: number; y: number; width: number; height: number }): Point {
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

function toImage(frame: FrameRecord, p: Point): Point {
  const { image, css } = frame.geometry;
  return { x: (p.x * image.width) / css.width, y: (p.y * image.height) / css.height };
}

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
  const [innerW, innerH] = await driver.evaluate<[number, number]>('window.__trueclick.metrics()');
  const scrollNow = await currentScroll(driver);

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

  // The hover runs alongside the check (its ack waits for a rendered frame); the press is queued after it.
  const hover = dryRun ? Promise.resolve() : moveMouse(driver, vp);
  hover.catch(() => {});
  let live = await inspectAndArm(driver, vp, scrollNow, {
    armMs: dryRun ? 0 : ARM_MS,
    selector: expect?.selector,
  });
  // A fixed-position element does not follow the document: try the point where it was in the viewport.
  if (then && report.scrollSinceFrame && !(live && sameElement(then.facts, live))) {
    const fixed = await inspectAndArm(driver, point, scrollNow, {
      armMs: dryRun ? 0 : ARM_MS,
      selector: expect?.selector,
    });
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

  const refusal = await compare(ctx, frame, then, live, page, vp, report, expect);
  if (refusal || dryRun) {
    await hover.catch(() => {});
    await disarm(driver);
    if (dryRun && !refusal) report.message = pointSentence(report);
    return refusal ?? report;
  }

  const loaderBefore = driver.loaderId;
  await hover;
  await dispatchClick(driver, vp, { button: req.button, clickCount: req.click_count });
  report.dispatched = vp;
  const navigated = driver.loaderId !== loaderBefore;
  const guard = navigated ? null : await disarm(driver).catch(() => null);
  return verify(report, guard, live, navigated, driver);
}

function missedAtCapture(
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

async function compare(
  ctx: ActionContext,
  frame: FrameRecord | undefined,
  then: SnapshotElement | null,
  live: LiveFacts | null,
  page: Point,
  vp: Point,
  report: ClickReport,
  expect: Expect | undefined,
): Promise<ClickReport | null> {
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

function verify(
  report: ClickReport,
  guard: Awaited<ReturnType<typeof disarm>>,
  live: LiveFacts | null,
  navigated: boolean,
  driver: PageDriver,
): ClickReport {
  const where = `CSS ${fmtPoint(report.dispatched ?? { x: 0, y: 0 })}${report.frame && report.imagePoint ? ` (frame ${report.frame} image px ${fmtPoint(report.imagePoint)})` : ''}`;
  if (navigated || !guard) {
    report.landed = report.hitNow;
    report.message = `Clicked ${describeHit(report.hitNow)} at ${where}; the page then navigated to ${driver.url}.`;
    return report;
  }
  const delivered = guard.events.filter((e) => e.delivered);
  const blocked = guard.events.filter((e) => !e.delivered);
  report.guard = {
    firstInLine: driver.guardFirstInLine,
    blocked: blocked.length,
    delivered: delivered.length,
  };
  const first = guard.events[0];
  if (first) report.exposureMs = Math.round((first.t - guard.armedAt) * 100) / 100;
  const late = driver.guardFirstInLine
    ? ''
    : ' (this page was loaded before trueclick attached, so listeners it registered earlier may have seen the event first)';
  const other = blocked[0]?.target
    ? toHit({ ...(blocked[0].target as Omit<ElementFacts, 'backendNodeId'>), backendNodeId: -1 })
    : null;
  if (blocked.length > 0 && delivered.length === 0) {
    report.verdict = 'STALE_TARGET';
    report.landed = null;
    report.message = `Blocked in flight: between the check and the click the page moved ${describeHit(other)} under the point; trueclick stopped the events before the page's handlers saw them${late}. Take a new screenshot.`;
    return report;
  }
  if (blocked.length > 0) {
    report.verdict = 'LANDED_ELSEWHERE';
    report.landed = other;
    report.message = `Partly delivered: ${delivered.map((e) => e.type).join('/')} reached ${describeHit(report.hitNow)} but ${blocked.map((e) => e.type).join('/')} would have reached ${describeHit(other)} (stopped by the guard${late}). The page moved during the click; take a new screenshot and check its state.`;
    return report;
  }
  const click = delivered.find((e) => e.type === 'click') ?? delivered.at(-1);
  if (!click) {
    report.landed = null;
    if (live?.tag === 'IFRAME') {
      report.message = `Clicked at ${where} inside an iframe (${describeHit(report.hitNow)}); trueclick cannot see which element inside it received the click.`;
      return report;
    }
    report.verdict = 'LANDED_ELSEWHERE';
    report.message = `Sent the click at ${where}, but no trusted event reached ${describeHit(report.hitNow)}. Something intercepted it; take a new screenshot and check the page's state.`;
    return report;
  }
  const landed: Hit | null = report.hitNow;
  report.landed = landed;
  report.message = `Clicked ${describeHit(landed)} at ${where}; it is the element that was under the point in the frame.`;
  if (!report.frame)
    report.message = `Clicked ${describeHit(landed)} at ${where} (no frame given, so nothing to compare with capture).`;
  return report;
}

function pointSentence(r: ClickReport): string {
  const img = r.frame && r.imagePoint ? ` = frame ${r.frame} image px ${fmtPoint(r.imagePoint)}` : '';
  const changed =
    r.hitAtCapture && r.hitNow && r.hitAtCapture.nodeId === r.hitNow.nodeId
      ? 'same element as at capture'
      : `at capture: ${describeHit(r.hitAtCapture)}`;
  return `Point CSS ${fmtPoint(r.point ?? { x: 0, y: 0 })}${img} holds ${describeHit(r.hitNow)}${r.frame ? ` (${changed})` : ''}. Nothing was clicked.`;
}
