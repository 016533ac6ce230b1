import type { Page } from 'playwright-core';
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
  const look = async (text: string, state: 'visible' | 'hidden') => {
    const wait = page.getByText(text).first().waitFor({ state, timeout: budget });
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
  if (req.textGone !== undefined && met && !signal?.aborted) met = await look(req.textGone, 'hidden');
  return { waitedMs: Date.now() - started, met: met && !signal?.aborted, url: page.url() };
}
