// `trueclick matrix --url`: the grounding round trip on the user's own page. For each browser config
// (devicePixelRatio × scale source × scrollbar) and scroll state the page is loaded once, a recorder keeps it
// from acting on clicks, and every (client downscale, preset, target) cell is clicked twice: through trueclick
// (the model family's raw output for the target's true box) and naively (those numbers as CSS px). Whether the
// target received each click is read from the page (the recorder's log of trusted clicks and their composed
// paths), never from trueclick's report. A target that no click could reach in a world (off-screen,
// zero-size, under a banner) is reported for its cells, not counted as a miss.

import { type Screenshot, type SessionOptions, TrueclickSession } from '../../actions/session/session.js';
import { openBrowser } from '../../browser/plumbing/launch.js';
import { defaultPolicy } from '../../browser/plumbing/url-policy.js';
import type { CssBox, PresetName, Size, XY } from '../../geometry/index.js';
import { groundCell, type NaiveOutcome } from '../../grounding/cell.js';
import {
  movingReason,
  type QuietWait,
  quietWait,
  REBIND_MS,
  type Reading,
  type RunContext,
  recordTargets,
  settle,
  steadyRun,
} from '../../grounding/page.js';
import {
  type BrowserConfig,
  configsOf,
  type Downscale,
  fromFullResolution,
  type MatrixSpec,
  SCROLL_BY,
  type Scroll,
} from './cells.js';

export interface UrlMatrixSpec extends Omit<MatrixSpec, 'targets'> {
  url: string;
  /** Playwright selectors, or `name=<accessible name>`. */
  targets: string[];
  viewport: { width: number; height: number };
  /** Login state: a Playwright storage state file, or a persistent profile. */
  storageState?: string;
  userDataDir?: string;
  executablePath?: string;
  /** Trace the clicks of the image as sent (one session folder per browser config), for `trueclick report`. */
  traceDir?: string;
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
  naive?: NaiveOutcome;
}

export interface UrlMatrixRun {
  spec: UrlMatrixSpec;
  results: UrlClickResult[];
  /** Configs that could not be set up, with why. */
  errors: string[];
  ms: number;
}

type Shot = { session: TrueclickSession; shot: Screenshot; image: Size };

/** One reading of a world: its targets, a frame per session, every cell clicked; results kept, not emitted. */
async function clickReading(
  cfg: BrowserConfig,
  scroll: Scroll,
  spec: UrlMatrixSpec,
  sessions: { sent: TrueclickSession; full: TrueclickSession },
  reading: Reading,
  run: RunContext,
): Promise<Array<{ target: number; result: UrlClickResult }>> {
  const { states, world } = reading;
  const page = (await sessions.sent.driver()).page;
  const shots = new Map<Downscale, Shot>();
  for (const d of spec.downscales) {
    const session = fromFullResolution(d) ? sessions.full : sessions.sent;
    const have = [...shots.values()].find((s) => s.session === session);
    if (have) shots.set(d, have);
    else {
      const shot = await session.screenshot();
      shots.set(d, { session, shot, image: shot.frame.geometry.image });
    }
  }
  const out: Array<{ target: number; result: UrlClickResult }> = [];
  for (const downscale of spec.downscales) {
    const s = shots.get(downscale) as Shot;
    for (const preset of spec.presets) {
      for (const [i, target] of spec.targets.entries()) {
        const cell: UrlCell = { ...cfg, scroll, downscale, preset, target };
        const state = states[i];
        if (!state) out.push({ target: i, result: { cell, box: null, unclickable: 'no element matches' } });
        else if (state.unclickable)
          out.push({ target: i, result: { cell, box: state.box, unclickable: state.unclickable } });
        else {
          const got = await groundCell({
            page,
            tc: s.session,
            shot: s.shot,
            image: s.image,
            world,
            box: state.box,
            preset,
            downscale,
            target: i,
            seen: run.seen,
            naive: spec.naive,
          });
          out.push({ target: i, result: { cell, box: state.box, ...got } });
          await run.check();
        }
      }
    }
  }
  return out;
}

async function runWorld(
  cfg: BrowserConfig,
  scroll: Scroll,
  spec: UrlMatrixSpec,
  sessions: { sent: TrueclickSession; full: TrueclickSession },
  emit: (r: UrlClickResult) => void,
  quiet: QuietWait,
): Promise<void> {
  await sessions.sent.navigate(spec.url);
  const page = (await sessions.sent.driver()).page;
  await settle(page, quiet);
  await recordTargets(page, spec.targets);
  const scrollTo = async () => {
    if (scroll === 'scrolled') await page.evaluate((y) => window.scrollTo(0, y), SCROLL_BY);
  };
  await scrollTo();
  const { out, moved } = await steadyRun(
    page,
    spec.targets.length,
    (reading, run) => clickReading(cfg, scroll, spec, sessions, reading, run),
    {
      rest: true,
      // A page that re-rendered a target put another node in its place, or scrolled itself.
      again: async () => {
        await recordTargets(page, spec.targets, REBIND_MS);
        await scrollTo();
      },
    },
  );
  for (const { target, result: r } of out) {
    const why = moved.get(target);
    emit(why ? { cell: r.cell, box: r.box, unclickable: movingReason(why) } : r);
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
  // A page that never goes quiet (it polls) is given the whole wait once, not in every browser config.
  const quiet = quietWait();
  for (const cfg of configsOf({ ...spec, targets: [] })) {
    const base: SessionOptions = {
      deviceScaleFactor: cfg.dpr,
      scaleSource: cfg.source,
      viewport: { ...spec.viewport },
      headless: true,
      hideScrollbars: cfg.scrollbar === 'hidden',
    };
    // The person named this page: a file: URL (a page saved to disk) is opened, though an agent may not.
    if (new URL(spec.url).protocol === 'file:')
      base.urlPolicy = { schemes: [...defaultPolicy().schemes, 'file'] };
    if (spec.executablePath) base.executablePath = spec.executablePath;
    if (spec.storageState) base.storageState = spec.storageState;
    if (spec.userDataDir) base.userDataDir = spec.userDataDir;
    let handle: Awaited<ReturnType<typeof openBrowser>> | undefined;
    try {
      handle = await openBrowser(base);
      const sessions = {
        sent: new TrueclickSession(spec.traceDir ? { ...base, trace: { dir: spec.traceDir } } : base, handle),
        full: new TrueclickSession({ ...base, maxImageEdge: 0 }, handle),
      };
      for (const scroll of spec.scrolls) await runWorld(cfg, scroll, spec, sessions, emit, quiet);
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
