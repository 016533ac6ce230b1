import { describeHit } from '../../browser/identity/element-facts.js';
import { disarmAfterRelease, release } from '../../browser/identity/guard-end.js';
import { dispatchClick } from '../../browser/plumbing/input.js';
import { PageEvents } from '../../browser/plumbing/page-events.js';
import { type Approver, approvalGate } from '../approval/gate.js';
import type { Attempt, Intent } from '../check/attempt.js';
import { followSentence } from '../check/follow.js';
import { checkPoint } from '../check/pipeline.js';
import type { ActionContext, ClickRequest } from '../check/target.js';
import { type ClickReport, fmtPoint } from '../check/verdicts.js';
import { afterDispatch, dialogInterrupted, pointSentence, watchOutcome } from '../check/verify.js';
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
    const lost = await dispatchAndVerify(first.attempt);
    return mayPressAgain(first.attempt, lost) ? pressAgain(ctx, req, intent, lost) : lost;
  }
  const gated = await approvalGate(ctx, req, intent, first, approver);
  return gated.report ?? dispatchAndVerify(gated.attempt);
}

/**
 * A click the page lost by drawing the pressed element anew before the release (AG Grid's cell renderers on
 * a price tick; under load about one click in thirty there) did nothing: pressing again is the click the
 * agent asked for, not a second one. Only a single left click, with no navigation or dialog, and only when the
 * element outlived the press's own handlers (verify.ts): a page that answers the press by drawing the
 * control anew (React, Vue and Lit render inside the press's task) is not pressed again.
 */
function mayPressAgain(a: Attempt, r: ClickReport): boolean {
  return (
    a.lostToRedraw === true &&
    r.verdict === 'LANDED_ELSEWHERE' &&
    (a.intent as ClickIntent).count === 1 &&
    // Chromium on Linux sends contextmenu on the press: a right press may have opened the page's menu.
    (a.intent as ClickIntent).button === 'left' &&
    !r.navigation &&
    PageEvents.of(a.ctx.driver.page).dialog === null
  );
}

/** The whole check again, then the press; the answer says the first press was lost and why. */
async function pressAgain(
  ctx: ActionContext,
  req: ClickRequest,
  intent: ClickIntent,
  lost: ClickReport,
): Promise<ClickReport> {
  const again = await checkPoint(ctx, req, intent);
  const out = again.refusal ?? (await dispatchAndVerify(again.attempt));
  const what = describeHit(lost.hitNow);
  out.pressedAgain = `the page drew ${what} anew between the first press and its release, so the browser sent no click`;
  out.message = `The first press was lost: ${out.pressedAgain}; trueclick checked the point again${again.refusal ? '' : ' and pressed once more'}. ${out.message}`;
  return out;
}

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
