// The end of one arming of the in-flight guard: stopped (with the press's effect read in the same call when
// asked), or let go whatever happened.
import type { GuardEvent } from '../plumbing/page-driver.js';
import type { PressEffect } from './guard-effect.js';
import type { LiveFacts, LiveTarget } from './hit-test.js';

export interface GuardRecord {
  armedAt: number;
  events: GuardEvent[];
  /** The press's effect, when asked for with the disarm (readEffect's answer, null when none was recorded). */
  effect?: PressEffect | null;
}

/**
 * Stops the guard of one arming, reading the press's effect in the same call when asked. Null when its
 * document is gone (the click navigated it away).
 */
export async function disarm(
  at: LiveTarget,
  token?: string,
  withEffect = false,
): Promise<GuardRecord | null> {
  const t = token === undefined ? 'undefined' : JSON.stringify(token);
  return at.driver.evaluate<GuardRecord | null>(`window.__trueclick.disarm(${t}, ${withEffect})`, at.frameId);
}

/**
 * Stops the guard of one arming once the page has handled the click's last release, reading the press's
 * effect in the same call: sent with the press, it answers about when the release's acknowledgement does.
 * Null when the release did not come in time (or the guard is armed for another action).
 */
export function disarmAfterRelease(
  at: LiveTarget,
  token: string,
  releases: number,
): Promise<GuardRecord | null> {
  return at.driver.evaluate<GuardRecord | null>(
    `window.__trueclick.disarmAfter(${JSON.stringify(token)}, ${releases})`,
    at.frameId,
    true,
  );
}

/**
 * Reads (and ends) the press's effect once the click was acknowledged: the page's handlers, their microtasks
 * (Vue, React's discrete updates) and the browser's default action (a checkbox, a details) have run by then,
 * and reading costs one call, not a frame.
 */
export async function readEffect(at: LiveTarget): Promise<PressEffect | null> {
  return at.driver.evaluate<PressEffect | null>('window.__trueclick.effect()', at.frameId);
}

/** Ends one arming whatever happened: stops collecting its events and disarms the guard (if still its own). */
export async function release(live: LiveFacts): Promise<void> {
  live.at.driver.unwatchGuard(live.token);
  await disarm(live.at, live.token).catch(() => null);
}
