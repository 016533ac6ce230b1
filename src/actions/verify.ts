import { describeHit, type ElementFacts, toHit } from '../browser/element-facts.js';
import { pollUntil } from '../browser/errors.js';
import { disarm, type GuardEvent } from '../browser/hit-test.js';
import type { NavigationRecord, PageDriver } from '../browser/page-driver.js';
import type { Attempt } from './attempt.js';
import { type ClickReport, fmtPoint } from './verdicts.js';

// After dispatch: which element the trusted events reached, as the in-flight guard saw them, and where the
// page went if the click navigated.

/** How long a click that started a navigation may take to commit the new document before we answer. */
const COMMIT_BUDGET_MS = 5_000;

/** How long the guard waits for the page to report a click's events before it stands down. */
const EVENTS_BUDGET_MS = 1_000;

/**
 * The guard's record of one click: the page reports each judged event through a CDP binding as it
 * happens (`reported`), and the guard's own list answers too while its document lives. A click that tears
 * its document down (a link, a form) leaves the reported events, which is all the verdict needs.
 */
async function guardRecord(a: Attempt, reported: GuardEvent[]): Promise<GuardEvent[] | null> {
  const live = a.live;
  if (!live) return null;
  // Input reaches a cross-site iframe's process after CDP has acknowledged it: wait for the page to report
  // the click's last event before disarming, or the guard would stand down before the events arrive.
  const last = (a.req.button ?? 'left') === 'left' ? 'click' : 'auxclick';
  const count = a.req.click_count ?? 1;
  await pollUntil(() => reported.filter((e) => e.type === last).length >= count, EVENTS_BUDGET_MS, 5);
  const local = await disarm(live.at, live.token).catch(() => null);
  const judged = (list: GuardEvent[]) => list.filter((e) => e.type !== 'mousemove');
  if (local && local.events.length >= reported.length) return judged(local.events);
  return reported.length > 0 ? judged(reported) : null;
}

async function settleNavigation(driver: PageDriver, nav: NavigationRecord): Promise<void> {
  if (!nav.requested || nav.committed) return;
  const end = Date.now() + COMMIT_BUDGET_MS;
  await pollUntil(() => Boolean(nav.committed) || driver.isClosed, COMMIT_BUDGET_MS, 20);
  if (nav.committed)
    await driver.page
      .waitForLoadState('domcontentloaded', { timeout: Math.max(1, end - Date.now()) })
      .catch(() => {});
}

function navigationNote(nav: NavigationRecord, what: string): string {
  if (nav.committed) return `; ${what} then navigated to ${nav.committed}`;
  if (nav.requested)
    return `; ${what} is navigating to ${nav.requested.url} (not committed within ${COMMIT_BUDGET_MS / 1000} s)`;
  if (nav.sameDocument) return `; ${what} moved to ${nav.sameDocument} (same document)`;
  return '';
}

const moved = (n: NavigationRecord | undefined): n is NavigationRecord =>
  Boolean(n && (n.committed || n.requested || n.sameDocument));

export async function afterDispatch(
  a: Attempt,
  reported: GuardEvent[],
  pageNav: NavigationRecord,
  frameNav?: NavigationRecord,
): Promise<ClickReport> {
  const { report, live } = a;
  const events = await guardRecord(a, reported);
  // The page itself navigating says more than the iframe that held the element doing so.
  const inFrame = !moved(pageNav) && moved(frameNav);
  const nav = inFrame && frameNav ? frameNav : pageNav;
  await settleNavigation(inFrame && live ? live.at.driver : a.ctx.driver, nav);
  if (moved(nav)) {
    report.navigation = {};
    if (nav.committed) report.navigation.url = nav.committed;
    else if (nav.requested) report.navigation.url = nav.requested.url;
    else if (nav.sameDocument) report.navigation.url = nav.sameDocument;
    report.navigation.kind = nav.sameDocument && !nav.requested ? 'same-document' : 'document';
    report.navigation.committed = Boolean(nav.committed || (nav.sameDocument && !nav.requested));
    if (nav.requested) report.navigation.reason = nav.requested.reason;
    if (inFrame) report.navigation.frame = true;
  }
  const where = `CSS ${fmtPoint(report.dispatched ?? { x: 0, y: 0 })}${report.frame && report.imagePoint ? ` (frame ${report.frame} image px ${fmtPoint(report.imagePoint)})` : ''}`;
  const went = navigationNote(nav, inFrame ? 'the iframe' : 'the page');
  if (!events || !live) {
    report.verdict = 'UNVERIFIED';
    report.landed = null;
    report.message = `Sent the click at ${where}, but trueclick's guard recorded no event, so where it landed is not confirmed${went}. Take a new screenshot before you retry.`;
    return report;
  }
  const delivered = events.filter((e) => e.delivered);
  const blocked = events.filter((e) => !e.delivered);
  const firstInLine = live.at.driver.guardFirstInLineIn(live.at.frameId);
  report.guard = { firstInLine, blocked: blocked.length, delivered: delivered.length };
  const first = events[0];
  if (first) report.exposureMs = Math.round((first.t - live.armedAt) * 100) / 100;
  const late = firstInLine
    ? ''
    : ' (this document was loaded before trueclick attached, so listeners it registered earlier may have seen the event first)';
  const other = blocked[0]?.target
    ? toHit({ ...(blocked[0].target as Omit<ElementFacts, 'backendNodeId'>), backendNodeId: -1 })
    : null;
  const changed = blocked.find((e) => e.changed)?.changed;
  if (blocked.length > 0 && delivered.length === 0) {
    report.verdict = 'STALE_TARGET';
    report.landed = null;
    report.message = changed
      ? `Blocked in flight: between the check and the click the page changed ${changed.replace('its ', 'the ')} of ${describeHit(report.hitNow)} (the same element now shows other data); trueclick stopped the events before the page's handlers saw them${late}. Take a new screenshot.`
      : `Blocked in flight: between the check and the click the page moved ${describeHit(other)} under the point; trueclick stopped the events before the page's handlers saw them${late}. Take a new screenshot.`;
    return report;
  }
  if (blocked.length > 0) {
    report.verdict = 'LANDED_ELSEWHERE';
    report.landed = changed ? report.hitNow : other;
    report.message = changed
      ? `Partly delivered: ${delivered.map((e) => e.type).join('/')} reached ${describeHit(report.hitNow)}, then the page changed ${changed.replace('its ', 'the ')} of it (the same element now shows other data), so trueclick stopped ${blocked.map((e) => e.type).join('/')}${late}${went}. Take a new screenshot and check the page's state.`
      : `Partly delivered: ${delivered.map((e) => e.type).join('/')} reached ${describeHit(report.hitNow)} but ${blocked.map((e) => e.type).join('/')} would have reached ${describeHit(other)} (stopped by the guard${late})${went}. The page moved during the click; take a new screenshot and check its state.`;
    return report;
  }
  const click = delivered.find((e) => e.type === 'click') ?? delivered.at(-1);
  if (!click) {
    report.landed = null;
    report.verdict = 'LANDED_ELSEWHERE';
    report.message = `Sent the click at ${where}, but no trusted event reached ${describeHit(report.hitNow)}${went}. Something intercepted it; take a new screenshot and check the page's state.`;
    return report;
  }
  report.landed = report.hitNow;
  const same = report.frame
    ? '; it is the element that was under the point in the frame'
    : ' (no frame given, so nothing to compare with capture)';
  const routed = report.routingOffset
    ? ` (Chromium routed input into this cross-site iframe off target; trueclick sent it ${fmtPoint(report.routingOffset)} CSS px over, and the guard saw it arrive on the element)`
    : '';
  report.message = `Clicked ${describeHit(report.landed)} at ${where}${same}${routed}${went}.`;
  return report;
}

export function pointSentence(r: ClickReport): string {
  const img = r.frame && r.imagePoint ? ` = frame ${r.frame} image px ${fmtPoint(r.imagePoint)}` : '';
  const changed =
    r.hitAtCapture && r.hitNow && r.hitAtCapture.nodeId === r.hitNow.nodeId
      ? 'same element as at capture'
      : `at capture: ${describeHit(r.hitAtCapture)}`;
  return `Point CSS ${fmtPoint(r.point ?? { x: 0, y: 0 })}${img} holds ${describeHit(r.hitNow)}${r.frame ? ` (${changed})` : ''}. Nothing was clicked.`;
}
