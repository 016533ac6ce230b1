import { describeHit, type ElementFacts, type Hit, toHit } from '../browser/element-facts.js';
import type { disarm, LiveFacts } from '../browser/hit-test.js';
import type { PageDriver } from '../browser/page-driver.js';
import { type ClickReport, fmtPoint } from './verdicts.js';

// After dispatch: which element the trusted events reached, as the in-flight guard saw them.

export function verify(
  report: ClickReport,
  guard: Awaited<ReturnType<typeof disarm>>,
  live: LiveFacts | null,
  navigated: boolean,
  driver: PageDriver,
): ClickReport {
  const where = `CSS ${fmtPoint(report.dispatched ?? { x: 0, y: 0 })}${report.frame && report.imagePoint ? ` (frame ${report.frame} image px ${fmtPoint(report.imagePoint)})` : ''}`;
  if (navigated) {
    report.landed = report.hitNow;
    report.message = `Clicked ${describeHit(report.hitNow)} at ${where}; the page then navigated to ${driver.url}.`;
    return report;
  }
  if (!guard) {
    report.verdict = 'UNVERIFIED';
    report.landed = null;
    report.message = `Sent the click at ${where}, but trueclick's guard was gone when it looked, so where it landed is not confirmed. Take a new screenshot before you retry.`;
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

export function pointSentence(r: ClickReport): string {
  const img = r.frame && r.imagePoint ? ` = frame ${r.frame} image px ${fmtPoint(r.imagePoint)}` : '';
  const changed =
    r.hitAtCapture && r.hitNow && r.hitAtCapture.nodeId === r.hitNow.nodeId
      ? 'same element as at capture'
      : `at capture: ${describeHit(r.hitAtCapture)}`;
  return `Point CSS ${fmtPoint(r.point ?? { x: 0, y: 0 })}${img} holds ${describeHit(r.hitNow)}${r.frame ? ` (${changed})` : ''}. Nothing was clicked.`;
}
