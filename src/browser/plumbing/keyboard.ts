import type { Page } from 'playwright-core';
import { sleep } from './errors.js';
import { type DialogInfo, PageEvents } from './page-events.js';

/** Characters typed per keyboard call: a cancelled call stops within one chunk. */
const TYPE_CHUNK = 50;

export interface KeyOutcome {
  /** Characters (or presses) sent before the call stopped. */
  done: number;
  dialog?: DialogInfo;
  cancelled?: boolean;
}

/**
 * Types text as key events into the focused element, in chunks: between chunks a cancelled call stops, and
 * a dialog raised by a key (Enter submitting a form with a confirm) ends the call with that dialog.
 */
export async function typeText(page: Page, text: string, signal?: AbortSignal): Promise<KeyOutcome> {
  const events = PageEvents.of(page);
  const chars = Array.from(text);
  let done = 0;
  while (done < chars.length) {
    if (signal?.aborted) return { done, cancelled: true };
    const chunk = chars.slice(done, done + TYPE_CHUNK).join('');
    const r = await events.race(page.keyboard.type(chunk));
    if (!r.done) return { done, dialog: r.dialog };
    done += Array.from(chunk).length;
  }
  return { done };
}

/** Presses a chord (`Control+a`, `Shift+Tab`, `Enter`) `repeat` times; Playwright key names. */
export async function pressChord(
  page: Page,
  chord: string,
  repeat = 1,
  signal?: AbortSignal,
): Promise<KeyOutcome> {
  const events = PageEvents.of(page);
  for (let i = 0; i < repeat; i++) {
    if (signal?.aborted) return { done: i, cancelled: true };
    const r = await events.race(page.keyboard.press(chord));
    if (!r.done) return { done: i, dialog: r.dialog };
  }
  return { done: repeat };
}

/** Holds keys down for a while, then releases them in reverse (Anthropic's hold_key). */
export async function holdKeys(
  page: Page,
  keys: string[],
  ms: number,
  signal?: AbortSignal,
): Promise<KeyOutcome> {
  for (const k of keys) await page.keyboard.down(k);
  await sleep(ms, signal);
  for (const k of [...keys].reverse()) await page.keyboard.up(k);
  return { done: 1, ...(signal?.aborted ? { cancelled: true } : {}) };
}

/** Whether Playwright knows a key name (it throws on unknown ones only when pressing). */
export function isKnownKeyError(err: unknown): boolean {
  return err instanceof Error && /Unknown key/i.test(err.message);
}
