import { describeSetAside } from '../../browser/identity/compare-facts.js';
import { describeHit, type ElementFacts, toHit } from '../../browser/identity/element-facts.js';
import { disarm, release } from '../../browser/identity/guard-end.js';
import type { GuardEvent } from '../../browser/identity/hit-test.js';
import { pollUntil } from '../../browser/plumbing/errors.js';
import type { NavigationRecord, PageDriver } from '../../browser/plumbing/page-driver.js';
import { aDialog, PageEvents } from '../../browser/plumbing/page-events.js';
import type { Attempt } from './attempt.js';
import { pressEffect } from './effect.js';
import { type ClickReport, fmtPoint } from './verdicts.js';

// After dispatch: which element the trusted events reached, as the in-flight guard saw them, and where the
// page went if the action navigated.

/** How long an action that started a navigation may take to commit the new document before we answer. */
const COMMIT_BUDGET_MS = 5_000;

/** How long the guard waits for the page to report an action's events before it stands down. */
const EVENTS_BUDGET_MS = 1_000;

/** What is watched while an action is sent: the guard's reported events and the navigations it starts. */
export interface OutcomeWatch {
  events: GuardEvent[];
  nav: { record: NavigationRecord; stop: () => void };
  inner: { record: NavigationRecord; stop: () => void } | null;
  stop(): void;
}

export function watchOutcome(a: Attempt): OutcomeWatch {
  const { driver } = a.ctx;
  const { live } = a;
  const events = live ? live.at.driver.watchGuard(live.token) : [];
  const nav = driver.watchNavigation();
  // An action inside an iframe navigates that frame: watch it where it lives.
  const inner =
    live && (live.at.driver !== driver || live.at.frameId !== driver.mainFrameId)
      ? live.at.driver.watchNavigation(live.at.frameId)
      : null;
  return {
    events,
    nav,
    inner,
    stop: () => {
      nav.stop();
      inner?.stop();
      if (live) live.at.driver.unwatchGuard(live.token);
    },
  };
}

/** The event whose report ends an action: a left click's `click`, another button's `auxclick`, a press. */
function lastEvent(a: Attempt): { type: string; count: number } {
  const i = a.intent;
  if (i.kind === 'click') return { type: i.button === 'left' ? 'click' : 'auxclick', count: i.count };
  return { type: 'pointerdown', count: 1 };
}

const judged = (list: GuardEvent[]) => list.filter((e) => e.type !== 'mousemove');

/**
 * The guard's record of one action: the page reports each judged event through a CDP binding as it
 * happens (`reported`), and the guard's own list answers too while its document lives. An action that tears
 * its document down (a link, a form) leaves the reported events, which is all the verdict needs.
 */
async function guardRecord(a: Attempt, reported: GuardEvent[], budgetMs = EVENTS_BUDGET_MS) {
  const live = a.live;
  if (!live) return null;
  const last = lastEvent(a);
  const has = (list: GuardEvent[]) => list.filter((e) => e.type === last.type).length >= last.count;
  const events = PageEvents.of(a.ctx.driver.page);
  // A dialog the action raised after its input was acknowledged (a link meeting a beforeunload) freezes
  // the page: its reported events are the record, and the guard is released once the dialog is answered.
  const stop = async () => {
    const ask = async () => (await a.disarmed?.catch(() => null)) ?? disarm(live.at, live.token, true);
    const asked = await events.race(ask().catch(() => null));
    if (!asked.done) events.onDialogAnswered(() => release(live));
    return asked.done ? asked.value : null;
  };
  // In the page's own process the input was handled when CDP acknowledged it: the guard's own list holds
  // it, read in the same call that stands the guard down (and reads the press's effect).
  let local = live.at.driver.remote ? null : await stop();
  if (!local || !has(local.events)) {
    // Input reaches a cross-site iframe's process after CDP has acknowledged it, and a document the action
    // tore down answers nothing: wait for the page to report the action's last event.
    await pollUntil(() => has(reported) || events.dialog !== null, budgetMs, 5);
    if (live.at.driver.remote) local = await stop();
  }
  if (local && 'effect' in local) a.effect = local.effect ?? null;
  if (local && local.events.length >= reported.length) return judged(local.events);
  return reported.length > 0 ? judged(reported) : null;
}

const BLOCKED = 'Blocked in flight: ';
const BLOCKED_NEXT = '. Take a new screenshot.';

/** Why a press was stopped in flight, as its report says it: for a sentence that quotes it (a second try). */
export function blockedWhy(report: ClickReport): string {
  const m = report.message;
  return m.startsWith(BLOCKED) && m.endsWith(BLOCKED_NEXT)
    ? m.slice(BLOCKED.length, -BLOCKED_NEXT.length)
    : m;
}

/**
 * Waits for a navigation that was asked for (or is `expected`: a beforeunload left) to commit its new
 * document, then for that document's DOM, within the budget.
 */
export async function settleNavigation(
  driver: PageDriver,
  nav: NavigationRecord,
  expected = Boolean(nav.requested),
): Promise<void> {
  if (!expected || nav.committed) return;
  const end = Date.now() + COMMIT_BUDGET_MS;
  const events = PageEvents.of(driver.page);
  await pollUntil(
    () => Boolean(nav.committed) || driver.isClosed || events.dialog !== null,
    COMMIT_BUDGET_MS,
    20,
  );
  if (nav.committed)
    await driver.page
      .waitForLoadState('domcontentloaded', { timeout: Math.max(1, end - Date.now()) })
      .catch(() => {});
}

function navigationNote(nav: NavigationRecord, what: string, dialogOpen: boolean): string {
  if (nav.committed) return `; ${what} then navigated to ${nav.committed}`;
  if (nav.requested && dialogOpen)
    return `; ${what} asked to go to ${nav.requested.url} and waits on a dialog`;
  if (nav.requested)
    return `; ${what} is navigating to ${nav.requested.url} (not committed within ${COMMIT_BUDGET_MS / 1000} s)`;
  if (nav.sameDocument) return `; ${what} moved to ${nav.sameDocument} (same document)`;
  return '';
}

const moved = (n: NavigationRecord | undefined): n is NavigationRecord =>
  Boolean(n && (n.committed || n.requested || n.sameDocument));

/** Where the page (or the iframe that held the element) went, into report.navigation; the note for the message. */
async function recordNavigation(a: Attempt, watch: OutcomeWatch, settle: boolean): Promise<string> {
  const { report, live } = a;
  const pageNav = watch.nav.record;
  const frameNav = watch.inner?.record;
  // The page itself navigating says more than the iframe that held the element doing so.
  const inFrame = !moved(pageNav) && moved(frameNav);
  const nav = inFrame && frameNav ? frameNav : pageNav;
  if (settle) await settleNavigation(inFrame && live ? live.at.driver : a.ctx.driver, nav);
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
  return navigationNote(
    nav,
    inFrame ? 'the iframe' : 'the page',
    PageEvents.of(a.ctx.driver.page).dialog !== null,
  );
}

/** The verdict from the guard's record of the events the action sent. */
function judge(a: Attempt, events: GuardEvent[] | null, went: string): ClickReport {
  const { report, live } = a;
  const what = a.intent.kind === 'drag' ? 'drag' : 'click';
  // A followed record is pressed where it is now, not where the frame's image showed the point.
  const image = report.frame && report.imagePoint && !report.followed;
  const where = `CSS ${fmtPoint(report.dispatched ?? { x: 0, y: 0 })}${image ? ` (frame ${report.frame} image px ${fmtPoint(report.imagePoint as NonNullable<typeof report.imagePoint>)})` : ''}`;
  if (!events || !live) {
    report.verdict = 'UNVERIFIED';
    report.landed = null;
    report.message = `Sent the ${what} at ${where}, but trueclick's guard recorded no event, so where it landed is not confirmed${went}. Take a new screenshot before you retry.`;
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
    const why = changed
      ? `between the check and the ${what} the page changed ${changed.replace('its ', 'the ')} of ${describeHit(report.hitNow)} (the same element now shows other data); trueclick stopped the events before the page's handlers saw them${late}`
      : `between the check and the ${what} the page moved ${describeHit(other)} under the point; trueclick stopped the events before the page's handlers saw them${late}`;
    report.message = `${BLOCKED}${why}${BLOCKED_NEXT}`;
    return report;
  }
  if (blocked.length > 0) {
    report.verdict = 'LANDED_ELSEWHERE';
    report.landed = changed ? report.hitNow : other;
    report.message = changed
      ? `Partly delivered: ${delivered.map((e) => e.type).join('/')} reached ${describeHit(report.hitNow)}, then the page changed ${changed.replace('its ', 'the ')} of it (the same element now shows other data), so trueclick stopped ${blocked.map((e) => e.type).join('/')}${late}${went}. Take a new screenshot and check the page's state.`
      : `Partly delivered: ${delivered.map((e) => e.type).join('/')} reached ${describeHit(report.hitNow)} but ${blocked.map((e) => e.type).join('/')} would have reached ${describeHit(other)} (stopped by the guard${late})${went}. The page moved during the ${what}; take a new screenshot and check its state.`;
    return report;
  }
  const last = lastEvent(a).type;
  // A press and a release with no click after them: the page drew the element anew in between (a grid
  // cell redrawn on a price tick) or the element takes no clicks; either way nothing was clicked.
  if (
    a.intent.kind === 'click' &&
    !report.navigation &&
    !delivered.some((e) => e.type === last) &&
    delivered.some((e) => e.type === 'mouseup')
  ) {
    report.landed = report.hitNow;
    report.verdict = 'LANDED_ELSEWHERE';
    // The guard followed the release to the element drawn in the pressed one's place: then that is why.
    // Not pressed again here: nothing tells a grid's tick from a page that acted on the press and redrew.
    const down = delivered.findIndex((e) => e.type === 'mousedown');
    const redrawn = down >= 0 && delivered.slice(down + 1).some((e) => e.redrawn);
    const why = redrawn
      ? `the page drew it anew between the press and the release (the release reached the new one)`
      : `the page replaced the element between the press and the release, or the element takes no clicks (a disabled control)`;
    report.message = `Pressed and released on ${describeHit(report.hitNow)} at ${where}, but the browser sent no ${last}: ${why}, so its click handlers and links did not act${went}. Take a new screenshot and check the page's state before you click again.`;
    return report;
  }
  const reached = delivered.find((e) => e.type === last) ?? delivered.at(-1);
  if (!reached) {
    report.landed = null;
    report.verdict = 'LANDED_ELSEWHERE';
    report.message = `Sent the ${what} at ${where}, but no trusted event reached ${describeHit(report.hitNow)}${went}. Something intercepted it; take a new screenshot and check the page's state.`;
    return report;
  }
  report.landed = report.hitNow;
  const same = report.followed
    ? '; it is the record the frame showed at your point'
    : report.frame
      ? '; it is the element that was under the point in the frame'
      : ' (no frame given, so nothing to compare with capture)';
  const routed = report.routingOffset
    ? ` (Chromium routed input into this cross-site iframe off target; trueclick sent it ${fmtPoint(report.routingOffset)} CSS px over, and the guard saw it arrive on the element)`
    : '';
  const verb = what === 'drag' ? 'Pressed' : 'Clicked';
  const aside = report.setAside?.length
    ? `; what changed since the frame is not part of the record: ${describeSetAside(report.setAside)}`
    : '';
  report.message = `${verb} ${describeHit(report.landed)} at ${where}${same}${aside}${routed}${went}.`;
  return report;
}

export async function afterDispatch(a: Attempt, watch: OutcomeWatch): Promise<ClickReport> {
  const since = Date.now();
  const events = await guardRecord(a, watch.events);
  const went = await recordNavigation(a, watch, true);
  const report = judge(a, events, went);
  if (!PageEvents.of(a.ctx.driver.page).dialog) await pressEffect(a, report, since);
  return report;
}

/**
 * The action raised a JavaScript dialog before its input was acknowledged. The page is frozen until the
 * dialog is answered (every CDP call into it waits), so the verdict comes from the events the guard reported
 * before the page's handler opened the dialog; the guard is released when the dialog is answered.
 */
export async function dialogInterrupted(a: Attempt, watch: OutcomeWatch): Promise<ClickReport> {
  const last = lastEvent(a);
  await pollUntil(() => watch.events.filter((e) => e.type === last.type).length >= last.count, 300, 5);
  const events = a.live && watch.events.length > 0 ? judged(watch.events) : null;
  const went = await recordNavigation(a, watch, false);
  const report = judge(a, events, went);
  const dialog = PageEvents.of(a.ctx.driver.page).dialog;
  if (dialog)
    report.message += ` The page then opened ${aDialog(dialog)} ("${dialog.message}"): answer it with browser_handle_dialog before anything else.`;
  if (a.live)
    PageEvents.of(a.ctx.driver.page).onDialogAnswered(() => release(a.live as NonNullable<typeof a.live>));
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
