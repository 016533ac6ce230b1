/**
 * The browser as Playwright sees it through the extension: only the tabs the user shared. Playwright speaks
 * CDP to a browser; the extension can only debug tabs (chrome.debugger). So the browser-level part of the
 * protocol (the root session, Target.*) is answered here, and everything addressed to a tab, or to a frame
 * inside it, goes to the extension for that tab.
 */

/** What Chrome says of a target (the part of Target.TargetInfo this file reads). */
export interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  title?: string;
  browserContextId?: string;
  openerId?: string;
  [key: string]: unknown;
}

export interface CdpMessage {
  id?: number;
  sessionId?: string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { message: string };
}

/** Asks the extension: CDP for a tab (or a frame session in it), a new tab, closing or showing one. */
export type ExtensionCall = (cmd: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** A session Chrome made for a frame in a tab (a cross-site iframe), with the aliases Playwright opened on it. */
interface Child {
  targetId: string;
  aliases: Set<string>;
}

interface Tab {
  tabId: number;
  info: TargetInfo;
  /** The session the tab has on Playwright's root (announced by Target.attachedToTarget). */
  session: string;
  /** Further sessions on the tab (Playwright's newCDPSession): the extension has one debugger per tab. */
  aliases: Set<string>;
  children: Map<string, Child>;
}

/** Where a session Playwright uses leads: a tab, or a frame session inside one. */
interface Route {
  tabId: number;
  child?: string;
  /** The browser session an alias was opened from (its detach is announced there). */
  parent?: string;
}

export class SharedTabs {
  private readonly tabs = new Map<number, Tab>();
  private readonly routes = new Map<string, Route>();
  private readonly browserSessions = new Set<string>();
  private autoAttach = false;
  private next = 1;
  /** Where messages to Playwright go (null while no Playwright connection is open). */
  private emit: ((m: CdpMessage) => void) | null = null;
  userAgent = '';

  constructor(private readonly call: ExtensionCall) {}

  get count(): number {
    return this.tabs.size;
  }

  /** The tab shared most recently still shared (the one the user looks at, as they just chose it). */
  get newest(): TargetInfo | undefined {
    return [...this.tabs.values()].at(-1)?.info;
  }

  /** A Playwright connection opens (it starts from a fresh root: nothing announced yet). */
  open(emit: (m: CdpMessage) => void): void {
    this.emit = emit;
    this.autoAttach = false;
    this.browserSessions.clear();
    for (const tab of this.tabs.values()) {
      for (const a of tab.aliases) this.routes.delete(a);
      tab.aliases.clear();
      for (const c of tab.children.values()) {
        for (const a of c.aliases) this.routes.delete(a);
        c.aliases.clear();
      }
    }
  }

  closed(): void {
    this.emit = null;
  }

  // ─── From the extension ───

  onShared(tabId: number, info: TargetInfo): void {
    if (this.tabs.has(tabId)) return;
    const session = `tc-tab-${this.next++}`;
    const tab: Tab = { tabId, info, session, aliases: new Set(), children: new Map() };
    this.tabs.set(tabId, tab);
    this.routes.set(session, { tabId });
    if (this.autoAttach) this.announce(tab);
  }

  /** A tab stopped being shared; false when it was not (any more). */
  onUnshared(tabId: number): boolean {
    const tab = this.tabs.get(tabId);
    if (!tab) return false;
    this.tabs.delete(tabId);
    this.routes.delete(tab.session);
    for (const c of tab.children.values()) this.dropAliases(c.aliases, c.targetId);
    this.dropAliases(tab.aliases, tab.info.targetId);
    if (this.autoAttach)
      this.emit?.({
        method: 'Target.detachedFromTarget',
        params: { sessionId: tab.session, targetId: tab.info.targetId },
      });
    return true;
  }

  /** The extension unplugged (reloaded, turned off, trueclick's link closed): every tab goes. */
  clear(): void {
    for (const tabId of [...this.tabs.keys()]) this.onUnshared(tabId);
  }

  onEvent(
    tabId: number,
    sessionId: string | undefined,
    method: string,
    params: Record<string, unknown>,
  ): void {
    const tab = this.tabs.get(tabId);
    if (!tab) return;
    const child = params.sessionId as string | undefined;
    if (method === 'Target.attachedToTarget' && child) {
      const info = params.targetInfo as TargetInfo;
      tab.children.set(child, { targetId: info.targetId, aliases: new Set() });
      this.routes.set(child, { tabId, child });
    } else if (method === 'Target.detachedFromTarget' && child) {
      const c = tab.children.get(child);
      tab.children.delete(child);
      this.routes.delete(child);
      if (c) this.dropAliases(c.aliases, c.targetId);
    }
    if (!this.autoAttach) return;
    const source = sessionId ? tab.children.get(sessionId) : undefined;
    if (sessionId && !source) return;
    this.emit?.({ sessionId: sessionId ?? tab.session, method, params });
    for (const a of source ? source.aliases : tab.aliases) this.emit?.({ sessionId: a, method, params });
  }

  // ─── From Playwright ───

  /** Answers one of Playwright's commands (a result, or throws with the message Playwright should see). */
  async command(m: CdpMessage): Promise<unknown> {
    const method = m.method ?? '';
    const params = m.params ?? {};
    if (m.sessionId === undefined || this.browserSessions.has(m.sessionId))
      return this.browserCommand(method, params, m.sessionId);
    const route = this.routes.get(m.sessionId);
    if (!route) throw new Error(`No session ${m.sessionId}: its tab is no longer shared`);
    return this.call({
      cmd: 'send',
      tabId: route.tabId,
      ...(route.child ? { sessionId: route.child } : {}),
      method,
      params,
    });
  }

  private async browserCommand(method: string, params: Record<string, unknown>, session?: string) {
    switch (method) {
      case 'Browser.getVersion':
        return {
          protocolVersion: '1.3',
          product:
            /(?:HeadlessChrome|Chrome|Chromium)\/[\d.]+/.exec(this.userAgent)?.[0] ?? 'Chrome/125.0.0.0',
          revision: '',
          userAgent: this.userAgent,
          jsVersion: '',
        };
      case 'Target.setAutoAttach':
        if (!this.autoAttach) {
          this.autoAttach = true;
          for (const tab of this.tabs.values()) this.announce(tab);
        }
        return {};
      case 'Target.attachToBrowserTarget': {
        const id = `tc-browser-${this.next++}`;
        this.browserSessions.add(id);
        return { sessionId: id };
      }
      case 'Target.attachToTarget':
        return { sessionId: this.alias(String(params.targetId), session) };
      case 'Target.detachFromTarget': {
        const id = String(params.sessionId);
        const route = this.routes.get(id);
        if (route?.parent !== undefined) this.unalias(id, route);
        return {};
      }
      case 'Target.getTargets':
        return { targetInfos: [...this.tabs.values()].map((t) => ({ ...t.info, attached: true })) };
      case 'Target.getTargetInfo':
        return { targetInfo: this.newest ?? {} };
      case 'Target.createTarget': {
        const { tabId } = await this.call({ cmd: 'create', url: params.url ?? 'about:blank' });
        const tab = this.tabs.get(Number(tabId));
        if (!tab) throw new Error('The new tab could not be shared');
        return { targetId: tab.info.targetId };
      }
      case 'Target.closeTarget':
        await this.call({ cmd: 'close', tabId: this.tabOf(String(params.targetId)).tabId });
        return { success: true };
      case 'Target.activateTarget':
        await this.call({ cmd: 'activate', tabId: this.tabOf(String(params.targetId)).tabId });
        return {};
      // The user's browser is theirs: trueclick neither closes it nor changes its download folder.
      case 'Browser.close':
      case 'Browser.setDownloadBehavior':
      case 'Target.setDiscoverTargets':
        return {};
      case 'Target.getBrowserContexts':
        return { browserContextIds: [] };
      default:
        throw new Error(
          `${method} is not available through the trueclick extension (it shares tabs, not the browser)`,
        );
    }
  }

  private announce(tab: Tab): void {
    this.emit?.({
      method: 'Target.attachedToTarget',
      params: {
        sessionId: tab.session,
        targetInfo: { ...tab.info, attached: true },
        waitingForDebugger: false,
      },
    });
  }

  private tabOf(targetId: string): Tab {
    for (const tab of this.tabs.values()) if (tab.info.targetId === targetId) return tab;
    throw new Error(`No shared tab is target ${targetId}`);
  }

  /** Another session on a tab or on a frame in it: it reaches the same debugger and hears the same events. */
  private alias(targetId: string, parent: string | undefined): string {
    const id = `tc-alias-${this.next++}`;
    for (const tab of this.tabs.values()) {
      if (tab.info.targetId === targetId) {
        tab.aliases.add(id);
        this.routes.set(id, { tabId: tab.tabId, ...(parent ? { parent } : {}) });
        return id;
      }
      for (const [child, c] of tab.children) {
        if (c.targetId !== targetId) continue;
        c.aliases.add(id);
        this.routes.set(id, { tabId: tab.tabId, child, ...(parent ? { parent } : {}) });
        return id;
      }
    }
    throw new Error(`No shared tab or frame is target ${targetId}`);
  }

  private unalias(id: string, route: Route): void {
    const tab = this.tabs.get(route.tabId);
    (route.child ? tab?.children.get(route.child)?.aliases : tab?.aliases)?.delete(id);
    this.routes.delete(id);
  }

  /** Aliases of a target that went: each is told on the session it was opened from. */
  private dropAliases(aliases: Set<string>, targetId: string): void {
    for (const a of aliases) {
      const parent = this.routes.get(a)?.parent;
      this.routes.delete(a);
      this.emit?.({
        ...(parent ? { sessionId: parent } : {}),
        method: 'Target.detachedFromTarget',
        params: { sessionId: a, targetId },
      });
    }
    aliases.clear();
  }
}
