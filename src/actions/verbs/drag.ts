import { describeHit, toHit } from '../../browser/identity/element-facts.js';
import { release } from '../../browser/identity/guard-end.js';
import { inspectAndArm } from '../../browser/identity/hit-test.js';
import { pollUntil } from '../../browser/plumbing/errors.js';
import { currentScroll, dragTo, type Modifier, pressAt, releaseAt } from '../../browser/plumbing/input.js';
import { aDialog } from '../../browser/plumbing/page-events.js';
import { TrueclickError } from '../../geometry/index.js';
import { type Approver, approvalGate } from '../approval/gate.js';
import type { Attempt, Intent } from '../check/attempt.js';
import { newDocument } from '../check/check.js';
import { ActionError } from '../check/errors.js';
import { checkPoint } from '../check/pipeline.js';
import {
  type ActionContext,
  type ClickRequest,
  type Resolved,
  resolveTarget,
  toImage,
} from '../check/target.js';
import { type ClickReport, fmtPoint, type Point } from '../check/verdicts.js';
import { afterDispatch, dialogInterrupted, type OutcomeWatch, watchOutcome } from '../check/verify.js';

/** One end of a drag: a point or box in the request's units, or a mark. */
export interface DragEnd {
  x?: number;
  y?: number;
  box?: number[];
  mark?: number;
}

/** A drag: both ends in the frame's convention (the convention fields apply to both). */
export interface DragRequest
  extends Omit<ClickRequest, 'x' | 'y' | 'box' | 'mark' | 'model_output' | 'button' | 'click_count'> {
  from: DragEnd;
  to: DragEnd;
  /** Points between the two ends (OpenAI's drag path), in the same units. */
  via?: DragEnd[];
}

/**
 * The report of a checked drag: the ClickReport fields describe the press at its start (CSS viewport px), and
 * `drop` says where it was released and what lay there.
 */
export interface DragReport extends ClickReport {
  /** Where the drag ended: the point, what it held in the frame and right before the release. */
  drop?: {
    point: Point;
    imagePoint: Point | null;
    hitAtCapture: ClickReport['hitNow'];
    hitNow: ClickReport['hitNow'];
  };
}

function endRequest(req: DragRequest, end: DragEnd): ClickRequest {
  const { from: _f, to: _t, via: _v, ...convention } = req;
  return { ...convention, ...end };
}

/** Resolves one end; its errors name the end they are in (`to.x`, not `x`). */
async function resolveEnd(ctx: ActionContext, req: ClickRequest, name: string): Promise<Resolved> {
  try {
    return await resolveTarget(ctx, req);
  } catch (err) {
    if (err instanceof TrueclickError)
      throw new ActionError(err.code, `${name}: ${err.problem}`, err.hint, `${name}.${err.field ?? 'x'}`);
    throw err;
  }
}

/** The viewport point now of a point read off the frame (it follows the document if the page scrolled). */
function followScroll(a: Attempt, r: Resolved): Point {
  if (r.mark || !a.report.scrollSinceFrame) return r.point;
  return { x: r.point.x - a.report.scrollSinceFrame.x, y: r.point.y - a.report.scrollSinceFrame.y };
}

/**
 * The press of a drag or of a model's left_mouse_down, at a checked point: the guard judges it, and a
 * stopped press is released where it was (the guard stops that release too). Null when the press reached
 * the element and the button is down; else the verdict.
 */
async function pressChecked(
  a: Attempt,
  watch: OutcomeWatch,
  modifiers: Modifier[],
): Promise<ClickReport | null> {
  const { driver } = a.ctx;
  const pressed = await pressAt(driver, a.vp, modifiers);
  if (!pressed.sent) return dialogInterrupted(a, watch);
  await pollUntil(() => watch.events.some((e) => e.type === 'pointerdown'), 1_000, 5);
  const press = watch.events.find((e) => e.type === 'pointerdown');
  if (press && !press.delivered) {
    await releaseAt(driver, a.vp, modifiers);
    return afterDispatch(a, watch);
  }
  return null;
}

/**
 * A model's left_mouse_down at a checked point: pressed like the start of a drag, and the button stays down
 * until a release (moves in between carry it).
 */
export async function guardedPress(
  ctx: ActionContext,
  req: ClickRequest,
  modifiers: Modifier[] = [],
  approver?: Approver,
): Promise<ClickReport> {
  const intent: Intent = { kind: 'drag', modifiers };
  const first = await checkPoint(ctx, req, intent);
  // A press and its release are a click: one on a control a person must approve asks as a click does.
  const gated = approver
    ? await approvalGate(ctx, req, intent, first, approver)
    : first.refusal
      ? { report: first.refusal }
      : { attempt: first.attempt };
  if (gated.report) return gated.report;
  const a = gated.attempt;
  if (a.report.approval) a.report.approval.yesToPressMs = Date.now() - a.report.approval.answeredAt;
  const watch = watchOutcome(a);
  a.report.dispatched = a.vp;
  try {
    const stopped = await pressChecked(a, watch, modifiers);
    if (stopped) return stopped;
    const out = await afterDispatch(a, watch);
    if (out.verdict === 'OK')
      out.message = `${out.message.replace(/\.$/, '')}; the left button is held down until a release.`;
    return out;
  } catch (err) {
    if (a.live) await release(a.live);
    throw err;
  } finally {
    watch.stop();
  }
}

/**
 * A drag whose start is checked like a click: the guard judges the press at the start (the element there
 * must be the one in the frame, even inside the armed window), then stands down while the mouse moves with
 * the button held to the drop point and releases. Both ends are resolved before anything is sent, so a bad
 * end changes nothing. The report names the element pressed and what lay under the drop point.
 */
export async function guardedDrag(ctx: ActionContext, req: DragRequest): Promise<DragReport> {
  const modifiers: Modifier[] = req.modifiers ?? [];
  const to = await resolveEnd(ctx, endRequest(req, req.to), 'to');
  const via = await Promise.all(
    (req.via ?? []).map((v, i) => resolveEnd(ctx, endRequest(req, v), `via[${i}]`)),
  );
  let start: Awaited<ReturnType<typeof checkPoint>>;
  try {
    start = await checkPoint(ctx, endRequest(req, req.from), { kind: 'drag', modifiers });
  } catch (err) {
    if (err instanceof TrueclickError)
      throw new ActionError(err.code, `from: ${err.problem}`, err.hint, `from.${err.field ?? 'x'}`);
    throw err;
  }
  const { attempt: a, refusal } = start;
  if (refusal) return refusal;
  const { driver } = ctx;
  const report: DragReport = a.report;
  const drop = followScroll(a, to);
  const frame = a.frame;
  const dropPage = frame
    ? { x: to.point.x + frame.geometry.scroll.x, y: to.point.y + frame.geometry.scroll.y }
    : null;
  const atCapture =
    frame && dropPage
      ? frame.capture.snapshot.topmostAt(Math.round(dropPage.x), Math.round(dropPage.y))
      : null;
  report.drop = {
    point: drop,
    imagePoint: frame ? toImage(frame, to.point) : null,
    hitAtCapture: atCapture ? toHit(atCapture.facts) : null,
    hitNow: null,
  };
  const watch = watchOutcome(a);
  report.dispatched = a.vp;
  const doc = driver.loaderId;
  let gone: string | null = null;
  try {
    const stopped = await pressChecked(a, watch, modifiers);
    if (stopped) return stopped;
    const released = await dragTo(driver, a.vp, drop, {
      via: via.map((v) => followScroll(a, v)),
      modifiers,
      beforeRelease: async () => {
        const under = await inspectAndArm(driver, drop, a.scrollNow, { armMs: 0 }).catch(() => null);
        if (report.drop) report.drop.hitNow = under ? toHit(under) : null;
        // The button is released all the same: held, it would press into the next document too.
        gone = newDocument(driver, doc);
      },
    });
    if (!released.sent) return await dialogInterrupted(a, watch);
    const out: DragReport = await afterDispatch(a, watch);
    if (gone) {
      return {
        ...out,
        verdict: 'UNVERIFIED',
        message: `Pressed ${describeHit(out.landed ?? report.hitNow)} at CSS ${fmtPoint(a.vp)}, but ${gone} during the drag: the release at CSS ${fmtPoint(drop)} went to the new document, so nothing was dropped where the frame showed. Take a new screenshot before you retry.`,
      };
    }
    if (out.verdict === 'OK') {
      out.message = `Dragged ${describeHit(out.landed ?? null)} from CSS ${fmtPoint(a.vp)} to CSS ${fmtPoint(drop)}, released over ${describeHit(report.drop?.hitNow ?? null)}${report.drop?.hitAtCapture ? ` (in the frame: ${describeHit(report.drop.hitAtCapture)})` : ''}${out.navigation?.url ? `; the page then went to ${out.navigation.url}` : ''}. Take a new screenshot to see the result.`;
    }
    return out;
  } catch (err) {
    if (a.live) await release(a.live);
    throw err;
  } finally {
    watch.stop();
  }
}

/**
 * Moves the mouse with the left button down to a point (a model's move between its left_mouse_down and
 * left_mouse_up), and releases there unless `hold`. The press was checked; these moves carry what it grabbed.
 */
export async function moveWithButton(
  ctx: ActionContext,
  from: Point | null,
  req: ClickRequest,
  modifiers: Modifier[] = [],
  hold: boolean,
  /** The document (loader id) the button went down in, when trueclick pressed it. */
  pressedIn?: string,
): Promise<ClickReport> {
  const to = await resolveTarget(ctx, req);
  const start = from ?? to.point;
  const out = await dragTo(ctx.driver, start, to.point, { modifiers, hold });
  const report: ClickReport = {
    verdict: 'OK',
    message: '',
    dispatched: to.point,
    frame: to.frame?.id ?? null,
    point: to.point,
    imagePoint: to.imagePoint,
    hitNow: null,
    hitAtCapture: null,
    mutationsSinceFrame: null,
    frameAgeMs: null,
  };
  const under = await inspectAndArm(ctx.driver, to.point, await currentScroll(ctx.driver), {
    armMs: 0,
  }).catch(() => null);
  report.hitNow = under ? toHit(under) : null;
  report.landed = report.hitNow;
  report.message = `${hold ? 'Moved the mouse with the left button held' : 'Released the left button'} at CSS ${fmtPoint(to.point)}, over ${describeHit(report.hitNow)}${out.sent ? '' : `; the page opened ${aDialog(out.dialog)}`}.`;
  const gone = pressedIn === undefined ? null : newDocument(ctx.driver, pressedIn);
  if (gone) {
    report.verdict = 'UNVERIFIED';
    report.message = `${report.message.slice(0, -1)}, but ${gone} since the button went down: this reached the new document, not what was pressed. Take a new screenshot before you retry.`;
  }
  return report;
}
