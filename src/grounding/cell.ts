// One grounding round trip on a live page: the target's true box → what a model family would answer for it
// on the frame (after the client's downscale) → that raw output clicked through trueclick → whether the target
// received the click, by the page's own recorder (page.ts). The naive pipeline beside it sends the same
// numbers as CSS px. Shared by `trueclick matrix --url` and the Playwright Test helper (trueclick/test).

import type { Page } from 'playwright-core';
import type { ClickRequest } from '../actions/click.js';
import type { Screenshot, TrueclickSession } from '../actions/session.js';
import { dispatchClick } from '../browser/input.js';
import type { CssBox, FrameGeometry, PresetName, Size, XY } from '../geometry/index.js';
import { oracleAnswer, shownSizeFor } from './oracle.js';
import { clicksSince } from './page.js';

/** How the model saw the screenshot (see cells.ts DOWNSCALES). */
export type Downscale = 'none' | 'full' | 'client-1568' | 'shown-1000';

/** Long edge a client shrinks a full-resolution image to (Claude's limit), and the width of a shown image. */
export const CLIENT_LONG_EDGE = 1568;
export const SHOWN_WIDTH = 1000;

export interface CellOutcome {
  /** The model's raw output, as passed to trueclick. */
  text: string;
  trueclick: { hit: boolean; verdict?: string; error?: string; dispatched: XY | null; message?: string };
  naive?: { hit: boolean; point: XY; where: 'dispatched' | 'off-screen' };
}

export interface CellInput {
  page: Page;
  tc: TrueclickSession;
  shot: Screenshot;
  /** The screenshot's image size, px. */
  image: Size;
  /** The page when the frame was taken: viewport (CSS px), scroll, devicePixelRatio. */
  world: { w: number; h: number; sx: number; sy: number; dpr: number };
  box: CssBox;
  preset: PresetName;
  downscale: Downscale;
  /** The target's index in the recorder, and the recorder's read position (advanced here). */
  target: number;
  seen: { n: number };
  naive: boolean;
}

const errorText = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  return `${e.code ?? 'Error'}: ${e.message ?? String(err)}`;
};

/** Waits for a click to reach the recorder: whether a trusted one reached the target; undefined for none. */
async function reached(page: Page, seen: { n: number }, target: number): Promise<boolean | undefined> {
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

export async function groundCell(c: CellInput): Promise<CellOutcome> {
  const truthFrame: FrameGeometry = {
    image: c.image,
    css: { width: c.world.w, height: c.world.h },
    scroll: { x: c.world.sx, y: c.world.sy },
    devicePixelRatio: c.world.dpr,
  };
  const shown = shownSizeFor(c.downscale, c.image, CLIENT_LONG_EDGE, SHOWN_WIDTH);
  const answer = oracleAnswer(c.preset, c.box, truthFrame, shown);
  const req: ClickRequest = { frame: c.shot.frame.id, model: c.preset, model_output: answer.text };
  if (shown) req.shown_width = shown.width;
  const tc: CellOutcome['trueclick'] = { hit: false, dispatched: null };
  try {
    const r = await c.tc.click(req);
    tc.verdict = r.verdict;
    tc.dispatched = r.dispatched;
    if (r.verdict !== 'OK') tc.message = r.message;
    if (r.dispatched) tc.hit = (await reached(c.page, c.seen, c.target)) === true;
  } catch (err) {
    tc.error = errorText(err);
  }
  const out: CellOutcome = { text: answer.text, trueclick: tc };
  if (c.naive) {
    const p = answer.naive;
    if (p.x >= 0 && p.y >= 0 && p.x < c.world.w && p.y < c.world.h) {
      await dispatchClick(await c.tc.driver(), p);
      out.naive = { hit: (await reached(c.page, c.seen, c.target)) === true, point: p, where: 'dispatched' };
    } else out.naive = { hit: false, point: p, where: 'off-screen' };
  }
  return out;
}
