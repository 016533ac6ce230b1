import type { Page } from 'playwright-core';
import { describeHit } from '../../browser/identity/element-facts.js';
import { isKnownKeyError, type KeyOutcome, pressChord, typeText } from '../../browser/plumbing/keyboard.js';
import { PageEvents } from '../../browser/plumbing/page-events.js';
import { newDocument } from '../check/check.js';
import { ActionError } from '../check/errors.js';
import type { ActionContext } from '../check/target.js';
import type { ClickReport } from '../check/verdicts.js';
import { type ClickRequest, guardedClick } from './click.js';

export interface TypeOptions {
  /** Press Enter after the text, once all of it was typed. */
  submit?: boolean;
  /** Select what the field holds and delete it first. */
  clear?: boolean;
  /** Click this first (guarded, like browser_click); without it, keys go to the focused element. */
  target?: ClickRequest;
  signal?: AbortSignal;
}

export interface TypeResult {
  click?: ClickReport;
  typed: number;
  submitted: boolean;
  /**
   * The tab loaded another document while the keys went out (what it loaded): the last few sent may have
   * reached it (keys go out 50 at a time), the rest and Enter were not sent.
   */
  newDocument?: string;
  /** Typed with no target while nothing had focus: the keys went to the page itself, into no field. */
  unfocused?: true;
}

/** Types into the focused element, or clicks a target first; a field that takes no typing is refused. */
export async function typeInto(ctx: ActionContext, text: string, opts: TypeOptions): Promise<TypeResult> {
  const { driver } = ctx;
  // The keys are for the document the agent saw: one loaded since (a reload, a link) gets none of them.
  const doc = driver.loaderId;
  let click: ClickReport | undefined;
  if (opts.target) {
    click = await guardedClick(ctx, { ...opts.target, typing: true });
    if (click.verdict !== 'OK' || PageEvents.of(driver.page).dialog)
      return { click, typed: 0, submitted: false };
  }
  const stop = new AbortController();
  const cancel = () => stop.abort();
  opts.signal?.addEventListener('abort', cancel);
  const unwatch = driver.watchDocument(() => {
    if (newDocument(driver, doc)) cancel();
  });
  try {
    if (opts.signal?.aborted || newDocument(driver, doc)) cancel();
    const page = driver.page;
    if (!opts.target && !stop.signal.aborted) await refuseReadOnlyFocus(page);
    // Typed anyway (a page may take keys itself), but never reported as typed "into the focused element".
    const unfocused = !opts.target && (await nothingFocused(page).catch(() => false));
    if (opts.clear && !stop.signal.aborted) {
      await pressChord(page, process.platform === 'darwin' ? 'Meta+a' : 'Control+a');
      await pressChord(page, 'Delete');
    }
    const typed: KeyOutcome = await typeText(page, text, stop.signal);
    // Read before Enter: the submit's own navigation is its effect, and Enter goes to no other document.
    const gone = newDocument(driver, doc);
    let submitted = false;
    if (opts.submit && !gone && typed.done === Array.from(text).length && !typed.dialog && !typed.cancelled) {
      const enter = await pressChord(page, 'Enter');
      submitted = enter.done === 1 || Boolean(enter.dialog);
    }
    return {
      ...(click ? { click } : {}),
      typed: typed.done,
      submitted,
      ...(gone ? { newDocument: gone } : {}),
      ...(unfocused ? { unfocused } : {}),
    };
  } finally {
    unwatch();
    opts.signal?.removeEventListener('abort', cancel);
  }
}

/** What a typing did, as browser_type and browser_act both answer it (the effects it had are said apart). */
export function typeOutcome(r: TypeResult, text: string): { verdict: 'OK' | 'UNVERIFIED'; message: string } {
  const length = Array.from(text).length;
  const where = r.click
    ? ` into ${describeHit(r.click.landed ?? r.click.hitNow)}`
    : r.unfocused
      ? ' with nothing focused: the keys went to the page itself, into no field'
      : ' into the focused element';
  const what =
    r.typed === length
      ? JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)
      : `${r.typed} of ${length} characters`;
  if (r.newDocument)
    return {
      verdict: 'UNVERIFIED',
      message: `Stopped typing: ${r.newDocument} while the keys went out (${r.typed} of ${length} characters sent${where}); the last of them may have reached the new document. Take a new screenshot and check the field before you type again.`,
    };
  const typed = `Typed ${what}${where}${r.submitted ? ' and pressed Enter' : ''}.`;
  return r.unfocused
    ? {
        verdict: 'UNVERIFIED',
        message: `${typed} If you meant a field, click it first or pass it as the target, and check it in a new screenshot.`,
      }
    : { verdict: 'OK', message: typed };
}

/** A key or a chord (`Control+A`), `repeat` times; an unknown key name is refused, nothing pressed. */
export async function pressKeys(
  page: Page,
  key: string,
  opts: { repeat?: number; signal?: AbortSignal } = {},
): Promise<{ pressed: number }> {
  try {
    const r = await pressChord(page, key, opts.repeat ?? 1, opts.signal);
    return { pressed: r.done };
  } catch (err) {
    if (!isKnownKeyError(err)) throw err;
    throw new ActionError(
      'BAD_KEY',
      `Unknown key "${key.slice(0, 64)}": ${(err as Error).message.split('\n')[0]}`,
      'Use a key name such as Enter, Tab, Escape, ArrowDown, PageDown, a single character, or a chord like Control+A.',
      'key',
    );
  }
}

/** Typing without a target goes to the focused element: one that takes no typing is refused, nothing typed. */
async function refuseReadOnlyFocus(page: Page): Promise<void> {
  const field = await focusedField(page).catch(() => null);
  if (field && (field.readOnly || field.disabled))
    throw new ActionError(
      'DISABLED',
      `The focused field "${field.name}" is ${field.readOnly ? 'read-only' : 'disabled'}: nothing was typed.`,
      'Take a screenshot: the page may say what enables it; or type into another field (browser_type with a target).',
      'text',
      'blocked',
    );
}

/** Whether keys would go to no element: nothing focused, or only the page's body. */
function nothingFocused(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const a = document.activeElement;
    return !a || a === document.body || a === document.documentElement;
  });
}

/**
 * The text field keys would go to: the focused element, followed through shadow roots and same-origin
 * iframes; null when it is no input or textarea.
 */
export function focusedField(page: Page) {
  return page.evaluate(() => {
    let el: Element | null = document.activeElement;
    for (let i = 0; i < 20 && el; i++) {
      const inner: Element | null | undefined =
        el.shadowRoot?.activeElement ??
        (el instanceof HTMLIFrameElement ? el.contentDocument?.activeElement : undefined);
      if (!inner) break;
      el = inner;
    }
    const f = el as HTMLInputElement | null;
    if (!f || !(f.nodeName === 'INPUT' || f.nodeName === 'TEXTAREA')) return null;
    return {
      name: f.name || f.id || f.nodeName.toLowerCase(),
      password: f.nodeName === 'INPUT' && f.type === 'password',
      readOnly: f.readOnly,
      disabled: f.disabled,
    };
  });
}
