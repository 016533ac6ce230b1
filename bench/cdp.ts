/**
 * Bare CDP: the baseline the SPEC compares trueclick's screenshot tool to, and the browser in which the bench
 * drives its own baselines (awaited check alone, naive dispatch). playwright-core launches Debian's Chromium
 * with trueclick's own flags (classic scrollbars shown, like trueclick), and one CDPSession sets DPR 2 by
 * emulation and captures: a screenshot taken over another session would not follow that emulation.
 */
import { type Browser, type CDPSession, chromium, type Page } from 'playwright-core';
import { findChromium } from '../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../src/browser/plumbing/launch.js';
import { imageSize } from '../src/geometry/index.js';
import { onCleanup } from './procs.js';

export const CHROMIUM = findChromium();
export const VIEWPORT = { width: 1280, height: 800 };
export const DPR = 2;

export interface CdpTab {
  page: Page;
  cdp: CDPSession;
  navigate(url: string): Promise<void>;
  /** Full-resolution PNG of the viewport (2560×1600 at DPR 2): the SPEC's baseline. */
  captureFull(): Promise<{ width: number; height: number; base64Bytes: number }>;
  /** PNG at the size trueclick sends (clip + scale), for reading where trueclick's time goes. */
  captureScaled(scale: number): Promise<{ width: number; height: number; base64Bytes: number }>;
  /** Trusted press + release at a CSS point, each awaited. */
  click(x: number, y: number): Promise<void>;
  /** The mouse moved to the point first, then press + release (Playwright's mouse.click): a hover-first click. */
  hoverClick(x: number, y: number): Promise<void>;
  evaluate<T>(expression: string): Promise<T>;
}

export interface CdpBrowser {
  browser: Browser;
  version: string;
  newTab(): Promise<CdpTab>;
  close(): Promise<void>;
}

/**
 * Chromium answers "Unable to capture screenshot" when the page has no frame to give yet (a navigation just
 * committed): seen once or twice in a 30-minute bench on 2 busy cores, in the naive lanes. A naive tool would
 * try again; so does the bench, once, instead of losing the whole section.
 */
async function capture<T>(shot: () => Promise<T>): Promise<T> {
  try {
    return await shot();
  } catch (err) {
    if (!/Unable to capture screenshot/.test(String(err))) throw err;
    await new Promise((r) => setTimeout(r, 100));
    return shot();
  }
}

/** Size from the image header (trueclick's geometry reader) and the base64 length sent. */
export function base64ImageSize(data: string): { width: number; height: number; base64Bytes: number } {
  const { width, height } = imageSize(Buffer.from(data.slice(0, 64), 'base64'));
  return { width, height, base64Bytes: data.length };
}

export async function launchCdp(): Promise<CdpBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    ignoreDefaultArgs: ['--hide-scrollbars'],
    timeout: 30_000,
    // The bench's own signal handler closes everything, temp folder last; Playwright's would exit first.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const context = await browser.newContext({ viewport: null });
  const close = async () => {
    unregister();
    await browser.close().catch(() => {});
  };
  const unregister = onCleanup(close);
  return {
    browser,
    version: browser.version(),
    async newTab() {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setDeviceMetricsOverride', {
        ...VIEWPORT,
        deviceScaleFactor: DPR,
        mobile: false,
      });
      await Promise.all([cdp.send('Page.enable'), cdp.send('DOM.enable'), cdp.send('Runtime.enable')]);
      const mouse = (type: 'mousePressed' | 'mouseReleased', x: number, y: number) =>
        cdp.send('Input.dispatchMouseEvent', {
          type,
          x,
          y,
          button: 'left',
          clickCount: 1,
          buttons: type === 'mousePressed' ? 1 : 0,
        });
      return {
        page,
        cdp,
        async navigate(url) {
          await page.goto(url, { waitUntil: 'load' });
        },
        async captureFull() {
          const { data } = await capture(() => cdp.send('Page.captureScreenshot', { format: 'png' }));
          return base64ImageSize(data);
        },
        async captureScaled(scale) {
          const { data } = await capture(() =>
            cdp.send('Page.captureScreenshot', {
              format: 'png',
              clip: { x: 0, y: 0, ...VIEWPORT, scale },
              captureBeyondViewport: false,
            }),
          );
          return base64ImageSize(data);
        },
        async click(x, y) {
          await mouse('mousePressed', x, y);
          await mouse('mouseReleased', x, y);
        },
        async hoverClick(x, y) {
          await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'none' });
          await mouse('mousePressed', x, y);
          await mouse('mouseReleased', x, y);
        },
        async evaluate<T>(expression: string) {
          const r = await cdp.send('Runtime.evaluate', {
            expression,
            returnByValue: true,
            awaitPromise: true,
          });
          if (r.exceptionDetails) throw new Error(`evaluate failed: ${r.exceptionDetails.text}`);
          return r.result.value as T;
        },
      };
    },
    close,
  };
}
