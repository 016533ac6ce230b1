/**
 * The peers, run the way research/baselines.md ran them, with Debian's Chromium and nothing downloaded:
 * Playwright MCP (`--caps vision`, DPR 2 from the config's contextOptions) and chrome-devtools-mcp
 * (`--experimentalVision`, DPR 2 through its `emulate` tool). Both take CSS px for their xy clicks.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS } from '../src/browser/plumbing/launch.js';
import { CHROMIUM, DPR, VIEWPORT } from './cdp.js';
import { imageOf, type McpServer, startMcp, textOf } from './mcp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Spawned by path: require.resolve('@playwright/mcp/cli.js') throws ERR_PACKAGE_PATH_NOT_EXPORTED.
const PLAYWRIGHT_MCP = join(ROOT, 'node_modules/@playwright/mcp/cli.js');
const DEVTOOLS_MCP = join(ROOT, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js');

export interface Peer {
  mcp: McpServer;
  navigate(url: string): Promise<void>;
  click(x: number, y: number): Promise<void>;
  close(): Promise<void>;
}

export interface PlaywrightMcp extends Peer {
  screenshot(scale: 'css' | 'device'): Promise<ReturnType<typeof imageOf>>;
}

export interface DevtoolsMcp extends Peer {
  screenshot(): Promise<ReturnType<typeof imageOf>>;
}

function image(r: Parameters<typeof imageOf>[0], who: string) {
  const i = imageOf(r);
  if (!i) throw new Error(`${who}: the screenshot came without an image: ${textOf(r).slice(0, 300)}`);
  return i;
}

export async function startPlaywrightMcp(tmp: string): Promise<PlaywrightMcp> {
  const dir = join(tmp, 'playwright-mcp');
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      browser: {
        browserName: 'chromium',
        isolated: true,
        launchOptions: { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS },
        contextOptions: { viewport: VIEWPORT, deviceScaleFactor: DPR },
      },
      capabilities: ['vision'],
    }),
  );
  const mcp = await startMcp(
    'Playwright MCP',
    process.execPath,
    [
      PLAYWRIGHT_MCP,
      '--config',
      config,
      '--headless',
      '--caps',
      'vision',
      '--executable-path',
      CHROMIUM,
      '--isolated',
      '--output-dir',
      join(dir, 'out'),
    ],
    { cwd: dir, env: { TMPDIR: dir } },
  );
  let tracked = false;
  return {
    mcp,
    async navigate(url) {
      await mcp.ok('browser_navigate', { url });
      if (!tracked) {
        mcp.track();
        tracked = true;
      }
    },
    async screenshot(scale) {
      return image(await mcp.ok('browser_take_screenshot', { type: 'png', scale }), 'Playwright MCP');
    },
    async click(x, y) {
      await mcp.ok('browser_mouse_click_xy', { x, y });
    },
    close: () => mcp.close(),
  };
}

export async function startDevtoolsMcp(tmp: string): Promise<DevtoolsMcp> {
  const dir = join(tmp, 'chrome-devtools-mcp');
  mkdirSync(dir, { recursive: true });
  const chromeArgs = CHROMIUM_ARGS.map((a) => `--chromeArg=${a}`);
  const mcp = await startMcp(
    'chrome-devtools-mcp',
    process.execPath,
    [
      DEVTOOLS_MCP,
      '--headless',
      '--executablePath',
      CHROMIUM,
      '--isolated',
      '--experimentalVision',
      '--viewport',
      `${VIEWPORT.width}x${VIEWPORT.height}`,
      ...chromeArgs,
      '--no-usage-statistics',
      '--no-performance-crux',
    ],
    // Big screenshots go to a temp file: keep them in our folder. No update check over the network.
    { cwd: dir, env: { TMPDIR: dir, CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1' } },
  );
  const pages = textOf(await mcp.ok('list_pages'));
  const m = /^(\d+):.*\[selected\]/m.exec(pages) ?? /^(\d+):/m.exec(pages);
  if (!m) throw new Error(`chrome-devtools-mcp list_pages gave no page id: ${pages.slice(0, 300)}`);
  const pageId = Number(m[1]);
  mcp.track();
  await mcp.ok('emulate', { pageId, viewport: `${VIEWPORT.width}x${VIEWPORT.height}x${DPR}` });
  return {
    mcp,
    async navigate(url) {
      await mcp.ok('navigate_page', { pageId, type: 'url', url });
    },
    async screenshot() {
      return image(await mcp.ok('take_screenshot', { pageId }), 'chrome-devtools-mcp');
    },
    async click(x, y) {
      await mcp.ok('click_at', { pageId, x, y });
    },
    close: () => mcp.close(),
  };
}
