import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping.js';
import type { CDPSession, Page } from 'playwright-core';
import { BrowserError, isTargetClosed, withBudget } from './errors.js';
import { GUARD_SOURCE, GUARD_WORLD } from './guard-script.js';

export const CDP_BUDGET_MS = 5_000;

type ParamsOf<M extends keyof ProtocolMapping.Commands> = [
  ProtocolMapping.Commands[M]['paramsType'][0],
] extends [undefined]
  ? Record<string, never>
  : NonNullable<ProtocolMapping.Commands[M]['paramsType'][0]>;

/**
 * One page driven over one CDP session: the session that sets emulation also captures (a second session
 * would not follow it), and it tracks the main frame's URL and navigation (loader) id from Page events.
 */
export class PageDriver {
  mainFrameId = '';
  loaderId = '';
  url = '';
  /** The document that existed when we attached: its guard came late, behind the page's own listeners. */
  private lateLoaderId = '';
  private isolatedContext: number | undefined;
  private closed = false;

  private constructor(
    readonly page: Page,
    readonly cdp: CDPSession,
  ) {}

  static async create(page: Page, cdp: CDPSession): Promise<PageDriver> {
    const d = new PageDriver(page, cdp);
    await d.init();
    return d;
  }

  private async init(): Promise<void> {
    const { cdp } = this;
    cdp.on('Page.frameNavigated', (e) => {
      if (e.frame.parentId) return;
      this.mainFrameId = e.frame.id;
      this.loaderId = e.frame.loaderId;
      this.url = e.frame.url;
      this.isolatedContext = undefined;
    });
    cdp.on('Page.navigatedWithinDocument', (e) => {
      if (e.frameId === this.mainFrameId) this.url = e.url;
    });
    cdp.on('Runtime.executionContextCreated', (e) => {
      const aux = e.context.auxData as { frameId?: string } | undefined;
      if (e.context.name === GUARD_WORLD && aux?.frameId === this.mainFrameId)
        this.isolatedContext = e.context.id;
    });
    cdp.on('Runtime.executionContextsCleared', () => {
      this.isolatedContext = undefined;
    });
    this.page.on('close', () => {
      this.closed = true;
    });
    await Promise.all([cdp.send('Page.enable'), cdp.send('DOM.enable'), cdp.send('Runtime.enable')]);
    const tree = await cdp.send('Page.getFrameTree');
    this.mainFrameId = tree.frameTree.frame.id;
    this.loaderId = tree.frameTree.frame.loaderId;
    this.url = tree.frameTree.frame.url;
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
    return this.loaderId !== this.lateLoaderId;
  }

  async send<M extends keyof ProtocolMapping.Commands & string>(
    method: M,
    params: ParamsOf<M>,
    budgetMs = CDP_BUDGET_MS,
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

  /** The execution context of trueclick's isolated world in the main frame (created on demand). */
  async isolatedWorld(): Promise<number> {
    if (this.isolatedContext !== undefined) return this.isolatedContext;
    const { executionContextId } = await this.send('Page.createIsolatedWorld', {
      frameId: this.mainFrameId,
      worldName: GUARD_WORLD,
    });
    this.isolatedContext = executionContextId;
    // A world made on demand has no guard yet (the document predates it): install it now.
    await this.evaluate(GUARD_SOURCE);
    return executionContextId;
  }

  async evaluate<T>(expression: string): Promise<T> {
    const contextId = await this.isolatedWorld();
    const r = await this.send('Runtime.evaluate', { expression, contextId, returnByValue: true });
    if (r.exceptionDetails)
      throw new BrowserError('CDP_ERROR', `isolated script failed: ${r.exceptionDetails.text}`, 'Retry.');
    return r.result.value as T;
  }

  async navigate(url: string, timeoutMs = 30_000): Promise<void> {
    try {
      await this.page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    } catch (err) {
      if (isTargetClosed(err))
        throw new BrowserError('PAGE_CLOSED', 'The tab closed during navigation', 'Retry.');
      throw new BrowserError(
        'CDP_ERROR',
        `Navigation to ${url} failed: ${(err as Error).message.split('\n')[0]}`,
        'Check the URL (include http:// or https://) and that the site is reachable.',
      );
    }
  }

  async detach(): Promise<void> {
    try {
      await this.cdp.detach();
    } catch {
      // already gone
    }
  }
}
