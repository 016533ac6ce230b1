import type { Page } from 'playwright-core';
import { withBudget } from '../../browser/plumbing/errors.js';
import type { BrowserHandle } from '../../browser/plumbing/launch.js';
import { moveTab, type NavigationResult } from '../../browser/plumbing/navigation.js';
import type { PageDriver } from '../../browser/plumbing/page-driver.js';
import { ActionError } from '../check/errors.js';

/** One tab of the session's browser context, with its own driver (made when first needed). */
export interface Tab {
  /** Stable for the tab's life; frames remember it. Indices (positions) shift when tabs close. */
  id: number;
  page: Page;
  driver?: Promise<PageDriver>;
}

/**
 * One tab as listed to the agent: `index` is its position among the session's tabs (from 0, shifting when a
 * tab closes), and `active` marks the tab trueclick acts on.
 */
export interface TabInfo {
  index: number;
  url: string;
  title: string;
  active: boolean;
}

/** How long a tab the page asked for (window.open, target=_blank) may take to appear. */
const NEW_TAB_BUDGET_MS = 3_000;

/**
 * The tabs of the session's context, in the order they opened, and the one trueclick acts on. Pages the
 * site opens (popups, target=_blank) join on their own; the session follows one its action opened.
 */
export class TabSet {
  private readonly tabs: Tab[] = [];
  private nextId = 1;
  private activeTab: Tab;
  private readonly waiters = new Set<(t: Tab) => void>();

  constructor(
    private readonly handle: BrowserHandle,
    /** Told when a tab closes (its frames go with it). */
    private readonly onClose: (tab: Tab) => void = () => {},
  ) {
    this.activeTab = this.adopt(handle.driver.page, Promise.resolve(handle.driver));
    for (const p of handle.context.pages()) if (p !== handle.driver.page) this.adopt(p);
    handle.context.on('page', (p) => {
      const tab = this.adopt(p);
      for (const w of this.waiters) w(tab);
    });
  }

  private adopt(page: Page, driver?: Promise<PageDriver>): Tab {
    const known = this.tabs.find((t) => t.page === page);
    if (known) return known;
    const tab: Tab = { id: this.nextId++, page };
    if (driver) tab.driver = driver;
    this.tabs.push(tab);
    page.on('close', () => {
      const i = this.tabs.indexOf(tab);
      if (i >= 0) this.tabs.splice(i, 1);
      this.onClose(tab);
    });
    return tab;
  }

  get active(): Tab {
    return this.activeTab;
  }

  get count(): number {
    return this.tabs.length;
  }

  indexOf(tab: Tab): number {
    return this.tabs.indexOf(tab);
  }

  /** The driver of a tab, set up like the first one (viewport, scale factor, guard). */
  driverOf(tab: Tab): Promise<PageDriver> {
    tab.driver ??= this.handle.driverFor(tab.page);
    return tab.driver;
  }

  async list(): Promise<TabInfo[]> {
    return Promise.all(
      this.tabs.map(async (t, index) => ({
        index,
        url: t.page.url(),
        // A page busy in a script answers nothing: its title is not worth a hung list.
        title: await withBudget('reading a tab title', 1_000, t.page.title()).catch(() => ''),
        active: t === this.activeTab,
      })),
    );
  }

  at(index: number): Tab {
    const tab = this.tabs[index];
    if (!tab) {
      throw new ActionError(
        'UNKNOWN_TAB',
        `There is no tab ${index}; the tabs are 0–${this.tabs.length - 1}.`,
        'Call browser_tabs {action: "list"} and pass one of its indices.',
        'index',
      );
    }
    return tab;
  }

  select(tab: Tab): void {
    this.activeTab = tab;
  }

  /** Opens a new tab in the context and makes it active. */
  async open(): Promise<Tab> {
    const page = await this.handle.context.newPage();
    const tab = this.adopt(page);
    this.activeTab = tab;
    return tab;
  }

  /**
   * Replaces a tab whose page died or hangs: a fresh tab takes its place as the active one, and the old one
   * is closed (a renderer stuck in a script is ended with it).
   */
  async replace(tab: Tab): Promise<Tab> {
    const fresh = await this.open();
    await tab.page.close({ runBeforeUnload: false }).catch(() => {});
    return fresh;
  }

  /** When the active tab closed: the last open one becomes active; undefined when none is left. */
  fallBack(): Tab | undefined {
    if (this.tabs.includes(this.activeTab)) return this.activeTab;
    const last = this.tabs.at(-1);
    if (last) this.activeTab = last;
    return last;
  }

  /** Tabs opened since `before` (a count), waiting a moment for one the page asked for. */
  async openedSince(before: Set<Tab>, asked: boolean): Promise<Tab[]> {
    const fresh = () => this.tabs.filter((t) => !before.has(t));
    if (fresh().length > 0 || !asked) return fresh();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, NEW_TAB_BUDGET_MS);
      this.waiters.add(done);
    });
    return fresh();
  }

  snapshot(): Set<Tab> {
    return new Set(this.tabs);
  }
}

export type TabAction = 'list' | 'new' | 'select' | 'close';

/** browser_tabs: opens a tab (and a URL in it), selects one or closes one; the list and the active one after. */
export async function tabAction(
  tabs: TabSet,
  action: TabAction,
  opts: { index?: number; url?: string; signal?: AbortSignal } = {},
): Promise<{ tabs: TabInfo[]; active: number; navigation?: NavigationResult }> {
  let navigation: NavigationResult | undefined;
  if (action === 'new') {
    const tab = await tabs.open();
    const driver = await tabs.driverOf(tab);
    if (opts.url)
      navigation = await moveTab(driver, 'goto', {
        url: opts.url,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
  } else if (action === 'select') {
    if (opts.index === undefined)
      throw new ActionError(
        'INDEX_REQUIRED',
        'select needs index.',
        'Pass the tab’s index from browser_tabs {action: "list"}.',
        'index',
      );
    tabs.select(tabs.at(opts.index));
    await tabs.driverOf(tabs.active);
  } else if (action === 'close') {
    const tab = opts.index === undefined ? tabs.active : tabs.at(opts.index);
    await tab.page.close({ runBeforeUnload: false });
    if (!tabs.fallBack()) await tabs.open();
  }
  return {
    tabs: await tabs.list(),
    active: tabs.indexOf(tabs.active),
    ...(navigation ? { navigation } : {}),
  };
}
