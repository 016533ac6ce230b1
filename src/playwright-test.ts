// trueclick/test: the scale-factor grounding check for a Playwright Test suite, in a few lines:
//
//   import { expectGrounded } from 'trueclick/test';
//   test('the inbox is clickable from screenshots on every laptop', async ({ browser }) => {
//     await expectGrounded({ browser, url: 'http://localhost:3000/inbox', targets: ['#compose', 'name=Archive'], model: 'claude' });
//   });
//
// For each devicePixelRatio it opens the page in a fresh context, takes the screenshot the way an agent does
// (through trueclick, downscaled as the model's provider would), writes what the model family would answer for
// each target's true box, clicks that answer through trueclick, and asks the page whether the target received
// the click. The page is kept from acting on the clicks (no link followed, no form submitted).

import type { Browser, Page } from 'playwright-core';
import type { TrueclickSession } from './actions/session/session.js';
import type { PresetName } from './geometry/index.js';
import { type CellOutcome, type Downscale, groundCell } from './grounding/cell.js';
import { fromFullResolution } from './grounding/oracle.js';
import {
  movingReason,
  QUIET_AGAIN_MS,
  quietWait,
  REBIND_MS,
  recordTargets,
  settle,
  steadyRun,
} from './grounding/page.js';
import { trueclickForPage } from './playwright.js';

export type { Downscale } from './grounding/cell.js';

/** What to check. */
export interface GroundingOptions {
  /** The browser to open pages in: Playwright Test's `browser` fixture. */
  browser: Browser;
  url: string;
  /** Playwright selectors (CSS, `text=`, `role=`…) or `name=<accessible name>`. */
  targets: string[];
  /** The model family the agent runs, as a trueclick preset: 'claude', 'openai-cua', 'gemini', 'qwen2.5-vl'… */
  model: PresetName;
  /** devicePixelRatios to check; default 1, 1.5 and 2 (CI, a Windows laptop, a MacBook). */
  dprs?: number[];
  /**
   * How the model saw the screenshot: 'client-1568' (default: full resolution, shrunk by the client or
   * provider to a 1568 px long edge, as Claude's API does), 'none' (trueclick's own image as sent), 'full'
   * (full resolution as sent), 'shown-1000' (trueclick's image shown 1000 px wide).
   */
  downscale?: Downscale;
  /** CSS px; default 1280×800. */
  viewport?: { width: number; height: number };
  /** Called on each page after it loaded, before the screenshot: log in, open a menu, dismiss a banner. */
  prepare?: (page: Page) => Promise<void>;
}

/** One target at one devicePixelRatio. */
export interface GroundingResult extends Partial<CellOutcome> {
  dpr: number;
  target: string;
  /** Whether the target received trueclick's click. */
  hit: boolean;
  /** Why no click could reach the target (off-screen, zero-size, covered, missing): it was not clicked. */
  unclickable?: string;
}

const DEFAULT_DPRS = [1, 1.5, 2];

/** Runs the check and returns every result; see expectGrounded for the asserting form. */
export async function checkGrounding(o: GroundingOptions): Promise<GroundingResult[]> {
  const downscale = o.downscale ?? 'client-1568';
  const out: GroundingResult[] = [];
  // A page that never goes quiet (it polls) is given the whole wait once, not at every devicePixelRatio.
  const quiet = quietWait();
  for (const dpr of o.dprs ?? DEFAULT_DPRS) {
    const context = await o.browser.newContext({
      viewport: o.viewport ?? { width: 1280, height: 800 },
      deviceScaleFactor: dpr,
    });
    let tc: TrueclickSession | undefined;
    try {
      const page = await context.newPage();
      await page.goto(o.url);
      await settle(page, quiet);
      // The mouse rests in a corner once, before prepare: what prepare opens by hover stays open.
      await page.mouse.move(0, 0);
      if (o.prepare) {
        await o.prepare(page);
        // A prepare that logs in lands on another page, which must come to rest too.
        await settle(page, { ms: QUIET_AGAIN_MS });
      }
      await recordTargets(page, o.targets);
      const session = await trueclickForPage(page, fromFullResolution(downscale) ? { maxImageEdge: 0 } : {});
      tc = session;
      const steady = {
        rest: !o.prepare,
        again: () => recordTargets(page, o.targets, REBIND_MS),
      };
      const { out: got, moved } = await steadyRun(
        page,
        o.targets.length,
        async ({ states, world }, run) => {
          const shot = await session.screenshot();
          const image = shot.frame.geometry.image;
          const cells: GroundingResult[] = [];
          for (const [i, target] of o.targets.entries()) {
            const state = states[i];
            if (!state || state.unclickable) {
              cells.push({
                dpr,
                target,
                hit: false,
                unclickable: state?.unclickable ?? 'no element matches',
              });
              continue;
            }
            const cell = await groundCell({
              page,
              tc: session,
              shot,
              image,
              world,
              box: state.box,
              preset: o.model,
              downscale,
              target: i,
              seen: run.seen,
              naive: false,
            });
            cells.push({ dpr, target, hit: cell.trueclick.hit, ...cell });
            await run.check();
          }
          return cells;
        },
        steady,
      );
      for (const [i, r] of got.entries()) {
        const why = moved.get(i);
        out.push(why ? { dpr, target: r.target, hit: false, unclickable: movingReason(why) } : r);
      }
    } finally {
      await tc?.close().catch(() => {});
      await context.close();
    }
  }
  return out;
}

/** Throws, listing every target that did not receive trueclick's click at some devicePixelRatio. */
export async function expectGrounded(o: GroundingOptions): Promise<GroundingResult[]> {
  const results = await checkGrounding(o);
  const missed = results.filter((r) => !r.hit);
  if (missed.length > 0) {
    const lines = missed.map((r) => {
      const why =
        r.unclickable ??
        r.trueclick?.error ??
        `${r.trueclick?.verdict}${r.trueclick?.dispatched ? ', the click did not reach it' : ', nothing clicked'}${r.trueclick?.message ? `: ${r.trueclick.message}` : ''}`;
      return `  DPR ${r.dpr} ${r.target}: ${why}${r.text ? ` (model_output ${JSON.stringify(r.text)})` : ''}`;
    });
    throw new Error(
      `trueclick grounding (${o.model}, downscale ${o.downscale ?? 'client-1568'}): ${missed.length} of ${results.length} checks failed on ${o.url}\n${lines.join('\n')}`,
    );
  }
  return results;
}
