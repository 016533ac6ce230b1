import { disarmAfterRelease, release } from '../../browser/identity/guard-end.js';
import { dispatchClick, moveMouse } from '../../browser/plumbing/input.js';
import { type Approver, approvalGate } from '../approval/gate.js';
import type { Attempt, Intent } from '../check/attempt.js';
import { followSentence } from '../check/follow.js';
import { checkPoint } from '../check/pipeline.js';
import type { ActionContext, ClickRequest } from '../check/target.js';
import { type ClickReport, fmtPoint } from '../check/verdicts.js';
import {
  afterDispatch,
  blockedWhy,
  dialogInterrupted,
  pointSentence,
  watchOutcome,
} from '../check/verify.js';
import { pixelSentence, pixelWindow } from '../pixels/pixels.js';

export type { ActionContext, ClickRequest } from '../check/target.js';

export type ClickIntent = Extract<Intent, { kind: 'click' }>;

/** The click a request asks for: button, count and held modifiers, defaults filled in. */
export function clickIntent(req: ClickRequest): ClickIntent {
  return {
    kind: 'click',
    button: req.button ?? 'left',
    count: req.click_count ?? 1,
    modifiers: req.modifiers ?? [],
  };
}

/**
 * The guarded click (SPEC S4): the shared check (pipeline.ts), a person's yes where the press asks for one
 * (approval/gate.ts, which checks again at the yes), then dispatch and verify.
 */
export async function guardedClick(
  ctx: ActionContext,
  req: ClickRequest,
  approver?: Approver,
): Promise<ClickReport> {
  const intent = clickIntent(req);
  const first = await checkPoint(ctx, req, intent);
  if (!approver) {
    if (first.refusal) return first.refusal;
    const report = await dispatchAndVerify(first.attempt);
    if (!stoppedUnseen(report)) return report;
    // The page changed the element in the moment between the check and the press: a text that ticks once a
    // second and had not ticked since the screenshot does so about once in a hundred clicks. Nothing reached
    // the page, so the pointer leaves the page (the row's answer to the hover goes with it: nothing is hovered
    // at -1, -1) and the whole check is made once more, from the frame, as a new call would make it.
    const away = await moveMouse(ctx.driver, OFF_PAGE).catch(() => null);
    if (!away?.sent) return report;
    const again = await checkPoint(ctx, req, intent);
    const second = again.refusal ?? (await dispatchAndVerify(again.attempt));
    second.message = `A first press was stopped in flight (${blockedWhy(report)}); checked again from the frame: ${second.message}`;
    return second;
  }
  const gated = await approvalGate(ctx, req, intent, first, approver);
  return gated.report ?? dispatchAndVerify(gated.attempt);
}

/** Where the pointer goes to hover nothing: the page sees it leave (mouseout, mouseleave). */
const OFF_PAGE = { x: -1, y: -1 };

/** Every event the click sent was stopped by the guard, which was the first listener of the page. */
const stoppedUnseen = (r: ClickReport) =>
  r.verdict === 'STALE_TARGET' && r.guard !== undefined && r.guard.firstInLine && r.guard.delivered === 0;

/** browser_point: the same check, stopping before anything is sent; no guard that could block input is armed. */
export async function pointAt(ctx: ActionContext, req: ClickRequest): Promise<ClickReport> {
  const { attempt, refusal } = await checkPoint(ctx, req, { kind: 'point' });
  if (refusal) return refusal;
  attempt.report.message = followSentence(attempt.report) + pointSentence(attempt.report);
  return attempt.report;
}

async function dispatchAndVerify(a: Attempt): Promise<ClickReport> {
  const { driver } = a.ctx;
  const { report, live, vp } = a;
  const intent = a.intent as ClickIntent;
  const watch = watchOutcome(a);
  report.dispatched = vp;
  if (report.approval) report.approval.yesToPressMs = Date.now() - report.approval.answeredAt;
  pixelWindow(a);
  // The disarm goes right behind the last release; the page answers it once it has handled that (verify.ts).
  const releasing = () => {
    if (!live || live.at.driver.remote) return;
    a.disarmed = disarmAfterRelease(live.at, live.token, intent.count);
    a.disarmed.catch(() => {});
  };
  let sent: Awaited<ReturnType<typeof dispatchClick>>;
  try {
    sent = await dispatchClick(
      driver,
      vp,
      {
        button: intent.button,
        clickCount: intent.count,
        modifiers: intent.modifiers,
      },
      releasing,
    );
  } catch (err) {
    watch.stop();
    // Some events may have gone out: never answer "nothing was clicked" after sending input.
    if (live) await release(live);
    return {
      ...report,
      verdict: 'UNVERIFIED',
      message: `The click at CSS ${fmtPoint(vp)} was sent but not confirmed (${(err as Error).message}). Take a new screenshot to see whether it took effect before you retry.`,
    };
  }
  try {
    const out = sent.sent ? await afterDispatch(a, watch) : await dialogInterrupted(a, watch);
    if (out.pixels && out.verdict === 'OK') out.message += pixelSentence(out.pixels);
    return out;
  } finally {
    watch.stop();
  }
}
