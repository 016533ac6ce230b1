import type { Browser } from 'playwright-core';
import { type BrowserHandle, type BrowserOptions, contextOn, startBrowser } from './launch.js';

/**
 * One Chromium for many sessions (the MCP sessions of an HTTP server), launched here or reached on a
 * browser server (--browser-endpoint): each session gets an isolated context of its own (its own cookies,
 * storage and tabs), and closing a session closes only its context. A browser that went away is launched
 * (or reached) again for the next session that asks.
 */
export class SharedBrowser {
  private current: Browser | undefined;
  private launching: Promise<Browser> | undefined;

  constructor(private readonly opts: BrowserOptions) {}

  private async browser(): Promise<Browser> {
    if (this.current?.isConnected()) return this.current;
    this.launching ??= startBrowser(this.opts)
      .then((b) => {
        this.current = b;
        return b;
      })
      .finally(() => {
        this.launching = undefined;
      });
    return this.launching;
  }

  /** A new isolated context on the shared browser, for one session. */
  async handle(): Promise<BrowserHandle> {
    const browser = await this.browser();
    return contextOn(browser, this.opts, (context) => context.close());
  }

  async close(): Promise<void> {
    const b = this.current;
    this.current = undefined;
    await b?.close().catch(() => {});
  }
}
