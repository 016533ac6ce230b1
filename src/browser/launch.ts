import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { findChromium } from './chromium-path.js';
import { BrowserError } from './errors.js';
import { PageDriver } from './page-driver.js';
import { type BlockedRequest, enforceOrigins, type UrlPolicy } from './url-policy.js';

export interface BrowserOptions {
  executablePath?: string;
  headless?: boolean;
  /** devicePixelRatio to run at; unset = the browser's own (1 when launched headless). */
  deviceScaleFactor?: number;
  viewport?: { width: number; height: number };
  /** `emulated`: Emulation.setDeviceMetricsOverride in our CDP session; `real`: --force-device-scale-factor. */
  scaleSource?: 'emulated' | 'real';
  /** Playwright hides scrollbars in headless; real desktops often show classic ones, so by default we do too. */
  hideScrollbars?: boolean;
  cdpEndpoint?: string;
  extraArgs?: string[];
  /** Where the browser may go (schemes, allowed and blocked origins). */
  urlPolicy?: UrlPolicy;
}

// Without the background-networking flags Chromium keeps dialling out, which this kind of machine refuses.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DEFAULT_VIEWPORT = { width: 1280, height: 800 };

export interface BrowserHandle {
  browser: Browser;
  context: BrowserContext;
  /** The first tab's driver. */
  driver: PageDriver;
  attached: boolean;
  /** A driver for another tab of the context (one the page opened, or browser_tabs new), set up like the first. */
  driverFor(page: Page): Promise<PageDriver>;
  /** Document requests the URL policy failed, newest last (the last 50). */
  blocked: BlockedRequest[];
  close(): Promise<void>;
}

/** A CDP session of our own on the page, with the viewport and scale factor the session runs at. */
async function driverWith(
  context: BrowserContext,
  page: Page,
  metrics: { width: number; height: number; deviceScaleFactor: number } | null,
): Promise<PageDriver> {
  const cdp = await context.newCDPSession(page);
  if (metrics) await cdp.send('Emulation.setDeviceMetricsOverride', { ...metrics, mobile: false });
  return PageDriver.create(page, cdp);
}

/** The URL policy's origins are enforced once per browser; its sessions share the record of what it failed. */
const guards = new WeakMap<Browser, Promise<BlockedRequest[]>>();

function guard(browser: Browser, policy: UrlPolicy | undefined): Promise<BlockedRequest[]> {
  let g = guards.get(browser);
  if (!g) {
    const blocked: BlockedRequest[] = [];
    g = (
      policy
        ? enforceOrigins(browser, policy, (b) => {
            blocked.push(b);
            if (blocked.length > 200) blocked.shift();
          })
        : Promise.resolve(null)
    ).then(() => blocked);
    guards.set(browser, g);
  }
  return g;
}

/** Launches Debian's Chromium with trueclick's flags (a real scale factor, scrollbars as asked). */
export async function launchChromium(opts: BrowserOptions = {}): Promise<Browser> {
  const executablePath = findChromium(opts.executablePath);
  const real = opts.scaleSource === 'real' && opts.deviceScaleFactor !== undefined;
  const args = [...CHROMIUM_ARGS, ...(opts.extraArgs ?? [])];
  if (real) args.push(`--force-device-scale-factor=${opts.deviceScaleFactor}`);
  if (opts.hideScrollbars) args.push('--hide-scrollbars');
  try {
    return await chromium.launch({
      executablePath,
      headless: opts.headless ?? true,
      args,
      // Playwright adds --hide-scrollbars in headless (and would filter ours out): keep it only when asked.
      ...(opts.hideScrollbars ? {} : { ignoreDefaultArgs: ['--hide-scrollbars'] }),
      timeout: 30_000,
    });
  } catch (err) {
    throw new BrowserError(
      'LAUNCH_FAILED',
      `Chromium at ${executablePath} did not start: ${(err as Error).message.split('\n')[0]}`,
      'Check that it runs: chromium --headless --no-sandbox --version. Reinstall with: sudo apt-get install -y chromium',
    );
  }
}

/**
 * A new isolated context on a browser trueclick launched, set up for it: the viewport and scale factor on
 * its first tab, the URL guard. `close` ends what the handle owns (the browser, or only the context).
 */
export async function contextOn(
  browser: Browser,
  opts: BrowserOptions,
  close: (context: BrowserContext) => Promise<void>,
): Promise<BrowserHandle> {
  const viewport = opts.viewport ?? DEFAULT_VIEWPORT;
  const real = opts.scaleSource === 'real' && opts.deviceScaleFactor !== undefined;
  try {
    // viewport:null keeps Playwright's own emulation out: a screenshot taken over our CDP session would not
    // follow emulation set by Playwright's session (research/baselines.md), so our session owns it.
    const context = await browser.newContext({ viewport: null });
    const metrics = {
      width: viewport.width,
      height: viewport.height,
      // 0 keeps the real scale factor of the window: the `real` world, where CSS viewports can be fractional.
      deviceScaleFactor: real ? 0 : (opts.deviceScaleFactor ?? 1),
    };
    const driverFor = (page: Page) => driverWith(context, page, metrics);
    const blocked = await guard(browser, opts.urlPolicy);
    const driver = await driverFor(await context.newPage());
    return { browser, context, driver, attached: false, driverFor, blocked, close: () => close(context) };
  } catch (err) {
    throw err instanceof BrowserError
      ? err
      : new BrowserError(
          'LAUNCH_FAILED',
          `Chromium started but could not be set up: ${(err as Error).message.split('\n')[0]}`,
          'Check --viewport and --device-scale-factor, then retry.',
        );
  }
}

/** A browser of the session's own: launched (or attached over --cdp-endpoint) for this session only. */
export async function openBrowser(opts: BrowserOptions = {}): Promise<BrowserHandle> {
  if (opts.cdpEndpoint) return attach(opts);
  const browser = await launchChromium(opts);
  try {
    return await contextOn(browser, opts, () => browser.close());
  } catch (err) {
    // A browser we started and cannot use must not outlive the call (serve retries on every tool call).
    await browser.close().catch(() => {});
    throw err;
  }
}

async function attach(opts: BrowserOptions): Promise<BrowserHandle> {
  const endpoint = opts.cdpEndpoint ?? '';
  let browser: Browser;
  try {
    browser = await chromium.connectOverCDP(endpoint, { timeout: 15_000 });
  } catch (err) {
    throw new BrowserError(
      'CONNECT_FAILED',
      `Could not attach to a browser at ${endpoint}: ${(err as Error).message.split('\n')[0]}`,
      'Start Chromium with --remote-debugging-port=9222 and pass --cdp-endpoint http://127.0.0.1:9222',
    );
  }
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const page: Page = context.pages()[0] ?? (await context.newPage());
  const vp = opts.viewport ?? DEFAULT_VIEWPORT;
  const metrics =
    opts.deviceScaleFactor !== undefined || opts.viewport
      ? { width: vp.width, height: vp.height, deviceScaleFactor: opts.deviceScaleFactor ?? 0 }
      : null;
  const drivers: PageDriver[] = [];
  const driverFor = async (p: Page) => {
    const d = await driverWith(context, p, metrics);
    drivers.push(d);
    return d;
  };
  const blocked = await guard(browser, opts.urlPolicy);
  const driver = await driverFor(page);
  // Attached: the user's browser stays open when we go.
  return {
    browser,
    context,
    driver,
    attached: true,
    driverFor,
    blocked,
    close: async () => {
      await Promise.all(drivers.map((d) => d.detach()));
    },
  };
}
