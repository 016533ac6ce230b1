import type { PageDriver } from './page-driver.js';
import { PageEvents } from './page-events.js';

/** A page is taken to have answered an action once its DOM has been still this long. */
const QUIET_MS = 120;
const STEP_MS = 30;

/** DOM mutations so far, and whether a finite animation or transition still runs (a menu fading in). */
const STATE = `(() => [window.__trueclick.mutations(), document.getAnimations().some((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))])()`;

/**
 * Waits until the page has answered the last action: its DOM still for QUIET_MS and no finite animation
 * running (a menu that opens on focus mounts a frame or two after the click, then fades in, and takes
 * pointer events only when shown), within a budget. A batch checks its next action only then,
 * so that action is judged against the page the previous one produced. Returns early on a dialog or a
 * navigation (the next check refuses an outdated frame anyway).
 */
export async function settle(driver: PageDriver, budgetMs = 1_000): Promise<void> {
  const events = PageEvents.of(driver.page);
  const end = Date.now() + budgetMs;
  const loader = driver.loaderId;
  let last = -1;
  let stillSince = Date.now();
  while (Date.now() < end) {
    if (events.dialog || driver.isClosed || driver.loaderId !== loader) return;
    const state = await driver.evaluate<[number, boolean]>(STATE).catch(() => null);
    if (!state) return;
    const [count, animating] = state;
    if (count !== last || animating) {
      last = count;
      stillSince = Date.now();
    } else if (Date.now() - stillSince >= QUIET_MS) return;
    await new Promise((r) => setTimeout(r, STEP_MS));
  }
}
