import { imageSize } from '../../geometry/index.js';
import { remoteDrivers } from '../identity/remote-frames.js';
import { BrowserError, lostToNavigation } from '../plumbing/errors.js';
import type { PageDriver } from '../plumbing/page-driver.js';
import type { SnapshotIndex } from './snapshot.js';
import { requestSnapshot, sameScroll } from './snapshot-request.js';
import { WALK_FROM_ELEMENTS } from './view-record.js';

export interface CaptureOptions {
  /** Long edge of the sent image, px; 0 = full device resolution. */
  maxImageEdge?: number;
  /** Pixel budget of the sent image (Claude's ~1.15 MP); applies when maxImageEdge > 0. */
  maxPixels?: number;
  /** A further cap on the sent image's width, px (the tool's `max_width`). */
  maxWidth?: number;
  /**
   * Capture only this region of the viewport (CSS px), scaled up to fill the image budget (a zoom), at most
   * MAX_ZOOM times its device pixels.
   */
  region?: { x: number; y: number; width: number; height: number };
  budgetMs?: number;
}

/** How far a zoom may enlarge a region beyond its device pixels: Chromium renders it anew, not by upsampling. */
export const MAX_ZOOM = 4;

export const DEFAULT_MAX_IMAGE_EDGE = 1568;
export const DEFAULT_MAX_PIXELS = 1_150_000;

export interface Capture {
  base64: string;
  mimeType: 'image/png';
  image: { width: number; height: number };
  /** CSS px of the viewport area the image shows (classic scrollbar included). */
  css: { width: number; height: number };
  /** A region capture (zoom): where the image's top-left lies in the CSS viewport. */
  origin?: { x: number; y: number };
  scroll: { x: number; y: number };
  devicePixelRatio: number;
  url: string;
  loaderId: string;
  capturedAt: number;
  mutationCount: number;
  /**
   * The DOM snapshot the checks read, taken right after the image. It is asked for before the image is
   * answered, so nothing an agent does after seeing the image comes before it, but it may settle later: on a
   * page of 50 000 elements Chromium takes seconds to write it, which the model spends reading the image.
   * It rejects (BrowserError) when the page could not be read or had scrolled away from what the image shows.
   */
  snapshot: Promise<SnapshotIndex>;
}

/** devicePixelRatio is a float32 in Blink (1.65 reads 1.649999976); four decimals recover what was set. */
const roundDpr = (d: number) => Math.round(d * 10_000) / 10_000;

/**
 * Of the pixels the budget allows, the share a capture at the window's own ratio may give up for not laying
 * the page out again.
 */
const WINDOW_SCALE_KEEPS = 0.8;

/**
 * The sent image's scale relative to device pixels, so it fits the model's limits without a resize pass.
 *
 * @param windowScale the scale at which the capture is drawn at the browser window's own ratio (1 / the
 *   emulated devicePixelRatio in a headless window, which draws at 1), when known. Chromium draws a capture
 *   at any other ratio by laying the whole document out at it, and again after: 40 ms on /text, 300 ms and
 *   150 ms more on a page of 50 000 elements, none at the window's own ratio. That scale is taken when it
 *   fits the budget and keeps most of it (1280×800 CSS px at 2 give a 1280×800 image, not 1356×848).
 */
export function captureScale(
  deviceW: number,
  deviceH: number,
  o: CaptureOptions,
  windowScale?: number,
): number {
  const s = budgetScale(deviceW, deviceH, o);
  // Full resolution asked for (--max-image-edge 0) is given as asked.
  if (windowScale === undefined || (o.maxImageEdge ?? DEFAULT_MAX_IMAGE_EDGE) <= 0) return s;
  return windowScale < s && (windowScale / s) ** 2 >= WINDOW_SCALE_KEEPS ? windowScale : s;
}

function budgetScale(deviceW: number, deviceH: number, o: CaptureOptions): number {
  const edge = o.maxImageEdge ?? DEFAULT_MAX_IMAGE_EDGE;
  let s = 1;
  if (edge > 0) {
    s = Math.min(
      s,
      edge / Math.max(deviceW, deviceH),
      Math.sqrt((o.maxPixels ?? DEFAULT_MAX_PIXELS) / (deviceW * deviceH)),
    );
  }
  if (o.maxWidth && o.maxWidth > 0) s = Math.min(s, o.maxWidth / deviceW);
  const maxPixels = o.maxPixels ?? DEFAULT_MAX_PIXELS;
  const fits = (w: number) => {
    const h = Math.ceil((deviceH * w) / deviceW);
    return edge <= 0 || (w * h <= maxPixels && Math.max(w, h) <= edge);
  };
  // A fractional device size (791×646 CSS px at 1.5 is 1186.5×969) comes out rounded up: at scale 1 it must
  // still fit once rounded (1187×969 is 203 px over 1.15 MP).
  if (s >= 1 && (edge <= 0 || fits(Math.round(deviceW)))) return 1;
  // Whole pixels, rounded down until the height Chromium rounds to still fits: the model's client must
  // not shrink the image again (1238×929 at 800×600@2 is 102 px over 1.15 MP; Claude would make it 1237×928).
  let w = Math.floor(deviceW * s);
  while (w > 1 && !fits(w)) w--;
  return w / deviceW;
}

/**
 * One screenshot and everything needed to click by it later.
 *
 * The ratio comes from what was captured, not from layout metrics: the clip is the whole viewport in CSS px
 * (innerWidth, which includes a classic scrollbar, unlike cssVisualViewport), and the image size is read
 * from the PNG header. Under emulation getLayoutMetrics reports visualViewport == cssVisualViewport, so a
 * ratio of those two would say 1 at any devicePixelRatio. The snapshot is asked for once the image is
 * taken: sent together, Chromium would write the snapshot first and hold the image back until it is done.
 */
export async function captureFrame(driver: PageDriver, o: CaptureOptions = {}): Promise<Capture> {
  const deadline = Date.now() + (o.budgetMs ?? 10_000);
  let lost: Lost;
  let tries = 0;
  // The budget decides whether to try again, never whether to try. A page that reloads itself is tried for
  // as long as the budget lasts: each of its documents may live only a little longer than a capture takes
  // on a busy machine (four tries in a row were lost so in CI).
  do {
    const loaderId = driver.loaderId;
    const r = await captureOnce(driver, o, deadline);
    if (typeof r !== 'string') return r;
    lost = r;
    if (r === 'navigated') await driver.untilDocument(loaderId, Math.min(1_000, deadline - Date.now()));
    else tries++;
  } while (tries < CAPTURE_TRIES && Date.now() < deadline);
  throw new BrowserError('CAPTURE_FAILED', LOST_WORDS[lost], LOST_NEXT[lost]);
}

/**
 * Why a capture was let go: the page scrolled under it, its document was replaced (a reload, a link), or
 * Chromium had no image to give with the same document still there (a compositor frame being swapped).
 */
type Lost = 'scrolled' | 'navigated' | 'unable';

const LOST_WORDS: Record<Lost, string> = {
  scrolled: 'The page kept scrolling while trueclick captured it',
  navigated: 'The page kept loading new documents while trueclick captured it',
  unable: 'Chromium could not capture the page several times in a row',
};
const LOST_NEXT: Record<Lost, string> = {
  scrolled: 'Wait for the page to settle (or stop its scrolling) and call browser_screenshot again.',
  navigated: 'Wait for it to settle (browser_wait) and call browser_screenshot again.',
  unable: 'Wait a moment (browser_wait) and call browser_screenshot again.',
};

/** How long a capture Chromium could not make waits for the commit that usually explains it. */
const UNABLE_WAIT_MS = 500;

/** Captures a page scrolled under, or Chromium could not make, are taken again up to this many times in all. */
const CAPTURE_TRIES = 4;

/**
 * One capture, or why it was let go. Chromium never answers a capture sent as the next document commits, and
 * the old document's world is gone under the reads around it: such a capture is of no document.
 */
async function captureOnce(driver: PageDriver, o: CaptureOptions, deadline: number): Promise<Capture | Lost> {
  const loaderId = driver.loaderId;
  let committed = () => {};
  const commit = new Promise<'navigated'>((resolve) => {
    committed = () => resolve('navigated');
  });
  const unwatch = driver.watchDocument(() => {
    if (driver.loaderId !== loaderId) committed();
  });
  try {
    const r = await Promise.race([captureOf(driver, o, deadline), commit]);
    return typeof r !== 'string' && driver.loaderId !== loaderId ? 'navigated' : r;
  } catch (err) {
    if (lostToNavigation(err) || driver.loaderId !== loaderId) return 'navigated';
    // A capture the next document's commit cut short can fail before that commit is reported: the reload
    // is then seen a moment later. Without one, it is taken again all the same.
    if (/Unable to capture screenshot/.test(String(err))) {
      const ms = Math.min(UNABLE_WAIT_MS, deadline - Date.now());
      return (await driver.untilDocument(loaderId, ms)) ? 'navigated' : 'unable';
    }
    throw err;
  } finally {
    unwatch();
  }
}

/**
 * What a read gets at least when the budget is all but spent: a capture that took most of it on a busy
 * machine must not have the reads after it fail at once (a 1 ms budget), with its image taken.
 */
const LAST_READ_MS = 1_000;

async function captureOf(driver: PageDriver, o: CaptureOptions, deadline: number): Promise<Capture | Lost> {
  const left = () => Math.max(LAST_READ_MS, deadline - Date.now());
  const [metrics, [innerW, innerH, dprRaw, mutationCount, elements], remote] = await Promise.all([
    driver.send('Page.getLayoutMetrics', {}, left()),
    driver.evaluate<[number, number, number, number, number]>('window.__trueclick.metrics()'),
    // Cross-site iframes live in other processes: each one's document comes through its own session.
    remoteDrivers(driver),
  ]);
  const dpr = roundDpr(dprRaw);
  const vv = metrics.cssVisualViewport;
  const scroll = { x: vv.pageX, y: vv.pageY };
  const area = o.region ?? { x: 0, y: 0, width: innerW, height: innerH };
  const scale = o.region
    ? zoomScale(area.width * dpr, area.height * dpr, o)
    : captureScale(
        innerW * dpr,
        innerH * dpr,
        o,
        driver.windowRatio === undefined ? undefined : driver.windowRatio / dpr,
      );
  const url = driver.url;
  const loaderId = driver.loaderId;
  const capturedAt = Date.now();
  const shot = await driver.send(
    'Page.captureScreenshot',
    {
      format: 'png',
      clip: { x: scroll.x + area.x, y: scroll.y + area.y, width: area.width, height: area.height, scale },
      captureBeyondViewport: false,
      // Chromium's fast PNG encoder: the same pixels, a larger file, the image back sooner (−6 to −8 % here).
      optimizeForSpeed: true,
    },
    left(),
  );
  const view = { ...scroll, width: innerW, height: innerH };
  // The snapshot is asked for beside the scroll check: a capture the page scrolled under is taken again,
  // and its snapshot, already asked for, is left unread.
  const [afterMetrics, { index: snapshot }] = await Promise.all([
    driver.send('Page.getLayoutMetrics', {}, left()),
    requestSnapshot(driver, remote, view, metrics.cssContentSize.width, left(), walks(elements, remote)),
  ]);
  const after = afterMetrics.cssVisualViewport;
  if (!sameScroll(scroll, { x: after.pageX, y: after.pageY })) return 'scrolled';
  const head = Buffer.from(shot.data.slice(0, 64), 'base64');
  const size = imageSize(head);
  if (size.width < 1 || size.height < 1) {
    throw new BrowserError(
      'CAPTURE_FAILED',
      'Chromium returned an empty screenshot',
      'Retry browser_screenshot.',
    );
  }
  const capture: Capture = {
    base64: shot.data,
    mimeType: 'image/png',
    image: { width: size.width, height: size.height },
    css: { width: area.width, height: area.height },
    scroll,
    devicePixelRatio: dpr,
    url,
    loaderId,
    capturedAt,
    mutationCount,
    snapshot,
  };
  if (o.region) capture.origin = { x: area.x, y: area.y };
  return capture;
}

/**
 * Whether the frame's record is read by a walk of the viewport (view-record.ts) rather than a DOM snapshot:
 * on a large page, where a snapshot of the whole document costs seconds, and with no cross-site frame, whose
 * documents only a snapshot reads.
 */
const walks = (elements: number, remote: unknown[]) => elements >= WALK_FROM_ELEMENTS && remote.length === 0;

/** A zoom's scale relative to device pixels: the region fills the image budget, up to MAX_ZOOM. */
export function zoomScale(deviceW: number, deviceH: number, o: CaptureOptions): number {
  const edge = o.maxImageEdge || DEFAULT_MAX_IMAGE_EDGE;
  const maxPixels = o.maxPixels ?? DEFAULT_MAX_PIXELS;
  let s = Math.min(MAX_ZOOM, edge / Math.max(deviceW, deviceH), Math.sqrt(maxPixels / (deviceW * deviceH)));
  if (o.maxWidth && o.maxWidth > 0) s = Math.min(s, o.maxWidth / deviceW);
  // Whole pixels that stay inside the budget once Chromium rounds the other side.
  let w = Math.floor(deviceW * s);
  while (
    w > 1 &&
    (w * Math.ceil((deviceH * w) / deviceW) > maxPixels || Math.ceil((deviceH * w) / deviceW) > edge)
  )
    w--;
  return w / deviceW;
}
