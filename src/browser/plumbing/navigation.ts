import type { Page } from 'playwright-core';
import { BrowserError, isTargetClosed } from './errors.js';
import type { PageDriver } from './page-driver.js';
import { aDialog, type DialogInfo, PageEvents } from './page-events.js';

export interface NavigationResult {
  url: string;
  title: string;
  /** back/forward with no page there: nothing happened. */
  noHistory?: boolean;
  /** A beforeunload dialog asks whether to leave: answer it with browser_handle_dialog. */
  dialog?: DialogInfo;
  /**
   * The new document arrived but had not finished loading when the time was up (an image or script that
   * never answers): what has loaded is there to see and act on.
   */
  stillLoading?: { readyState: string; waitedMs: number };
}

export const NAVIGATION_TIMEOUT_MS = 30_000;

export type Move = 'goto' | 'back' | 'forward' | 'reload';

/**
 * Navigates the tab and waits for the load, racing a beforeunload dialog: the page asking "leave site?"
 * holds the navigation until it is answered, so the call returns with the dialog instead of timing out.
 * A cancelled call stops the loading.
 */
export async function moveTab(
  driver: PageDriver,
  move: Move,
  opts: { url?: string; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<NavigationResult> {
  // The page's own navigation can win over the agent's as it begins: the agent's is then asked for again,
  // once, and that second attempt is read the same way.
  for (let attempt = 1; ; attempt++) {
    const loaderBefore = driver.loaderId;
    const left = driver.url;
    const again = move === 'goto' && attempt === 1;
    try {
      const r = await moveOnce(driver, move, opts);
      // The page being left reloaded itself (a timer) and its reload replaced the agent's navigation.
      // (A redirect back to the page left costs one more load.)
      if (again && r.url === left && r.url !== opts.url && driver.loaderId !== loaderBefore && !r.dialog)
        continue;
      return r;
    } catch (err) {
      const problem = err instanceof BrowserError ? err.problem : '';
      const other = /interrupted by another navigation to "([^"]*)"/.exec(problem);
      // Chromium restarted the navigation to the very URL asked for: it is under way; wait for it.
      if (move === 'goto' && other?.[1] === opts.url) {
        await driver.page
          .waitForLoadState('load', { timeout: opts.timeoutMs ?? NAVIGATION_TIMEOUT_MS })
          .catch(() => {});
        return { url: driver.page.url(), title: await driver.page.title().catch(() => '') };
      }
      // The page's own script navigated at the same moment (after a dialog, on a timer), or its reload aborted
      // the agent's (net::ERR_ABORTED; it commits, maybe a moment later: a download or a 204 commits none).
      if (
        again &&
        (other || (/net::ERR_ABORTED/.test(problem) && (await driver.untilDocument(loaderBefore, 1_000))))
      )
        continue;
      throw err;
    }
  }
}

async function moveOnce(
  driver: PageDriver,
  move: Move,
  opts: { url?: string; signal?: AbortSignal; timeoutMs?: number },
): Promise<NavigationResult> {
  const page: Page = driver.page;
  const timeout = opts.timeoutMs ?? NAVIGATION_TIMEOUT_MS;
  const o = { waitUntil: 'load' as const, timeout };
  const work =
    move === 'goto'
      ? page.goto(opts.url ?? 'about:blank', o)
      : move === 'back'
        ? page.goBack(o)
        : move === 'forward'
          ? page.goForward(o)
          : page.reload(o);
  const loaderBefore = driver.loaderId;
  const stop = () => void driver.cdp.send('Page.stopLoading').catch(() => {});
  if (opts.signal?.aborted) stop();
  opts.signal?.addEventListener('abort', stop);
  try {
    const r = await PageEvents.of(page).race(work);
    if (!r.done) return { url: page.url(), title: '', dialog: r.dialog };
    const result: NavigationResult = { url: page.url(), title: await page.title().catch(() => '') };
    if ((move === 'back' || move === 'forward') && r.value === null) result.noHistory = true;
    return result;
  } catch (err) {
    const first = (err as Error).message.split('\n')[0] ?? '';
    if (isTargetClosed(err))
      throw new BrowserError('PAGE_CLOSED', 'The tab closed during navigation', 'Retry.');
    if (opts.signal?.aborted)
      throw new BrowserError(
        'CANCELLED',
        'The client cancelled the navigation.',
        'Take a screenshot to see where the tab is.',
      );
    if (/Timeout \d+ms exceeded/.test(first) && driver.loaderId !== loaderBefore) {
      // The document committed; only its load event is missing. That is an answer, not an error.
      const readyState = await driver.evaluate<string>('document.readyState').catch(() => 'unknown');
      return {
        url: page.url(),
        title: await page.title().catch(() => ''),
        stillLoading: { readyState, waitedMs: timeout },
      };
    }
    if (/Timeout \d+ms exceeded/.test(first))
      throw new BrowserError(
        'TIMEOUT',
        `${move === 'goto' ? `Navigation to ${opts.url}` : `The ${move}`} did not finish loading within ${timeout / 1000} s`,
        'The page may still be loading: take browser_screenshot to see it, or retry.',
      );
    throw new BrowserError(
      'NAVIGATION_FAILED',
      `${move === 'goto' ? `Navigation to ${opts.url}` : `The ${move}`} failed: ${first}`,
      'Check the URL (include http:// or https://) and that the site is reachable.',
    );
  } finally {
    opts.signal?.removeEventListener('abort', stop);
  }
}

/** Opens a URL and waits for its load (browser_navigate goes through moveTab for dialogs and cancelling). */
export async function openUrl(
  driver: PageDriver,
  url: string,
  timeoutMs = NAVIGATION_TIMEOUT_MS,
): Promise<void> {
  const r = await moveTab(driver, 'goto', { url, timeoutMs });
  if (r.dialog)
    throw new BrowserError(
      'CDP_ERROR',
      `Leaving ${driver.url} raised ${aDialog(r.dialog)}`,
      'Answer it first.',
    );
}
