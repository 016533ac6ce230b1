import type { PageDriver } from '../browser/page-driver.js';
import { type DialogInfo, PageEvents } from '../browser/page-events.js';
import type { Tab, TabSet } from './tabs.js';

/** What an action opened beside its own effect: a dialog, a new tab (followed), a file chooser. */
export interface Effects {
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

  constructor(
    private readonly driver: PageDriver,
    private readonly tabs: TabSet,
  ) {
    this.before = tabs.snapshot();
    this.opens = driver.windowOpens;
  }

  async effects(): Promise<Effects> {
    const out: Effects = {};
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
  if (e.dialog)
    parts.push(
      ` The page opened a ${e.dialog.type} dialog ("${e.dialog.message.slice(0, 200)}"): answer it with browser_handle_dialog {accept: true|false} before anything else.`,
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
