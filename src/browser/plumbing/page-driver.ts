import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping.js';
import type { CDPSession, Page } from 'playwright-core';
import type { ElementFacts } from '../identity/element-facts.js';
import { GUARD_BINDING, GUARD_SOURCE, GUARD_WORLD } from '../identity/guard-script.js';
import { BrowserError, isTargetClosed, withBudget } from './errors.js';
import { type DialogInfo, PageEvents } from './page-events.js';

export const CDP_BUDGET_MS = 5_000;

type ParamsOf<M extends keyof ProtocolMapping.Commands> = [
  ProtocolMapping.Commands[M]['paramsType'][0],
] extends [undefined]
  ? Record<string, never>
  : NonNullable<ProtocolMapping.Commands[M]['paramsType'][0]>;

/** What the main frame did after a moment in time (a click): where it went, if anywhere. */
export interface NavigationRecord {
  /** A new document was requested (link, form, script): its URL and Chromium's reason. */
  requested?: { url: string; reason: string };
  /** A new document committed (the loader id changed). */
  committed?: string;
  /** history.pushState / replaceState / a fragment: the URL the page moved to without a new document. */
  sameDocument?: string;
  /** The frame asked for a new tab or window (a target=_blank link, window.open): its URL. */
  opened?: string;
}

/** What happened to one input command: it was acknowledged, or a dialog opened before it could be. */
export type InputOutcome = { sent: true } | { sent: false; dialog: DialogInfo };

/** One trusted event the guard saw for an armed element (guard-script.ts reports them). */
export interface GuardEvent {
  type: string;
  t: number;
  delivered: boolean;
  /** clientX/Y as delivered, in the CSS viewport of the frame that holds the armed element. */
  x: number;
  y: number;
  /** Reached the checked element, but it (or its record) had changed since the check: stopped. */
  changed?: string;
  /** Reached the element the page drew anew in place of the checked one (a grid cell on a tick). */
  redrawn?: boolean;
  target: Omit<ElementFacts, 'backendNodeId'> | null;
}

/**
 * One page driven over one CDP session: the session that sets emulation also captures (a second session
 * would not follow it), and it tracks the main frame's URL and navigation (loader) id from Page events.
 * An iframe in another process (a cross-site iframe) gets a PageDriver of its own over its own session.
 */
export class PageDriver {
  mainFrameId = '';
  loaderId = '';
  url = '';
  /** The document that existed when we attached: its guard came late, behind the page's own listeners. */
  private lateLoaderId = '';
  /** trueclick's isolated world, per frame of this session (the page's frame and same-process iframes). */
  private readonly worlds = new Map<string, number>();
  /** Frames whose world was made on demand, after their document's own scripts had run. */
  private readonly lateWorlds = new Set<string>();
  private readonly guardEvents = new Map<string, GuardEvent[]>();
  private readonly navWatches = new Map<NavigationRecord, string | undefined>();
  private closed = false;
  /** How many times the page asked for a new tab or window (Page.windowOpen): a popup may follow. */
  windowOpens = 0;
  /** Its renderer died (killed, out of memory): the page answers nothing again. */
  crashed = false;
  /**
   * Device px per CSS px the browser window itself draws at, when known: 1 for a headless Chromium trueclick
   * launched, whatever ratio it emulates. A capture at this ratio is drawn without laying the page out again.
   */
  windowRatio?: number;
  /** A call ran out of its budget: the page may be stuck in a script (checked before the next call). */
  timedOut = false;
  /** Called at each main-frame commit and each new guard world (see untilDocument). */
  private readonly documentWatchers = new Set<() => void>();

  private constructor(
    readonly page: Page,
    readonly cdp: CDPSession,
    /** This session drives a cross-site iframe of `page`, not the page itself. */
    readonly remote: boolean,
  ) {}

  static async create(page: Page, cdp: CDPSession, remote = false): Promise<PageDriver> {
    const d = new PageDriver(page, cdp, remote);
    await d.init();
    return d;
  }

  private async init(): Promise<void> {
    const { cdp } = this;
    const watching = (frameId: string) =>
      [...this.navWatches].filter(([, f]) => (f ?? this.mainFrameId) === frameId).map(([w]) => w);
    cdp.on('Page.javascriptDialogClosed', () => PageEvents.of(this.page).dialogClosed());
    cdp.on('Page.frameNavigated', (e) => {
      for (const w of watching(e.frame.id))
        if (e.frame.parentId || e.frame.loaderId !== this.loaderId) w.committed = e.frame.url;
      if (e.frame.parentId) return;
      this.mainFrameId = e.frame.id;
      this.loaderId = e.frame.loaderId;
      this.url = e.frame.url;
      for (const f of this.documentWatchers) f();
    });
    cdp.on('Page.frameRequestedNavigation', (e) => {
      // A link with target=_blank, or a Ctrl / middle click on a link, asks for another tab (with no
      // Page.windowOpen for the latter): this frame stays where it is, and a tab is coming.
      if (e.disposition !== 'currentTab') {
        this.windowOpens++;
        for (const w of this.navWatches.keys()) w.opened = e.url;
        return;
      }
      for (const w of watching(e.frameId)) w.requested = { url: e.url, reason: e.reason };
    });
    cdp.on('Page.windowOpen', (e) => {
      this.windowOpens++;
      for (const w of this.navWatches.keys()) w.opened = e.url;
    });
    cdp.on('Page.navigatedWithinDocument', (e) => {
      for (const w of watching(e.frameId)) w.sameDocument = e.url;
      if (e.frameId === this.mainFrameId) this.url = e.url;
    });
    cdp.on('Runtime.executionContextCreated', (e) => {
      const aux = e.context.auxData as { frameId?: string } | undefined;
      if (e.context.name === GUARD_WORLD && aux?.frameId) {
        this.worlds.set(aux.frameId, e.context.id);
        // A new document's world, made by our script before its own; createIsolatedWorld marks late again.
        this.lateWorlds.delete(aux.frameId);
        for (const f of this.documentWatchers) f();
      }
    });
    cdp.on('Runtime.executionContextDestroyed', (e) => {
      for (const [frame, id] of this.worlds) if (id === e.executionContextId) this.worlds.delete(frame);
    });
    cdp.on('Runtime.executionContextsCleared', () => {
      this.worlds.clear();
    });
    cdp.on('Runtime.bindingCalled', (e) => {
      if (e.name !== GUARD_BINDING) return;
      try {
        const ev = JSON.parse(e.payload) as GuardEvent & { token: string };
        this.guardEvents.get(ev.token)?.push(ev);
      } catch {
        // not ours
      }
    });
    this.page.on('close', () => {
      this.closed = true;
    });
    this.page.on('crash', () => {
      this.crashed = true;
    });
    await Promise.all([cdp.send('Page.enable'), cdp.send('DOM.enable'), cdp.send('Runtime.enable')]);
    // With the overlay agent on, Blink hands mouse moves to the page at once instead of at the next frame
    // (unbuffered input, as for DevTools): a hover costs ~2 ms here, not up to 17. Nothing is drawn.
    await cdp.send('Overlay.enable').catch(() => {});
    const tree = await cdp.send('Page.getFrameTree');
    this.mainFrameId = tree.frameTree.frame.id;
    this.loaderId = tree.frameTree.frame.loaderId;
    this.url = tree.frameTree.frame.url;
    // Before the script: every guard world made from now on can report through it.
    await cdp.send('Runtime.addBinding', { name: GUARD_BINDING, executionContextName: GUARD_WORLD });
    await cdp.send('Page.addScriptToEvaluateOnNewDocument', {
      source: GUARD_SOURCE,
      worldName: GUARD_WORLD,
      runImmediately: true,
    });
    // Every later document runs the guard before its own scripts; this one got it late.
    this.lateLoaderId = this.url === 'about:blank' || this.url === '' ? '' : this.loaderId;
  }

  get isClosed(): boolean {
    return this.closed || this.page.isClosed();
  }

  /** Whether the guard of the current document was registered before the page's own listeners. */
  get guardFirstInLine(): boolean {
    return this.loaderId !== this.lateLoaderId && !this.lateWorlds.has(this.mainFrameId);
  }

  /** The same for one frame of this session. */
  guardFirstInLineIn(frameId: string): boolean {
    return frameId === this.mainFrameId ? this.guardFirstInLine : !this.lateWorlds.has(frameId);
  }

  /**
   * Whether the page's main thread answers within a moment (a page stuck in `while (true) {}` does not).
   * Asked only after a call ran out of its budget; an answer clears the doubt.
   */
  async responsive(budgetMs = 1_500): Promise<boolean> {
    try {
      await this.send('Runtime.evaluate', { expression: '0', returnByValue: true }, budgetMs);
      this.timedOut = false;
      return true;
    } catch {
      return false;
    }
  }

  /** The CDP ids of this page's frames (its main frame and every iframe in the tree). */
  async frameIds(): Promise<Set<string>> {
    const ids = new Set<string>([this.mainFrameId]);
    const { frameTree } = await this.send('Page.getFrameTree', {});
    const walk = (t: typeof frameTree) => {
      ids.add(t.frame.id);
      for (const c of t.childFrames ?? []) walk(c);
    };
    walk(frameTree);
    return ids;
  }

  /** Collects the guard's events for one arming, as the page reports them through the binding. */
  watchGuard(token: string): GuardEvent[] {
    const known = this.guardEvents.get(token);
    if (known) return known;
    const list: GuardEvent[] = [];
    this.guardEvents.set(token, list);
    return list;
  }

  unwatchGuard(token: string): void {
    this.guardEvents.delete(token);
  }

  /** Records what one frame of this session (default: its main frame) does from now on; `stop` ends it. */
  watchNavigation(frameId?: string): { record: NavigationRecord; stop: () => void } {
    const record: NavigationRecord = {};
    this.navWatches.set(record, frameId);
    return { record, stop: () => this.navWatches.delete(record) };
  }

  /**
   * @param opts.mayGoUnanswered a read Chromium may hold back by design (a capture while a dialog is open or
   *   a document commits): running out of its budget says nothing of the page, so it is not marked stuck.
   */
  async send<M extends keyof ProtocolMapping.Commands & string>(
    method: M,
    params: ParamsOf<M>,
    budgetMs = CDP_BUDGET_MS,
    opts: { mayGoUnanswered?: boolean } = {},
  ): Promise<ProtocolMapping.Commands[M]['returnType']> {
    if (this.isClosed) {
      throw new BrowserError(
        'PAGE_CLOSED',
        'The tab was closed',
        'Call browser_navigate to open a page again.',
      );
    }
    try {
      // playwright-core's own protocol types are not exported; devtools-protocol describes the same commands.
      const send = this.cdp.send.bind(this.cdp) as unknown as (m: string, p: unknown) => Promise<unknown>;
      return (await withBudget(
        method,
        budgetMs,
        send(method, params),
      )) as ProtocolMapping.Commands[M]['returnType'];
    } catch (err) {
      // A page showing a dialog holds its script calls until the dialog is answered: it waits, it is not stuck.
      const held = opts.mayGoUnanswered || PageEvents.of(this.page).dialog !== null;
      if (err instanceof BrowserError && err.code === 'TIMEOUT' && !held) this.timedOut = true;
      if (err instanceof BrowserError) throw err;
      if (isTargetClosed(err)) {
        this.closed = true;
        throw new BrowserError(
          'PAGE_CLOSED',
          'The tab or browser closed while trueclick was talking to it',
          'Call browser_navigate to open a page again; trueclick relaunches the browser if needed.',
        );
      }
      throw new BrowserError('CDP_ERROR', `${method} failed: ${(err as Error).message}`, 'Retry the call.');
    }
  }

  /**
   * Sends one input command, racing the page's dialogs: a dialog that the input raised (a confirm() in a
   * click handler, a beforeunload) holds the command's acknowledgement until it is answered, so the call
   * returns as soon as the dialog opens and the command settles in the background.
   */
  async input<M extends keyof ProtocolMapping.Commands & `Input.${string}`>(
    method: M,
    params: ParamsOf<M>,
  ): Promise<InputOutcome> {
    const r = await PageEvents.of(this.page).race(this.send(method, params));
    return r.done ? { sent: true } : { sent: false, dialog: r.dialog };
  }

  /**
   * Calls `changed` at each commit of a main-frame document and each guard world created, until the returned
   * function is called: a read of the page can tell that the document it read went away under it.
   */
  watchDocument(changed: () => void): () => void {
    this.documentWatchers.add(changed);
    return () => this.documentWatchers.delete(changed);
  }

  /**
   * Waits up to `ms` for the main frame to hold a document other than `loaderId` with its guard world made
   * (our script makes it as the document commits). Reading it before would make a world of our own, late.
   */
  async untilDocument(loaderId: string, ms: number): Promise<boolean> {
    const ready = () => this.loaderId !== loaderId && this.worlds.has(this.mainFrameId);
    if (ready()) return true;
    let stop = () => {};
    const ok = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      stop = this.watchDocument(() => {
        if (!ready()) return;
        clearTimeout(timer);
        resolve(true);
      });
    });
    stop();
    return ok;
  }

  /** The execution context of trueclick's isolated world in a frame of this session (created on demand). */
  async isolatedWorld(frameId = this.mainFrameId): Promise<number> {
    const known = this.worlds.get(frameId);
    if (known !== undefined) return known;
    const { executionContextId } = await this.send('Page.createIsolatedWorld', {
      frameId,
      worldName: GUARD_WORLD,
    });
    this.worlds.set(frameId, executionContextId);
    this.lateWorlds.add(frameId);
    // A world made on demand has no guard yet (the document predates it): install it now.
    await this.evaluate(GUARD_SOURCE, frameId);
    return executionContextId;
  }

  async evaluate<T>(expression: string, frameId = this.mainFrameId, awaitPromise = false): Promise<T> {
    const contextId = await this.isolatedWorld(frameId);
    const r = await this.send('Runtime.evaluate', {
      expression,
      contextId,
      returnByValue: true,
      awaitPromise,
    });
    if (r.exceptionDetails)
      throw new BrowserError('CDP_ERROR', `isolated script failed: ${r.exceptionDetails.text}`, 'Retry.');
    return r.result.value as T;
  }

  async detach(): Promise<void> {
    try {
      await this.cdp.detach();
    } catch {
      // already gone
    }
  }
}
