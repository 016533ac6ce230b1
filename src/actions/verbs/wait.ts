import type { Frame, Page } from 'playwright-core';
import { aborted, sleep } from '../../browser/plumbing/errors.js';
import { ActionError } from '../check/errors.js';

/** What `browser_wait_for` waits for: text to appear, text to go, some seconds, or seconds then text. */
export interface WaitRequest {
  /** Wait until this text is visible on the page. */
  text?: string;
  /** Wait until this text is no longer visible. */
  textGone?: string;
  /** Wait this many seconds (alone, or before looking for text). */
  seconds?: number;
  /** How long to wait for the text at most, seconds. */
  timeout?: number;
}

/** How a wait ended: how long it took (`waitedMs`), whether the text condition held, and the page's URL. */
export interface WaitResult {
  waitedMs: number;
  /** Whether the text condition held when the wait ended (true when only seconds were asked). */
  met: boolean;
  url: string;
}

export const MAX_WAIT_S = 60;
const DEFAULT_TEXT_TIMEOUT_S = 10;
/** After a document that came during a wait for text to go has loaded: time for its script to draw it. */
const SETTLE_MS = 500;

/**
 * Waits for text to appear or go (matched as Playwright's getByText does: visible text, case-insensitive,
 * whitespace collapsed), or for a time, within a budget. Running out of budget is an answer (met: false),
 * not an error: the agent decides what to do next.
 */
export async function waitFor(page: Page, req: WaitRequest, signal?: AbortSignal): Promise<WaitResult> {
  if (req.text === undefined && req.textGone === undefined && req.seconds === undefined) {
    throw new ActionError(
      'NOTHING_TO_WAIT_FOR',
      'browser_wait_for needs text, text_gone or seconds.',
      'Pass text to wait for it to appear, text_gone to wait for it to go, or seconds.',
    );
  }
  const started = Date.now();
  if (req.seconds !== undefined) await sleep(req.seconds * 1000, signal);
  let met = true;
  const budget = (req.timeout ?? DEFAULT_TEXT_TIMEOUT_S) * 1000;
  const look = async (text: string, state: 'visible' | 'hidden', timeout = budget) => {
    const wait = page.getByText(text).first().waitFor({ state, timeout });
    const stopped = aborted(signal).then(() => 'cancelled' as const);
    const r = await Promise.race([
      wait.then(
        () => true,
        () => false,
      ),
      stopped,
    ]);
    wait.catch(() => {});
    return r === true;
  };
  if (req.text !== undefined && !signal?.aborted) met = await look(req.text, 'visible');
  // A document that came during the wait (a reload) is blank at first, and the page may draw the text again
  // once it loaded: gone then is a moment, not the answer. Looked at again after the load and a settle.
  const gone = async (text: string) => {
    const deadline = Date.now() + budget;
    const left = () => Math.max(1, deadline - Date.now());
    let navigated = false;
    const onNav = (f: Frame) => {
      if (f === page.mainFrame()) navigated = true;
    };
    page.on('framenavigated', onNav);
    try {
      for (;;) {
        navigated = false;
        if (!(await look(text, 'hidden', left()))) return false;
        if (!navigated) return true;
        await page.waitForLoadState('load', { timeout: left() }).catch(() => {});
        await sleep(Math.min(SETTLE_MS, left()), signal);
        const back = await page
          .getByText(text)
          .first()
          .isVisible()
          .catch(() => false);
        if (!back) return true;
        if (Date.now() >= deadline || signal?.aborted) return false;
      }
    } finally {
      page.off('framenavigated', onNav);
    }
  };
  if (req.textGone !== undefined && met && !signal?.aborted) met = await gone(req.textGone);
  return { waitedMs: Date.now() - started, met: met && !signal?.aborted, url: page.url() };
}
