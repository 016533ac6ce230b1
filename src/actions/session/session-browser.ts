import { BrowserError } from '../../browser/plumbing/errors.js';
import type { BrowserHandle } from '../../browser/plumbing/launch.js';
import { moveTab } from '../../browser/plumbing/navigation.js';
import type { PageDriver } from '../../browser/plumbing/page-driver.js';
import { aDialog, type DialogInfo, PageEvents } from '../../browser/plumbing/page-events.js';
import type { BlockedRequest } from '../../browser/plumbing/url-policy.js';
import { ActionError } from '../check/errors.js';
import type { MissLog } from '../check/misses.js';
import { TabSet } from '../verbs/tabs.js';
import type { FrameStore } from './frames.js';

/**
 * The browser side of a session: its tabs, (re)launched when the browser is gone, a tab replaced when its
 * page crashed or hangs, and what happened to them that the agent must hear (said once, with the next
 * answer). The session's actions ask it for the active tab's driver.
 */
export class SessionBrowser {
  private handle: BrowserHandle | undefined;
  private tabSet: TabSet | undefined;
  private opening: Promise<BrowserHandle> | undefined;
  private notice: string | undefined;
  /** The browser went away; the agent is told once a new one is up (not while it cannot be started). */
  private lost = false;

  constructor(
    private readonly o: {
      /** Where a browser comes from (one of the session's own, or a context on a shared one). */
      open: () => Promise<BrowserHandle>;
      frames: FrameStore;
      misses: MissLog;
      /** Told when the browser had to be started again (the mouse is nowhere now). */
      onRelaunch: () => void;
      handle?: BrowserHandle;
    },
  ) {
    if (o.handle) this.adopt(o.handle);
  }

  private adopt(handle: BrowserHandle): void {
    this.handle = handle;
    this.tabSet = new TabSet(handle, (tab) => this.o.frames.clearTab(tab.id, 'the tab it shows closed'));
  }

  /** The tabs, (re)launching the browser when it is missing, closed or crashed. */
  async tabs(): Promise<TabSet> {
    if (this.handle && this.tabSet && this.handle.isConnected()) {
      const was = this.tabSet.active;
      const other = this.tabSet.fallBack();
      if (!other) {
        await this.tabSet.open();
        this.notice =
          'The tab trueclick was acting on closed, so trueclick started a new one (frames of the closed tab are void).';
      } else if (other !== was) {
        this.notice = `The tab trueclick was acting on closed; it now acts on tab ${this.tabSet.indexOf(other)} (${other.page.url()}).`;
      }
      return this.tabSet;
    }
    if (this.handle) {
      this.lost = true;
      this.o.frames.clear('the tab or browser closed and trueclick started a new one');
      this.o.misses.clear();
      this.o.onRelaunch();
      await this.handle.close().catch(() => {});
      this.handle = undefined;
    }
    this.opening ??= this.o.open().finally(() => {
      this.opening = undefined;
    });
    const fresh = await this.opening;
    this.adopt(fresh);
    if (this.lost) {
      this.lost = false;
      this.notice =
        fresh.regained ??
        'The browser or tab had closed; trueclick started a new one (earlier frames are void).';
    }
    return this.tabSet as TabSet;
  }

  /** The active tab's driver; a tab whose page crashed or hangs is replaced first (and the agent told). */
  async driver(): Promise<PageDriver> {
    const tabs = await this.tabs();
    let driver = await tabs.driverOf(tabs.active);
    if (driver.isClosed) driver = await (await this.tabs()).driverOf((this.tabSet as TabSet).active);
    if (driver.crashed || (driver.timedOut && (await this.hung(driver))))
      driver = await this.replaceTab(driver);
    return driver;
  }

  /** Before leaving a page: one stuck in a script would hold the navigation (30 s, every time). */
  async ensureResponsive(): Promise<void> {
    const driver = await this.driver();
    if (await this.hung(driver)) await this.replaceTab(driver);
  }

  /** The page does not answer, and no dialog explains it (a dialog holds every script call until answered). */
  private async hung(driver: PageDriver): Promise<boolean> {
    return !this.dialog && !(await driver.responsive());
  }

  /**
   * A page whose renderer died is opened again at its URL in a fresh tab; a page stuck in a script is
   * left (loading it again would likely hang again): the fresh tab is blank and the agent is told.
   */
  private async replaceTab(dead: PageDriver): Promise<PageDriver> {
    const tabs = this.tabSet as TabSet;
    const url = dead.url;
    const crashed = dead.crashed;
    const fresh = await tabs.replace(tabs.active);
    const driver = await tabs.driverOf(fresh);
    this.o.misses.clear();
    const again = crashed && /^https?:/.test(url);
    if (again) await moveTab(driver, 'goto', { url }).catch(() => {});
    this.notice = crashed
      ? `The tab's page crashed (its renderer died); trueclick replaced the tab${again ? ` and opened ${url} again` : ''} (frames of the old tab are void).`
      : `The page at ${url} stopped answering (a script kept it busy past trueclick's budget); trueclick closed its tab and opened a blank one (frames of the old tab are void). Navigate again to retry it.`;
    return driver;
  }

  /**
   * Whether a call failed only because another connection took the place of the one under it (the user
   * shared another tab through the extension as the call began). A browser that died is not one: the next
   * call starts a new one and says so.
   */
  async handedOver(err: unknown): Promise<boolean> {
    const handle = this.handle;
    if (!(err instanceof BrowserError) || err.code !== 'PAGE_CLOSED' || !handle?.handedOver) return false;
    return handle.handedOver();
  }

  /** A call that failed because the tab went: the browser's source may say why, and what to do. */
  async explain(err: unknown): Promise<unknown> {
    const why = this.handle?.whyLost;
    if (!(err instanceof BrowserError) || err.code !== 'PAGE_CLOSED' || !why) return err;
    return (await why()) ?? err;
  }

  takeNotice(): string | undefined {
    const n = this.notice;
    this.notice = undefined;
    return n;
  }

  /** The dialog the active tab shows, if any (the page is frozen until it is answered). */
  get dialog(): DialogInfo | null {
    const page = this.tabSet?.active.page;
    return page ? PageEvents.of(page).dialog : null;
  }

  assertNoDialog(): void {
    const dialog = this.dialog;
    if (!dialog) return;
    throw new ActionError(
      'DIALOG_OPEN',
      `The page shows ${aDialog(dialog)} ("${dialog.message.slice(0, 200)}"), and nothing on it answers until that dialog does.`,
      'Answer it with browser_handle_dialog {accept: true|false}.',
      undefined,
      'blocked',
    );
  }

  /** Documents the URL policy refused, in this browser (newest last). */
  get blocked(): readonly BlockedRequest[] {
    return this.handle?.blocked ?? [];
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    this.tabSet = undefined;
    await h?.close().catch(() => {});
  }
}
