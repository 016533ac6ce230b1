import { dispatchClick } from '../../browser/plumbing/input.js';
// Runs the matrix: one browser per (devicePixelRatio, scale source, scrollbar) config, one page load per
// scroll state, one frame per server image size, and every (client downscale, preset, target) cell clicked
// on that frame twice: through trueclick (session.click with the model's raw output) and naively (the
// model's numbers sent as CSS px in a raw CDP click, as Playwright MCP's and chrome-devtools-mcp's
// coordinate tools do). Whether the intended element got each click is read from the fixture page's own
// hit log, never from trueclick's report.

import type { Page } from 'playwright-core';
import { startFixtureServer } from '../../../fixtures/server.js';
import { type Screenshot, type SessionOptions, TrueclickSession } from '../../actions/session/session.js';
import { type BrowserHandle, openBrowser } from '../../browser/plumbing/launch.js';
import type { CssBox, Size, XY } from '../../geometry/index.js';
import { clickAnswer } from '../../grounding/cell.js';
import { modelRequest } from '../../grounding/oracle.js';
import {
  type BrowserConfig,
  type Cell,
  configLabel,
  configsOf,
  type Downscale,
  fromFullResolution,
  type MatrixSpec,
  SCROLL_BY,
  SCROLLBAR_PX,
  type Scroll,
  type TargetKind,
  targetId,
  VIEWPORT,
} from './cells.js';
import { checkTarget, decode, pngSize } from './pixels.js';

export interface ClickResult {
  cell: Cell;
  /** The fixture element that should receive the click. */
  id: string;
  /** Its CSS viewport box, read from the page (getBoundingClientRect). */
  box: CssBox;
  /** The model's raw output as passed to trueclick. */
  text: string;
  /** shown_width passed to trueclick (the client showed the image at another size). */
  shownWidth?: number;
  /** The frame image the model's answer refers to (after the client's resize, before the provider's). */
  image: Size;
  trueclick: {
    hit: boolean;
    verdict?: string;
    /** A thrown refusal (code: message) instead of a report. */
    error?: string;
    dispatched: XY | null;
    /** Fixture id that received the click event (null: an element without id; undefined: no click event). */
    landedId?: string | null;
    message?: string;
  };
  naive?: {
    hit: boolean;
    point: XY;
    /** dispatched: clicked there; off-screen / scrollbar: nothing there can be the target, so not sent. */
    where: 'dispatched' | 'off-screen' | 'scrollbar';
    landedId?: string | null;
  };
  /** Something wrong with the oracle or the frame's picture (counts as a failure of the cell). */
  problem?: string;
}

export interface ConfigReport {
  config: BrowserConfig;
  ms: number;
  error?: string;
  /** What the page reported in each scroll state (the world the config claims to be). */
  worlds: Array<{
    scroll: Scroll;
    innerWidth: number;
    innerHeight: number;
    clientWidth: number;
    scrollY: number;
    devicePixelRatio: number;
    frames: Array<{ id: string; image: Size; css: Size }>;
  }>;
}

export interface MatrixRun {
  spec: MatrixSpec;
  results: ClickResult[];
  configs: ConfigReport[];
  ms: number;
}

export interface RunOptions {
  executablePath?: string;
  /** Browsers at once (default 1). */
  concurrency?: number;
  onResult?: (r: ClickResult) => void;
  onConfig?: (c: ConfigReport) => void;
}

interface PageTruth {
  innerWidth: number;
  innerHeight: number;
  clientWidth: number;
  clientHeight: number;
  scrollX: number;
  scrollY: number;
  devicePixelRatio: number;
  boxes: Record<string, CssBox | null>;
}

/** Read in the page's main world: the DOM's own answer, independent of trueclick's frame. */
function readTruth(ids: string[]): PageTruth {
  const boxes: Record<string, CssBox | null> = {};
  for (const id of ids) {
    const r = document.getElementById(id)?.getBoundingClientRect();
    boxes[id] = r ? { left: r.left, top: r.top, right: r.right, bottom: r.bottom } : null;
  }
  const de = document.documentElement;
  return {
    innerWidth,
    innerHeight,
    clientWidth: de.clientWidth,
    clientHeight: de.clientHeight,
    scrollX,
    scrollY,
    devicePixelRatio,
    boxes,
  };
}

/** A dispatched click is in the page's log when the CDP call returns; this only covers a slow renderer. */
const HIT_POLL_MS = 25;
/** Where the mouse rests while frames are taken: plain background, so no target shows its hover colour. */
const REST = { x: 400, y: 300 };

function worldProblem(cfg: BrowserConfig, scroll: Scroll, t: PageTruth, ids: string[]): string | null {
  if (Math.abs(t.devicePixelRatio - cfg.dpr) > 1e-3)
    return `devicePixelRatio is ${t.devicePixelRatio}, not ${cfg.dpr}`;
  const bar = t.innerWidth - t.clientWidth;
  if (cfg.scrollbar === 'hidden' && bar !== 0)
    return `the scrollbar should be hidden but takes ${bar} CSS px`;
  if (cfg.scrollbar === 'classic' && Math.abs(bar - SCROLLBAR_PX) > 1)
    return `the classic scrollbar takes ${bar} CSS px, not ${SCROLLBAR_PX}`;
  const want = scroll === 'scrolled' ? SCROLL_BY : 0;
  if (Math.abs(t.scrollY - want) > 1 || t.scrollX !== 0)
    return `the page is scrolled to (${t.scrollX}, ${t.scrollY}), not (0, ${want})`;
  for (const id of ids) {
    const b = t.boxes[id];
    if (!b) return `#${id} is missing`;
    if (b.left < 0 || b.top < 0 || b.right > t.clientWidth + 0.01 || b.bottom > t.clientHeight + 0.01)
      return `#${id} (${b.left}, ${b.top}, ${b.right}, ${b.bottom}) is not inside the ${t.clientWidth}x${t.clientHeight} content area`;
  }
  return null;
}

/**
 * The element the page's own hit recorder (fixtures/pages/hit.js, a window capture-phase listener) saw the
 * `n`-th click of this page load land on: its id, null for an element without id, undefined for no click.
 * Read from the page's log (window.__hits, with this run's label) rather than from the fixture server's copy:
 * hit.js posts with fetch keepalive and never reads the responses, so Chromium's 64 KiB keepalive quota runs
 * out after a few hundred hits per page load and later hits never reach the server.
 */
async function nthClick(page: Page, run: string, n: number): Promise<string | null | undefined> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const got = await page.evaluate(
      ([label, i]) => {
        const clicks = (
          window as unknown as { __hits: Array<{ type: string; run?: string; id: string | null }> }
        ).__hits.filter((h) => h.type === 'click' && h.run === label);
        return clicks.length > i ? { id: clicks[i]?.id ?? null } : null;
      },
      [run, n] as const,
    );
    if (got) return got.id;
    await new Promise((r) => setTimeout(r, HIT_POLL_MS));
  }
  return undefined;
}

/** Counts this page load's click events as they are consumed, so each click reads its own hit. */
class ClickLog {
  private seen = 0;
  constructor(
    private readonly page: Page,
    private readonly run: string,
  ) {}
  async next(): Promise<string | null | undefined> {
    const id = await nthClick(this.page, this.run, this.seen);
    if (id !== undefined) this.seen++;
    return id;
  }
}

async function naiveClick(
  handle: BrowserHandle,
  log: ClickLog,
  t: PageTruth,
  p: XY,
  id: string,
): Promise<NonNullable<ClickResult['naive']>> {
  if (!(p.x >= 0 && p.y >= 0 && p.x < t.innerWidth && p.y < t.innerHeight))
    return { hit: false, point: p, where: 'off-screen' };
  if (p.x >= t.clientWidth || p.y >= t.clientHeight) return { hit: false, point: p, where: 'scrollbar' };
  // The naive pipeline: the numbers sent as CSS px, no check (what the peers do).
  await dispatchClick(handle.driver, p);
  const landedId = await log.next();
  return { hit: landedId === id, point: p, where: 'dispatched', landedId };
}

interface Shot {
  session: TrueclickSession;
  shot: Screenshot;
  image: Size;
  /** Per target kind: why the picture disagrees with the DOM box, if it does. */
  pixelProblems: Map<TargetKind, string>;
}

async function takeShot(
  session: TrueclickSession,
  t: PageTruth,
  spec: MatrixSpec,
  scroll: Scroll,
): Promise<Shot> {
  const shot = await session.screenshot();
  const image = pngSize(shot.base64);
  const pixelProblems = new Map<TargetKind, string>();
  const raster = await decode(shot.base64);
  for (const kind of spec.targets) {
    const box = t.boxes[targetId(kind, scroll)];
    if (!box) continue;
    const c = checkTarget(raster, kind, box, { width: t.innerWidth, height: t.innerHeight });
    if (!c.ok) pixelProblems.set(kind, `frame ${shot.frame.id} picture: ${c.message}`);
  }
  return { session, shot, image, pixelProblems };
}

async function runConfig(
  cfg: BrowserConfig,
  spec: MatrixSpec,
  opts: RunOptions,
  report: ConfigReport,
): Promise<ClickResult[]> {
  const results: ClickResult[] = [];
  const emit = (r: ClickResult) => {
    results.push(r);
    opts.onResult?.(r);
  };
  const srv = await startFixtureServer();
  const hidden = cfg.scrollbar === 'hidden';
  const base: SessionOptions = {
    deviceScaleFactor: cfg.dpr,
    scaleSource: cfg.source,
    viewport: { ...VIEWPORT },
    headless: true,
    hideScrollbars: hidden,
  };
  if (opts.executablePath) base.executablePath = opts.executablePath;
  let handle: BrowserHandle | undefined;
  try {
    handle = await openBrowser(base);
    const sent = new TrueclickSession(base, handle);
    const full = new TrueclickSession({ ...base, maxImageEdge: 0 }, handle);
    for (const scroll of spec.scrolls) {
      const run = `matrix-${cfg.source}-${cfg.dpr}-${cfg.scrollbar}-${scroll}`;
      await sent.navigate(srv.url('/targets', { tall: 1, scrollbar: SCROLLBAR_PX, at: SCROLL_BY, run }));
      const page = handle.driver.page;
      const log = new ClickLog(page, run);
      if (scroll === 'scrolled') await page.evaluate((y) => window.scrollTo(0, y), SCROLL_BY);
      await handle.driver.send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...REST, button: 'none' });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const ids = spec.targets.map((k) => targetId(k, scroll));
      const truth = await page.evaluate(readTruth, ids);
      const bad = worldProblem(cfg, scroll, truth, ids);
      if (bad) throw new Error(`${configLabel(cfg)}, ${scroll}: ${bad}`);

      const shots = new Map<Downscale, Shot>();
      const needSent = spec.downscales.some((d) => !fromFullResolution(d));
      const sentShot = needSent ? await takeShot(sent, truth, spec, scroll) : undefined;
      const fullShot = spec.downscales.some(fromFullResolution)
        ? await takeShot(full, truth, spec, scroll)
        : undefined;
      for (const d of spec.downscales) {
        const s = fromFullResolution(d) ? fullShot : sentShot;
        if (s) shots.set(d, s);
      }
      report.worlds.push({
        scroll,
        innerWidth: truth.innerWidth,
        innerHeight: truth.innerHeight,
        clientWidth: truth.clientWidth,
        scrollY: truth.scrollY,
        devicePixelRatio: truth.devicePixelRatio,
        frames: [sentShot, fullShot].flatMap((s) =>
          s ? [{ id: s.shot.frame.id, image: s.image, css: { ...s.shot.frame.geometry.css } }] : [],
        ),
      });

      for (const cell of cellsOf(cfg, scroll, spec)) {
        const s = shots.get(cell.downscale) as Shot;
        const id = targetId(cell.target, scroll);
        const box = truth.boxes[id] as CssBox;
        const { answer, req, shown } = modelRequest({
          preset: cell.preset,
          box,
          image: s.image,
          world: {
            w: truth.innerWidth,
            h: truth.innerHeight,
            sx: truth.scrollX,
            sy: truth.scrollY,
            dpr: truth.devicePixelRatio,
          },
          downscale: cell.downscale,
          frame: s.shot.frame.id,
        });
        const tc: ClickResult['trueclick'] = { hit: false, ...(await clickAnswer(s.session, req)) };
        if (tc.dispatched) tc.landedId = await log.next();
        tc.hit = tc.landedId === id;
        const result: ClickResult = {
          cell,
          id,
          box,
          text: answer.text,
          image: shown ?? s.image,
          trueclick: tc,
        };
        if (shown) result.shownWidth = shown.width;
        const problems = [answer.disagreement, s.pixelProblems.get(cell.target)].filter(Boolean);
        if (problems.length > 0) result.problem = problems.join('; ');
        if (spec.naive) result.naive = await naiveClick(handle, log, truth, answer.naive, id);
        emit(result);
      }
    }
  } catch (err) {
    report.error = (err as Error).message ?? String(err);
    // Every cell this config did not get to is a failure, so a broken setup cannot pass as a short run.
    const done = new Set(results.map((r) => cellKey(r.cell)));
    for (const scroll of spec.scrolls) {
      for (const cell of cellsOf(cfg, scroll, spec)) {
        if (done.has(cellKey(cell))) continue;
        emit({
          cell,
          id: targetId(cell.target, cell.scroll),
          box: { left: 0, top: 0, right: 0, bottom: 0 },
          text: '',
          image: { width: 0, height: 0 },
          trueclick: { hit: false, dispatched: null, error: `not run: ${report.error}` },
          problem: `setup: ${report.error}`,
        });
      }
    }
  } finally {
    await handle?.close().catch(() => {});
    await srv.close();
  }
  return results;
}

const cellKey = (c: Cell) => `${c.scroll} ${c.downscale} ${c.preset} ${c.target}`;

function cellsOf(cfg: BrowserConfig, scroll: Scroll, spec: MatrixSpec): Cell[] {
  const out: Cell[] = [];
  for (const downscale of spec.downscales)
    for (const preset of spec.presets)
      for (const target of spec.targets) out.push({ ...cfg, scroll, downscale, preset, target });
  return out;
}

export async function runMatrix(spec: MatrixSpec, opts: RunOptions = {}): Promise<MatrixRun> {
  const t0 = Date.now();
  const queue = configsOf(spec);
  const configs: ConfigReport[] = [];
  const results: ClickResult[] = [];
  const worker = async () => {
    for (let cfg = queue.shift(); cfg; cfg = queue.shift()) {
      const report: ConfigReport = { config: cfg, ms: 0, worlds: [] };
      const t = Date.now();
      results.push(...(await runConfig(cfg, spec, opts, report)));
      report.ms = Date.now() - t;
      configs.push(report);
      opts.onConfig?.(report);
    }
  };
  const n = Math.max(1, Math.min(opts.concurrency ?? 1, queue.length));
  await Promise.all(Array.from({ length: n }, worker));
  return { spec, results, configs, ms: Date.now() - t0 };
}
