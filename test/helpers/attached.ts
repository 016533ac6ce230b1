import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { findChromium } from '../../src/browser/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/launch.js';

/**
 * A headless Chromium with a DevTools port, started by the test: trueclick attaches to it over
 * --cdp-endpoint, and the test drives the same pages through its own Playwright client, for the page's own
 * facts (window.rw commands, what an element holds), never trueclick's word.
 */
export interface AttachedBrowser {
  endpoint: string;
  /** The test's own Playwright connection. */
  browser: Browser;
  context: BrowserContext;
  /** The page trueclick acts on, as the test sees it (the active one is the last opened, unless told). */
  pages(): Page[];
  close(): Promise<void>;
}

export async function startAttachedBrowser(extraArgs: string[] = []): Promise<AttachedBrowser> {
  const dir = mkdtempSync(join(tmpdir(), 'trueclick-cdp-'));
  const chrome: ChildProcess = spawn(
    findChromium(),
    [
      ...CHROMIUM_ARGS,
      '--headless',
      `--user-data-dir=${dir}`,
      '--remote-debugging-port=0',
      '--window-size=1280,800',
      ...extraArgs,
      'about:blank',
    ],
    // Its own process group, so the helpers (zygote, renderers) go with it.
    { stdio: 'ignore', detached: true },
  );
  let port = '';
  for (let i = 0; i < 100 && !port; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      port = readFileSync(join(dir, 'DevToolsActivePort'), 'utf8').split('\n')[0] ?? '';
    } catch {}
  }
  assert.ok(port, 'Chromium wrote its DevTools port');
  const endpoint = `http://127.0.0.1:${port}`;
  const browser = await chromium.connectOverCDP(endpoint);
  const context = browser.contexts()[0] as BrowserContext;
  // A second Playwright client would dismiss every dialog it has no listener for, before the agent sees it.
  context.on('dialog', () => {});
  return {
    endpoint,
    browser,
    context,
    pages: () => context.pages(),
    close: async () => {
      await browser.close().catch(() => {});
      if (chrome.exitCode === null && chrome.pid) {
        const exited = once(chrome, 'exit');
        process.kill(-chrome.pid, 'SIGKILL');
        await exited;
      }
      // Best effort: a helper process may still be flushing its profile; a leftover temp folder fails nothing.
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch {}
    },
  };
}
