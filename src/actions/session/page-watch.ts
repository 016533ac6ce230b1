import type { PageDriver } from '../../browser/plumbing/page-driver.js';
import { aDialog, type DialogInfo, PageEvents } from '../../browser/plumbing/page-events.js';
import type { BlockedRequest } from '../../browser/plumbing/url-policy.js';
import type { Tab, TabSet } from '../verbs/tabs.js';

/** What an action opened beside its own effect: a dialog, a new tab (followed), a file chooser. */
export interface Effects {
  /** A document the page asked for that the URL policy refused (a link, a redirect, an iframe): not loaded. */
  blocked?: { url: string; reason: string };
  dialog?: DialogInfo;
  newTab?: { index: number; url: string; followed: boolean };
  fileChooser?: { multiple: boolean };
}

/** How long a followed tab may take to load before the action answers. */
const NEW_TAB_LOAD_MS = 5_000;

/**
 * Watches one action for what it opens. A link with target=_blank or a window.open opens a tab after the
 * click's events (Page.windowOpen says one is coming); the session follows it, so the agent's next
 * screenshot shows what the click opened, and is told so.
 */
export class PageWatch {
  private readonly before: Set<Tab>;
  private readonly opens: number;

  private readonly since: number;

  constructor(
    private readonly driver: PageDriver,
    private readonly tabs: TabSet,
    private readonly blocked: readonly BlockedRequest[] = [],
  ) {
    this.before = tabs.snapshot();
    this.opens = driver.windowOpens;
    this.since = Date.now();
    this.frame = driver.mainFrameId;
  }

  /** The tab's main frame when the action began (a navigation away keeps its id, a failed one too). */
  private readonly frame: string;

  async effects(): Promise<Effects> {
    const out: Effects = {};
    const recent = this.blocked.filter((b) => b.t >= this.since);
    // One browser may serve several sessions: only this tab's frames count.
    const mine = recent.length > 0 ? await this.driver.frameIds().catch(() => new Set<string>()) : null;
    const refused = mine
      ? recent.filter((b) => mine.has(b.frameId) || b.frameId === this.frame).at(-1)
      : undefined;
    if (refused) out.blocked = { url: refused.url, reason: refused.reason };
    const events = PageEvents.of(this.driver.page);
    const dialog = events.dialog;
    if (dialog) out.dialog = dialog;
    const chooser = events.chooser;
    if (chooser) out.fileChooser = { multiple: chooser.isMultiple() };
    // With a dialog up the page is frozen; a tab it opens is seen by the next call.
    if (dialog) return out;
    const fresh = await this.tabs.openedSince(this.before, this.driver.windowOpens > this.opens);
    const tab = fresh[0];
    if (tab) {
      this.tabs.select(tab);
      await tab.page.waitForLoadState('load', { timeout: NEW_TAB_LOAD_MS }).catch(() => {});
      await this.tabs.driverOf(tab);
      out.newTab = { index: this.tabs.indexOf(tab), url: tab.page.url(), followed: true };
    }
    return out;
  }
}

/** The sentence an action's message gets for what it opened. */
export function effectsSentence(e: Effects): string {
  const parts: string[] = [];
  if (e.blocked)
    parts.push(
      ` The page asked to open ${e.blocked.url.slice(0, 200)}, and trueclick blocked it: ${e.blocked.reason}.`,
    );
  if (e.dialog)
    parts.push(
      ` The page opened ${aDialog(e.dialog)} ("${e.dialog.message.slice(0, 200)}"): answer it with browser_handle_dialog {accept: true|false} before anything else.`,
    );
  if (e.newTab)
    parts.push(
      ` It opened a new tab (${e.newTab.index}: ${e.newTab.url}); trueclick now acts on that tab (browser_tabs select goes back). Take a screenshot of it.`,
    );
  if (e.fileChooser)
    parts.push(
      ` A file chooser opened: answer it with browser_file_upload {paths}${e.fileChooser.multiple ? ' (several files allowed)' : ''}.`,
    );
  return parts.join('');
}

/** Only the effect fields of a result (for structuredContent, and for a batch's summary). */
export function effectsOf(r: Effects): Effects {
  return {
    ...(r.blocked ? { blocked: r.blocked } : {}),
    ...(r.dialog ? { dialog: r.dialog } : {}),
    ...(r.newTab ? { newTab: r.newTab } : {}),
    ...(r.fileChooser ? { fileChooser: r.fileChooser } : {}),
  };
}
