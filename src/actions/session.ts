import { type Capture, type CaptureOptions, captureFrame } from '../browser/capture.js';
import { BrowserError } from '../browser/errors.js';
import { currentScroll, settledScroll, wheel } from '../browser/input.js';
import { type BrowserHandle, type BrowserOptions, openBrowser } from '../browser/launch.js';
import type { PageDriver } from '../browser/page-driver.js';
import { markColour } from '../image/draw.js';
import { drawMarks } from '../image/marks.js';
import { type ClickRequest, guardedClick } from './click.js';
import { ActionError } from './errors.js';
import { type FrameRecord, FrameStore } from './frames.js';
import { type Mark, marksFor } from './marks.js';
import { MissLog } from './misses.js';
import type { ClickReport } from './verdicts.js';

export interface SessionOptions extends BrowserOptions {
  /** Long edge of screenshots sent to the model; 0 = full device resolution. */
  maxImageEdge?: number;
}

export interface Screenshot {
  frame: FrameRecord;
  base64: string;
  mimeType: 'image/png';
  marks?: Mark[];
}

/**
 * One agent's browser: the page, its frames and its misses. MCP tools, the CLI and the library all act
 * through this class, so there is one implementation of each action.
 */
export class TrueclickSession {
  private handle: BrowserHandle | undefined;
  private opening: Promise<BrowserHandle> | undefined;
  readonly frames = new FrameStore();
  readonly misses = new MissLog();
  /** Set when the browser had to be relaunched; the next tool answer tells the agent once. */
  private relaunchNotice: string | undefined;

  constructor(
    private readonly options: SessionOptions = {},
    handle?: BrowserHandle,
  ) {
    this.handle = handle;
  }

  /** The page driver, (re)launching the browser when it is missing, closed or crashed. */
  async driver(): Promise<PageDriver> {
    if (this.handle && !this.handle.driver.isClosed && this.handle.browser.isConnected())
      return this.handle.driver;
    if (this.handle) {
      this.relaunchNotice =
        'The browser or tab had closed; trueclick started a new one (earlier frames are void).';
      this.frames.clear('the tab or browser closed and trueclick started a new one');
      this.misses.clear();
      await this.handle.close().catch(() => {});
      this.handle = undefined;
    }
    this.opening ??= openBrowser(this.options).finally(() => {
      this.opening = undefined;
    });
    this.handle = await this.opening;
    return this.handle.driver;
  }

  takeNotice(): string | undefined {
    const n = this.relaunchNotice;
    this.relaunchNotice = undefined;
    return n;
  }

  async navigate(url: string): Promise<{ url: string; title: string }> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ActionError(
        'BAD_URL',
        `"${url}" is not an absolute URL.`,
        'Pass a full URL such as https://example.com/.',
        'url',
      );
    }
    if (!['http:', 'https:', 'file:', 'about:', 'data:'].includes(parsed.protocol)) {
      throw new ActionError(
        'BAD_URL',
        `Unsupported URL scheme ${parsed.protocol}`,
        'Use http:// or https://.',
        'url',
      );
    }
    const driver = await this.driver();
    await driver.navigate(url);
    this.misses.clear();
    return { url: driver.url, title: await driver.page.title().catch(() => '') };
  }

  async screenshot(opts: { marks?: boolean; maxWidth?: number } = {}): Promise<Screenshot> {
    const driver = await this.driver();
    const co: CaptureOptions = {};
    if (this.options.maxImageEdge !== undefined) co.maxImageEdge = this.options.maxImageEdge;
    if (opts.maxWidth !== undefined) co.maxWidth = opts.maxWidth;
    const capture: Capture = await captureFrame(driver, co);
    if (!opts.marks) {
      const frame = this.frames.add(capture);
      return { frame, base64: capture.base64, mimeType: capture.mimeType };
    }
    const marks = marksFor(capture);
    const png = await drawMarks(
      Buffer.from(capture.base64, 'base64'),
      marks.map((m) => ({ box: m.image, id: m.id, colour: markColour(m.id) })),
    );
    const frame = this.frames.add(capture, marks);
    return { frame, base64: png.toString('base64'), mimeType: 'image/png', marks };
  }

  async click(req: ClickRequest): Promise<ClickReport> {
    const driver = await this.driver();
    return guardedClick({ driver, frames: this.frames, misses: this.misses }, req);
  }

  async point(req: ClickRequest): Promise<ClickReport> {
    const driver = await this.driver();
    return guardedClick({ driver, frames: this.frames, misses: this.misses }, req, true);
  }

  /** Types into the focused element, or clicks a target first (guarded, like browser_click). */
  async type(
    text: string,
    opts: { submit?: boolean; target?: ClickRequest },
  ): Promise<{ click?: ClickReport }> {
    const driver = await this.driver();
    let click: ClickReport | undefined;
    if (opts.target) {
      click = await this.click(opts.target);
      if (click.verdict !== 'OK') return { click };
    }
    await driver.page.keyboard.type(text);
    if (opts.submit) await driver.page.keyboard.press('Enter');
    return click ? { click } : {};
  }

  async pressKey(key: string): Promise<void> {
    const driver = await this.driver();
    try {
      await driver.page.keyboard.press(key);
    } catch (err) {
      throw new ActionError(
        'BAD_KEY',
        `Unknown key "${key}": ${(err as Error).message.split('\n')[0]}`,
        'Use a key name such as Enter, Tab, Escape, ArrowDown, PageDown, a single character, or a chord like Control+A.',
        'key',
      );
    }
  }

  async scroll(
    dx: number,
    dy: number,
  ): Promise<{ before: { x: number; y: number }; after: { x: number; y: number } }> {
    if (!Number.isFinite(dx) || !Number.isFinite(dy)) {
      throw new ActionError(
        'BAD_SCROLL',
        `dx and dy must be finite numbers (got ${dx}, ${dy}).`,
        'Pass CSS px, e.g. dy: 600.',
        'dy',
      );
    }
    const driver = await this.driver();
    const before = await currentScroll(driver);
    const [w, h] = await driver.evaluate<[number, number]>('window.__trueclick.metrics()');
    await wheel(driver, { x: w / 2, y: h / 2 }, dx, dy);
    const after = await settledScroll(driver);
    return { before, after };
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    await h?.close().catch(() => {});
  }
}

export { ActionError, BrowserError };
