// `trueclick matrix --url`: the grounding round trip on the user's own page. For each browser config
// (devicePixelRatio × scale source × scrollbar) and scroll state the page is loaded once, a recorder keeps it
// from acting on clicks, and every (client downscale, preset, target) cell is clicked twice: through trueclick
// (the model family's raw output for the target's true box) and naively (those numbers as CSS px). Whether the
// target received each click is read from the page (the recorder's log of trusted clicks and their composed
// paths), never from trueclick's report. A target that no click could reach in a world (off-screen,
// zero-size, under a banner) is reported for its cells, not counted as a miss.

import type { ClickRequest } from '../../actions/click.js';
import { type Screenshot, type SessionOptions, TrueclickSession } from '../../actions/session.js';
import { dispatchClick } from '../../browser/input.js';
import { openBrowser } from '../../browser/launch.js';
import type { CssBox, FrameGeometry, PresetName, Size, XY } from '../../geometry/index.js';
import {
  type BrowserConfig,
  CLIENT_LONG_EDGE,
  configsOf,
  type Downscale,
  fromFullResolution,
  type MatrixSpec,
  SCROLL_BY,
  type Scroll,
  SHOWN_WIDTH,
} from './cells.js';
import { oracleAnswer, shownSizeFor } from './oracle.js';
import { pngSize } from './pixels.js';
import { clicksSince, installRecorder, locate, targetStates } from './url-page.js';

export interface UrlMatrixSpec extends Omit<MatrixSpec, 'targets'> {
  url: string;
  /** Playwright selectors, or `name=<accessible name>`. */
  targets: string[];
  viewport: { width: number; height: number };
  /** Login state: a Playwright storage state file, or a persistent profile. */
  storageState?: string;
  userDataDir?: string;
  executablePath?: string;
}

export interface UrlCell extends BrowserConfig {
  scroll: Scroll;
  downscale: Downscale;
  preset: PresetName;
  target: string;
}

export interface UrlClickResult {
  cell: UrlCell;
  /** The target's box in this world, CSS px of the viewport; null when the selector matched nothing. */
  box: CssBox | null;
  /** Why no click could reach the target here; the cell is reported, not clicked. */
  unclickable?: string;
  text?: string;
  trueclick?: { hit: boolean; verdict?: string; error?: string; dispatched: XY | null; message?: string };
  naive?: { hit: boolean; point: XY; where: 'dispatched' | 'off-screen' };
}

export interface UrlMatrixRun {
  spec: UrlMatrixSpec;
  results: UrlClickResult[];
  /** Configs that could not be set up, with why. */
  errors: string[];
  ms: number;
}

/** How long a page may take to render its targets after load (a single-page app fetching its data). */
const TARGET_WAIT_MS = 10_000;

const errorText = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  return `${e.code ?? 'Error'}: ${e.message ?? String(err)}`;
};

/** Waits for a click to reach the recorder; false when none came. */
async function reached(
  session: TrueclickSession,
  seen: { n: number },
  target: number,
): Promise<boolean | undefined> {
  const page = (await session.driver()).page;
  for (let i = 0; i < 20; i++) {
    const got = await clicksSince(page, seen.n);
    if (got.length > 0) {
      seen.n += got.length;
      return got.some((c) => c.trusted && c.inside[target]);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return undefined;
}

async function runWorld(
  cfg: BrowserConfig,
  scroll: Scroll,
  spec: UrlMatrixSpec,
  sessions: { sent: TrueclickSession; full: TrueclickSession },
  emit: (r: UrlClickResult) => void,
): Promise<void> {
  const { sent, full } = sessions;
  await sent.navigate(spec.url);
  const driver = await sent.driver();
  const page = driver.page;
  const deadline = Date.now() + TARGET_WAIT_MS;
  const located: Array<Awaited<ReturnType<typeof locate>>> = [];
  for (const t of spec.targets) located.push(await locate(page, t, deadline));
  await installRecorder(page, located);
  if (scroll === 'scrolled') await page.evaluate((y) => window.scrollTo(0, y), SCROLL_BY);
  // The mouse rests in a corner, so no target shows its hover state in the frames.
  await driver.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: 0, y: 0, button: 'none' });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const states = await targetStates(page, spec.targets.length);
  const metrics = await page.evaluate(() => ({
    w: innerWidth,
    h: innerHeight,
    sx: scrollX,
    sy: scrollY,
    dpr: devicePixelRatio,
  }));
  const shots = new Map<Downscale, { session: TrueclickSession; shot: Screenshot; image: Size }>();
  for (const d of spec.downscales) {
    const session = fromFullResolution(d) ? full : sent;
    const have = [...shots.values()].find((s) => s.session === session);
    if (have) shots.set(d, have);
    else {
      const shot = await session.screenshot();
      shots.set(d, { session, shot, image: pngSize(shot.base64) });
    }
  }
  const seen = { n: 0 };
  for (const downscale of spec.downscales) {
    const s = shots.get(downscale) as NonNullable<ReturnType<typeof shots.get>>;
    for (const preset of spec.presets) {
      for (const [i, target] of spec.targets.entries()) {
        const cell: UrlCell = { ...cfg, scroll, downscale, preset, target };
        const state = states[i];
        if (!state) {
          emit({ cell, box: null, unclickable: 'no element matches' });
          continue;
        }
        if (state.unclickable) {
          emit({ cell, box: state.box, unclickable: state.unclickable });
          continue;
        }
        const truthFrame: FrameGeometry = {
          image: s.image,
          css: { width: metrics.w, height: metrics.h },
          scroll: { x: metrics.sx, y: metrics.sy },
          devicePixelRatio: metrics.dpr,
        };
        const shown = shownSizeFor(downscale, s.image, CLIENT_LONG_EDGE, SHOWN_WIDTH);
        const answer = oracleAnswer(preset, state.box, truthFrame, shown);
        const req: ClickRequest = { frame: s.shot.frame.id, model: preset, model_output: answer.text };
        if (shown) req.shown_width = shown.width;
        const tc: NonNullable<UrlClickResult['trueclick']> = { hit: false, dispatched: null };
        try {
          const r = await s.session.click(req);
          tc.verdict = r.verdict;
          tc.dispatched = r.dispatched;
          if (r.verdict !== 'OK') tc.message = r.message;
          if (r.dispatched) tc.hit = (await reached(s.session, seen, i)) === true;
        } catch (err) {
          tc.error = errorText(err);
        }
        const result: UrlClickResult = { cell, box: state.box, text: answer.text, trueclick: tc };
        if (spec.naive) {
          const p = answer.naive;
          if (p.x >= 0 && p.y >= 0 && p.x < metrics.w && p.y < metrics.h) {
            await dispatchClick(driver, p);
            result.naive = { hit: (await reached(sent, seen, i)) === true, point: p, where: 'dispatched' };
          } else result.naive = { hit: false, point: p, where: 'off-screen' };
        }
        emit(result);
      }
    }
  }
}

export async function runUrlMatrix(
  spec: UrlMatrixSpec,
  opts: { onResult?: (r: UrlClickResult) => void } = {},
): Promise<UrlMatrixRun> {
  const t0 = Date.now();
  const results: UrlClickResult[] = [];
  const errors: string[] = [];
  const emit = (r: UrlClickResult) => {
    results.push(r);
    opts.onResult?.(r);
  };
  for (const cfg of configsOf({ ...spec, targets: [] })) {
    const base: SessionOptions = {
      deviceScaleFactor: cfg.dpr,
      scaleSource: cfg.source,
      viewport: { ...spec.viewport },
      headless: true,
      hideScrollbars: cfg.scrollbar === 'hidden',
    };
    if (spec.executablePath) base.executablePath = spec.executablePath;
    if (spec.storageState) base.storageState = spec.storageState;
    if (spec.userDataDir) base.userDataDir = spec.userDataDir;
    let handle: Awaited<ReturnType<typeof openBrowser>> | undefined;
    try {
      handle = await openBrowser(base);
      const sessions = {
        sent: new TrueclickSession(base, handle),
        full: new TrueclickSession({ ...base, maxImageEdge: 0 }, handle),
      };
      for (const scroll of spec.scrolls) await runWorld(cfg, scroll, spec, sessions, emit);
    } catch (err) {
      errors.push(`${cfg.source} DPR ${cfg.dpr} ${cfg.scrollbar} scrollbar: ${(err as Error).message}`);
    } finally {
      await handle?.close().catch(() => {});
    }
  }
  return { spec, results, errors, ms: Date.now() - t0 };
}

/** Cells of a URL run: configs × scrolls × downscales × presets × targets. */
export function urlCellCount(spec: UrlMatrixSpec): number {
  return (
    configsOf({ ...spec, targets: [] }).length *
    spec.scrolls.length *
    spec.downscales.length *
    spec.presets.length *
    spec.targets.length
  );
}
