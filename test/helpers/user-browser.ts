import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { EXTENSION_DIR, extensionId } from '../../src/browser/extension/relay.js';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';

/**
 * A person's own Chromium with the trueclick extension loaded unpacked, as they would set it up: a profile
 * of its own, the screen's scale factor, the profile's default zoom. The test plays the person: it opens the
 * link trueclick gives, presses Share, opens the extension's popup to stop. Its Playwright connection is the
 * test's eyes on the pages (what they hold), not trueclick's way in.
 */
export interface UserBrowser {
  context: BrowserContext;
  /** Opens trueclick's link in a new tab and presses Share beside the tab showing `pageUrl`; says what the page said. */
  share(connectUrl: string, page: Page): Promise<string>;
  /** The extension's popup (opened as a tab) and its Stop button for that page. */
  stopSharing(page: Page): Promise<void>;
  /** chrome.runtime.reload(), as the reload button at chrome://extensions does. */
  reloadExtension(): Promise<void>;
  close(): Promise<void>;
}

export async function startUserBrowser(
  opts: { scale?: number; zoomPercent?: number } = {},
): Promise<UserBrowser> {
  const dir = mkdtempSync(join(tmpdir(), 'trueclick-user-'));
  // A person who loaded an unpacked extension has Developer mode on (without it, a reload disables it).
  const prefs: Record<string, unknown> = { extensions: { ui: { developer_mode: true } } };
  // Chrome stores the default zoom as a level: zoom = 1.2^level.
  if (opts.zoomPercent)
    prefs.partition = { default_zoom_level: { x: Math.log(opts.zoomPercent / 100) / Math.log(1.2) } };
  mkdirSync(join(dir, 'Default'), { recursive: true });
  writeFileSync(join(dir, 'Default', 'Preferences'), JSON.stringify(prefs));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: findChromium(),
    headless: true,
    viewport: null,
    ignoreDefaultArgs: ['--disable-extensions', '--hide-scrollbars'],
    args: [
      ...CHROMIUM_ARGS,
      '--window-size=1280,800',
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      ...(opts.scale ? [`--force-device-scale-factor=${opts.scale}`] : []),
    ],
  });
  // A second client would dismiss every dialog it has no listener for, before the agent sees it.
  context.on('dialog', () => {});
  const id = extensionId();
  if (!context.serviceWorkers().some((w) => w.url().includes(id)))
    await context.waitForEvent('serviceworker');
  return {
    context,
    share: async (connectUrl, page) => {
      const connect = await context.newPage();
      await connect.goto(connectUrl);
      await connect.waitForURL(/^chrome-extension:/);
      const row = connect.locator('li', { hasText: page.url() });
      await row.getByRole('button', { name: 'Share' }).click();
      await connect.locator('#status').filter({ hasText: /\S/ }).waitFor();
      const said = (await connect.locator('#status').textContent()) ?? '';
      await connect.close();
      await page.bringToFront();
      return said;
    },
    stopSharing: async (page) => {
      const popup = await context.newPage();
      await popup.goto(`chrome-extension://${id}/popup.html`);
      await popup.locator('li', { hasText: page.url() }).getByRole('button', { name: 'Stop' }).click();
      await popup.getByText(/No tab is shared|can see and click/).waitFor();
      await popup.close();
    },
    reloadExtension: async () => {
      const worker = context.serviceWorkers().find((w) => w.url().includes(id));
      await worker?.evaluate(() => chrome.runtime.reload()).catch(() => {});
      await context.waitForEvent('serviceworker', { timeout: 10_000 }).catch(() => {});
    },
    close: async () => {
      await context.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

declare const chrome: { runtime: { reload(): void } };
