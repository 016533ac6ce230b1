import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';
import { ERA, type FrameInfo, frameOf, type McpHarness, startStdio, text } from './mcp-client.js';

/**
 * A headless Chromium with a DevTools port, started by the test: trueclick attaches to it over
 * --cdp-endpoint, and the test drives the same pages through its own Playwright client, for the page's own
 * facts (window.rw commands, what an element holds), never trueclick's word.
 */
export interface AttachedBrowser {
  endpoint: string;
  /** Its profile folder, where it wrote DevToolsActivePort (what --auto-connect reads). */
  userDataDir: string;
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
    userDataDir: dir,
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

/** The page the test's own client sees at a URL (a navigation reaches this second client a moment later). */
export async function pageAt(chrome: AttachedBrowser, url: string): Promise<Page> {
  for (let i = 0; i < 50; i++) {
    const p = chrome.pages().find((pg) => pg.url().startsWith(url));
    if (p) return p;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(
    `no page at ${url}: ${chrome
      .pages()
      .map((p) => p.url())
      .join(', ')}`,
  );
}

export interface AttachedMcp {
  srv: FixtureServer;
  chrome: AttachedBrowser;
  mcp: McpHarness;
  /** Opens a fixture page through the MCP server (corpus pages: until their library rendered) and screenshots it. */
  open(
    path: string,
    query?: Record<string, string | number>,
  ): Promise<{ run: string; url: string; page: Page; f: FrameInfo }>;
}

/**
 * One fixture server, one Chromium the test started, and `trueclick serve` over stdio attached to it at
 * devicePixelRatio 2, for a test file; filled in by `before`.
 */
export function attachedMcpForFile(serveArgs: string[] = [], capabilities?: ClientCapabilities): AttachedMcp {
  let n = 0;
  const ctx = {} as AttachedMcp;
  ctx.open = async (path, query = {}) => {
    const run = `${path.replace(/\W+/g, '-').replace(/^-/, '')}-${++n}`;
    const url = ctx.srv.url(path, { run, ...query });
    const r = await ctx.mcp.call('browser_navigate', { url });
    assert.ok(!r.isError, text(r));
    const page = await pageAt(ctx.chrome, url);
    if (path.startsWith('/rw/'))
      await page.waitForFunction(
        () => (window as unknown as { rw?: { ready?: boolean } }).rw?.ready === true,
      );
    return { run, url, page, f: await frameOf(ctx.mcp) };
  };
  before(async () => {
    ctx.srv = await startFixtureServer();
    ctx.chrome = await startAttachedBrowser();
    ctx.mcp = await startStdio(
      ['--cdp-endpoint', ctx.chrome.endpoint, '--device-scale-factor', '2', ...serveArgs],
      ERA,
      capabilities,
    );
  });
  after(async () => {
    await ctx.mcp?.close();
    await ctx.chrome?.close();
    await ctx.srv?.close();
  });
  return ctx;
}
