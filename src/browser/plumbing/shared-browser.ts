import type { Browser } from 'playwright-core';
import { BrowserServers, endpointList } from './browser-servers.js';
import { type BrowserHandle, type BrowserOptions, contextOn, launchChromium } from './launch.js';

/**
 * One Chromium for many sessions (the MCP sessions of an HTTP server), launched here, or the browsers of
 * one or several browser servers (--browser-endpoint), the sessions spread over those that answer: each
 * session gets an isolated context of its own (its own cookies, storage and tabs), and closing a session
 * closes only its context. A browser that went away is launched (or reached) again for the next session
 * that asks.
 */
export class SharedBrowser {
  private current: Browser | undefined;
  private launching: Promise<Browser> | undefined;
  private readonly servers: BrowserServers | undefined;

  constructor(private readonly opts: BrowserOptions) {
    const endpoints = endpointList(opts.browserEndpoint);
    this.servers = endpoints.length ? new BrowserServers(endpoints, { keep: true }) : undefined;
  }

  private async browser(): Promise<Browser> {
    if (this.servers) return (await this.servers.connect()).browser;
    if (this.current?.isConnected()) return this.current;
    this.launching ??= launchChromium(this.opts)
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
    await Promise.all([b?.close().catch(() => {}), this.servers?.close()]);
  }
}
