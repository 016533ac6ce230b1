import { chromium } from 'playwright-core';
import { BrowserError } from '../plumbing/errors.js';
import { type BrowserHandle, type BrowserOptions, usersTabs } from '../plumbing/launch.js';
import type { ExtensionRelay } from './relay.js';

/** What the agent is told to do when no tab is shared: the user must choose one (only they can). */
export function notShared(relay: ExtensionRelay): BrowserError {
  return new BrowserError(
    'NOT_SHARED',
    `No browser tab is shared with trueclick: ${relay.notShared}.`,
    `Ask the user to open ${relay.connectUrl} in their Chrome or Chromium (with the trueclick extension installed) and press Share beside the tab to act on, then call again.`,
  );
}

/**
 * The tabs the user shared through the extension, driven like any browser but for what is theirs: no
 * emulation (frames carry the browser's own devicePixelRatio, screen scaling × zoom, and its viewport), the
 * browser never closed by us, the tab shared last acted on first.
 */
export async function sharedTabs(relay: ExtensionRelay, opts: BrowserOptions): Promise<BrowserHandle> {
  await relay.untilShared();
  if (relay.notShared) throw notShared(relay);
  const generation = relay.generation;
  let browser: Awaited<ReturnType<typeof chromium.connectOverCDP>>;
  try {
    browser = await chromium.connectOverCDP(relay.cdpEndpoint, {
      timeout: 15_000,
      noDefaults: true,
      isLocal: true,
    });
  } catch (err) {
    throw new BrowserError(
      'CONNECT_FAILED',
      `Could not reach the shared tabs: ${(err as Error).message.split('\n')[0]}`,
      'Another trueclick session may be using them; end it, or ask the user to share the tab again.',
    );
  }
  const context = browser.contexts()[0];
  const page = context?.pages().at(-1);
  if (!context || !page) {
    await browser.close().catch(() => {});
    throw notShared(relay);
  }
  const handle = await usersTabs(browser, context, page, null, opts);
  // Until the relay hears the tab went (up to 1 s after the page's own word), and the tab shared in its place.
  const ended = async () => {
    const gone = () => relay.notShared || relay.generation !== generation;
    for (let i = 0; i < 20 && !gone(); i++) await new Promise((r) => setTimeout(r, 50));
    await relay.untilShared();
  };
  return {
    ...handle,
    // A new share ends the old tabs' connection and may already be in when the next call comes: this handle is
    // gone from the moment its connection was ended, not when Playwright hears the socket close.
    isConnected: () => browser.isConnected() && relay.tabs.count > 0 && relay.generation === generation,
    // The extension's word that the tab went may come a moment after the page's own.
    whyLost: async () => {
      await ended();
      if (relay.notShared) return notShared(relay);
      if (relay.generation === generation) return undefined;
      return new BrowserError(
        'PAGE_CLOSED',
        `The user shared another tab (${relay.tabs.newest?.url.slice(0, 200) ?? 'unknown'}) while this call ran, so trueclick no longer reaches the tab it acted on`,
        'Take a new screenshot (browser_screenshot) of the tab shared now and act on that.',
      );
    },
    handedOver: async () => {
      await ended();
      return relay.generation !== generation && !relay.notShared;
    },
    regained: `The user shared a tab again (${page.url().slice(0, 200)}); frames from before are void: take a new screenshot.`,
    close: async () => {
      await handle.close();
      await browser.close().catch(() => {});
    },
  };
}
